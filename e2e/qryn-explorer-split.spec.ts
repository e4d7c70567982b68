// The explorer's split view in the browser against the running platform: a log line's trace opens in a second pane
// beside the logs (which stay), a span's "Logs for this span" opens the trace's lines in the other pane, and the
// address holds both panes, so Back, Forward and a copied link restore them and run their queries again.
import type { Page } from '@playwright/test';
import { enterAcme } from './acme-session';
import { axeFindings } from './axe-themes';
import { asRole, expect, test } from './fixtures';
import { freshQrynProject } from './qryn-explorer-setup';

async function post(page: Page, url: string, auth: string, data: unknown, expected: number) {
  const response = await page.request.post(url, { headers: { Authorization: auth, 'Content-Type': 'application/json' }, data });
  expect(response.status(), await response.text()).toBe(expected);
}

test.describe('qryn explorer split view as the owner', () => {
  test.use(asRole('owner'));

  test('log → trace opens beside the logs; span → logs opens in the other pane; the address restores both', async ({ page, context }) => {
    test.setTimeout(180_000);
    const session = await enterAcme(page);
    const { project, url, basic: auth } = await freshQrynProject(session, 'Explorer split');

    const run = Date.now().toString(36);
    const service = `shop-${run}`;
    const traceId = `${Date.now().toString(16).padStart(16, '0')}c0ffee00deadbeef`.slice(0, 32);
    const start = BigInt(Date.now() - 120_000) * 1_000_000n;
    const ms = 1_000_000n;
    const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
    await post(page, `${url}/v1/traces`, auth, {
      resourceSpans: [{ resource: { attributes: [str('service.name', service)] }, scopeSpans: [{ spans: [
        { traceId, spanId: '00000000000000c1', name: 'GET /cart', kind: 2, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 40n * ms) },
      ] }] }],
    }, 200);
    await post(page, `${url}/loki/api/v1/push`, auth, { streams: [
      { stream: { service_name: service }, values: [
        [String(start + 10n * ms), `level=info msg="cart read" traceID=${traceId}`],
        [String(start + 20n * ms), 'level=info msg="unrelated line"'],
      ] },
    ] }, 204);

    const logsQuery = `{service_name="${service}"}`;
    await page.goto(`/${project.slug}/stack/qryn/view?language=logs&query=${encodeURIComponent(logsQuery)}`);
    const logs = page.getByRole('region', { name: 'Logs' });
    // The first read of a fresh instance on a loaded machine can take longer than the usual wait.
    await expect(logs.getByRole('list', { name: 'Log lines' }).locator(':scope > li')).toHaveCount(2, { timeout: 30_000 });

    // The trace link opens a second pane; the logs stay where they were, with both lines.
    await logs.getByRole('link', { name: `Open trace ${traceId}` }).click();
    const left = page.getByRole('region', { name: 'Left pane' });
    const right = page.getByRole('region', { name: 'Right pane' });
    await expect(right.getByRole('region', { name: `Trace ${traceId}` })).toContainText('1 span in 1 service');
    await expect(left.getByRole('region', { name: 'Logs' }).getByRole('list', { name: 'Log lines' }).locator(':scope > li')).toHaveCount(2);
    await expect(left.getByRole('textbox', { name: 'Query (LogQL)' })).toHaveText(logsQuery);
    await expect.poll(() => new URL(page.url()).searchParams.get('right.traceId')).toBe(traceId);
    await expect.poll(() => new URL(page.url()).searchParams.get('right.language')).toBe('traces');
    expect(await axeFindings(page)).toEqual([]);

    // The span's logs open in the other pane (the left): the service's stream, lines with the trace id.
    await right.getByRole('button', { name: new RegExp(`^${service}: GET /cart`) }).click();
    await right.getByRole('button', { name: `Logs for this span (${service}: GET /cart)` }).click();
    const spanLogs = `{service_name="${service}"} |= "${traceId}"`;
    await expect(left.getByRole('textbox', { name: 'Query (LogQL)' })).toHaveText(spanLogs);
    await expect(left.getByRole('list', { name: 'Log lines' }).locator(':scope > li')).toHaveCount(1);
    await expect(left.getByRole('list', { name: 'Log lines' })).toContainText('cart read');
    await expect(right.getByRole('region', { name: `Trace ${traceId}` })).toBeVisible();
    const shared = page.url();

    // Back: the left pane's first query, run again (both lines); the trace still beside it. Back again: one pane.
    await page.goBack();
    await expect(left.getByRole('textbox', { name: 'Query (LogQL)' })).toHaveText(logsQuery);
    await expect(left.getByRole('list', { name: 'Log lines' }).locator(':scope > li')).toHaveCount(2);
    await expect(right.getByRole('region', { name: `Trace ${traceId}` })).toBeVisible();
    await page.goBack();
    await expect(right).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Logs' }).getByRole('list', { name: 'Log lines' }).locator(':scope > li')).toHaveCount(2);
    await page.goForward();
    await expect(right.getByRole('region', { name: `Trace ${traceId}` })).toBeVisible();

    // The copied address in another tab: both panes, both run.
    const other = await context.newPage();
    await other.goto(shared);
    await expect(other.getByRole('region', { name: 'Left pane' }).getByRole('list', { name: 'Log lines' }).locator(':scope > li')).toHaveCount(1);
    await expect(other.getByRole('region', { name: 'Right pane' }).getByRole('region', { name: `Trace ${traceId}` })).toContainText('1 span in 1 service');

    // Close the split: the left pane stays, the right pane's names leave the address.
    await other.getByRole('button', { name: 'Close the split' }).click();
    await expect(other.getByRole('region', { name: 'Right pane' })).toHaveCount(0);
    await expect.poll(() => new URL(other.url()).searchParams.get('right.language')).toBeNull();
    await expect(other.getByRole('region', { name: 'Logs' }).getByRole('list', { name: 'Log lines' }).locator(':scope > li')).toHaveCount(1);
  });
});
