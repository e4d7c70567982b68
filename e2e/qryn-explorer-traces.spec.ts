// The explorer's traces in the browser against the running platform (issue 26). The owner makes a project with a
// qryn instance through the API and pushes one trace over OTLP JSON (a checkout request calling a payments service
// that fails) and a log line naming the trace. A shared link opens the explorer on a TraceQL search; the trace found
// opens as a waterfall (spans nested by parent on one time axis, a span's attributes and events opened by keyboard), Back
// returns to the results; the trace id in the log line is a link to the same waterfall.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { enterAcme } from './acme-session';
import { asRole, expect, test } from './fixtures';
import { freshQrynProject } from './qryn-explorer-setup';

/** Serious and critical axe violations of a region of the page (WCAG 2.1 A/AA and best practice), named. */
async function axeProblems(page: Page, selector: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const attr = (key: string, value: string | number) => ({ key, value: typeof value === 'string' ? { stringValue: value } : { intValue: value } });

async function post(page: Page, url: string, auth: string, data: unknown, expected: number) {
  const response = await page.request.post(url, { headers: { Authorization: auth, 'Content-Type': 'application/json' }, data });
  expect(response.status(), await response.text()).toBe(expected);
}

test.describe('qryn explorer traces as the owner', () => {
  test.use(asRole('owner'));

  test('a trace found by TraceQL opens its waterfall; a trace id in a log line links to it', async ({ page }) => {
    test.setTimeout(120_000);
    const session = await enterAcme(page);
    const { project, url, basic: auth } = await freshQrynProject(session, 'Explorer traces');

    const run = Date.now().toString(36);
    const service = `checkout-${run}`;
    const traceId = `${Date.now().toString(16).padStart(16, '0')}a1b2c3d4e5f60718`.slice(0, 32);
    const start = BigInt(Date.now() - 120_000) * 1_000_000n;
    const ms = 1_000_000n;
    await post(
      page,
      `${url}/v1/traces`,
      auth,
      {
        resourceSpans: [
          {
            resource: { attributes: [attr('service.name', service)] },
            scopeSpans: [
              {
                spans: [
                  { traceId, spanId: '00000000000000a1', name: 'POST /orders', kind: 2, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 120n * ms), attributes: [attr('http.method', 'POST')] },
                  { traceId, spanId: '00000000000000a2', parentSpanId: '00000000000000a1', name: 'reserve stock', kind: 1, startTimeUnixNano: String(start + 5n * ms), endTimeUnixNano: String(start + 15n * ms) },
                ],
              },
            ],
          },
          {
            resource: { attributes: [attr('service.name', `payments-${run}`)] },
            scopeSpans: [
              {
                spans: [
                  { traceId, spanId: '00000000000000b1', parentSpanId: '00000000000000a1', name: 'charge card', kind: 3, startTimeUnixNano: String(start + 20n * ms), endTimeUnixNano: String(start + 80n * ms), attributes: [attr('card.brand', 'visa'), attr('http.status_code', 402)], status: { code: 2 },
                    events: [{ timeUnixNano: String(start + 50n * ms), name: 'card declined', attributes: [attr('decline.code', 'insufficient_funds')] }] },
                ],
              },
            ],
          },
        ],
      },
      200,
    );
    await post(page, `${url}/loki/api/v1/push`, auth, { streams: [{ stream: { app: service }, values: [[String(start + 90n * ms), `level=error msg="payment declined" traceID=${traceId}`]] }] }, 204);

    // A shared link to the TraceQL search; the View connects with key:secret and runs it.
    const query = `{ resource.service.name = "${service}" }`;
    await page.goto(`/${project.slug}/stack/qryn/view?language=traces&query=${encodeURIComponent(query)}`);
    await expect(page.getByText('read with your sign-in')).toBeVisible();

    const traces = page.getByRole('region', { name: 'Traces' });
    const results = traces.getByRole('table', { name: 'Trace results' });
    await expect(results.locator('tbody tr')).toHaveCount(1);
    await expect(results.locator('tbody tr').first()).toContainText(service);
    await expect(results.locator('tbody tr').first()).toContainText('POST /orders');
    await expect(results.locator('tbody tr').first()).toContainText('120ms');
    await traces.getByRole('button', { name: `Open trace ${traceId}` }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('traceId')).toBe(traceId);

    // The waterfall: the root with its two children nested under it, on one time axis.
    const waterfall = traces.getByRole('region', { name: `Trace ${traceId}` });
    await expect(waterfall).toContainText('3 spans in 2 services, 120ms');
    const spans = waterfall.getByRole('list', { name: 'Spans' });
    const root = spans.locator(':scope > li');
    await expect(root).toHaveCount(1);
    await expect(root.locator(':scope > ul > li')).toHaveCount(2);
    const charge = waterfall.getByRole('button', { name: `payments-${run}: charge card, error, 60.0ms, starts at +20.0ms, 1 event` });
    await expect(waterfall.getByRole('button', { name: `${service}: POST /orders, 120ms, starts at +0µs, 2 child spans` })).toBeVisible();
    await charge.focus();
    await page.keyboard.press('Enter');
    await expect(waterfall.getByRole('table', { name: 'Span attributes' })).toContainText('visa');
    await expect(waterfall.getByRole('table', { name: 'Resource attributes' })).toContainText(`payments-${run}`);
    // Its event, stored at the push and answered by the trace read: 30 ms after the span's start, with its attribute.
    const events = waterfall.getByRole('region', { name: 'Events' });
    await expect(events.getByRole('listitem')).toHaveText(/^\+30\.0ms\s*card declined/);
    await expect(events.getByRole('table', { name: 'Attributes of card declined at +30.0ms' })).toContainText('insufficient_funds');
    // The waterfall with a span opened has no serious or critical axe violation.
    expect(await axeProblems(page, 'section[aria-label="Traces"]')).toEqual([]);
    await traces.getByRole('button', { name: 'Back to the trace results' }).click();
    await expect(results.locator('tbody tr')).toHaveCount(1);
    await expect.poll(() => new URL(page.url()).searchParams.get('traceId')).toBeNull();

    // The trace id in a log line is a link to the same waterfall, opened in a second pane beside the logs.
    await page.goto(`/${project.slug}/stack/qryn/view?language=logs&query=${encodeURIComponent(`{app="${service}"}`)}`);
    await page.getByRole('region', { name: 'Logs' }).getByRole('link', { name: `Open trace ${traceId}` }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('right.traceId')).toBe(traceId);
    await expect(page.getByRole('region', { name: 'Right pane' }).getByRole('region', { name: `Trace ${traceId}` })).toContainText('3 spans in 2 services');
  });
});
