// The explorer's traces in the browser against the running platform (issue 26). The owner makes a project with a
// qryn instance through the API and pushes one trace over OTLP JSON (a checkout request calling a payments service
// that fails) and a log line naming the trace. A shared link opens the explorer on a TraceQL search; the trace found
// opens as a waterfall (spans nested by parent on one time axis, a span's attributes and events opened by keyboard), Back
// returns to the results; the trace id in the log line is a link to the same waterfall. A TraceQL metrics query is
// drawn as a chart with its series (structural and by() forms), with Tempo's error text and an empty state, and the
// editor completes pipeline stages and structural operators.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { enterAcme } from './acme-session';
import { setTheme } from './axe-themes';
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

  test('a TraceQL metrics query draws its series; errors, the empty state and completion', async ({ page }) => {
    test.setTimeout(120_000);
    const session = await enterAcme(page);
    const { project, url, basic: auth } = await freshQrynProject(session, 'Explorer trace metrics');
    const run = Date.now().toString(36);
    const shop = `shop-${run}`;
    const start = BigInt(Date.now() - 120_000) * 1_000_000n;
    const ms = 1_000_000n;
    const id = (i: number, width: number) => `${run}${i}`.replace(/[^0-9a-f]/g, 'f').padStart(width, '0').slice(-width);
    // Three traces of the shop, a millisecond apart: a server span with a client child, failing in the first two.
    const spans = [0, 1, 2].flatMap((i) => [
      { traceId: id(i, 32), spanId: id(10 + i, 16), name: 'GET /basket', kind: 2, startTimeUnixNano: String(start + BigInt(i) * ms), endTimeUnixNano: String(start + BigInt(i) * ms + 50n * ms) },
      { traceId: id(i, 32), spanId: id(20 + i, 16), parentSpanId: id(10 + i, 16), name: 'SELECT basket', kind: 3, startTimeUnixNano: String(start + BigInt(i) * ms + 5n * ms), endTimeUnixNano: String(start + BigInt(i) * ms + 25n * ms), status: { code: i < 2 ? 2 : 0 } },
    ]);
    await post(page, `${url}/v1/traces`, auth, { resourceSpans: [{ resource: { attributes: [attr('service.name', shop)] }, scopeSpans: [{ spans }] }] }, 200);

    const traces = page.getByRole('region', { name: 'Traces' });
    const open = (query: string) => page.goto(`/${project.slug}/stack/qryn/view?language=traces&query=${encodeURIComponent(query)}`);
    // by(): one series per value, drawn and listed with its points.
    await open(`{ resource.service.name = "${shop}" } | count_over_time() by (kind)`);
    await expect(traces.getByRole('figure', { name: 'Chart of 2 series' })).toBeVisible();
    const series = traces.getByRole('table', { name: 'Metric series' });
    await expect(series.locator('tbody tr')).toHaveCount(2);
    await expect(series).toContainText('{kind="server"}');
    await expect(series).toContainText('{kind="client"}');
    // A structural count: the failing children of server spans, one series named by its function.
    await open(`{ kind = server && resource.service.name = "${shop}" } > { status = error } | count_over_time()`);
    await expect(traces.getByRole('figure', { name: 'Chart of 1 series' })).toBeVisible();
    await expect(series.locator('tbody tr')).toHaveCount(1);
    await expect(series.locator('tbody tr td').first()).toHaveText('count_over_time');
    // Two failing children in the range: the sum of the series' points.
    await expect(series.locator('tbody tr td').nth(2)).toHaveText('2');
    for (const theme of ['dark', 'light'] as const) {
      await setTheme(page, theme);
      expect(await axeProblems(page, 'section[aria-label="Traces"]'), theme).toEqual([]);
    }
    // Nothing matched: the empty state, no chart.
    await open(`{ resource.service.name = "nobody-${run}" } | rate()`);
    await expect(traces.getByRole('status')).toHaveText('No spans matched in this time range.');
    await expect(traces.getByRole('figure')).toHaveCount(0);
    // Tempo's parse error, at the query.
    await open('{ } | rate(');
    await expect(traces.getByRole('alert')).toContainText('parse error');

    // Completion: after a filter the structural operators, after a pipe the metrics functions.
    const editor = page.getByRole('textbox', { name: 'Query (TraceQL)' });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(`{ resource.service.name = "${shop}" } >`);
    await expect(page.getByRole('listbox').getByRole('option', { name: '>>' })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.keyboard.type(' { status = error } | count_o');
    const option = page.getByRole('listbox').getByRole('option', { name: 'count_over_time()' });
    await expect(option).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(editor).toContainText('| count_over_time()');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect(traces.getByRole('figure', { name: 'Chart of 1 series' })).toBeVisible();
  });
});
