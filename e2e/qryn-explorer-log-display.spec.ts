// The explorer's line display in the browser: wrap lines, prettify JSON, deduplication and order change how a log
// query's lines show, and all four are in the address, so a reload shows the lines the same way.
import type { Page } from '@playwright/test';
import { enterAcme } from './acme-session';
import { asRole, expect, test } from './fixtures';
import { freshQrynProject } from './qryn-explorer-setup';

const params = (page: Page) => new URL(page.url()).searchParams;

test.describe('qryn explorer line display as the owner', () => {
  test.use(asRole('owner'));

  test('wrap, prettify JSON, deduplication and order apply to the lines and survive a reload', async ({ page }) => {
    test.setTimeout(180_000);
    const session = await enterAcme(page);
    const { project, url, basic } = await freshQrynProject(session, 'Explorer display');
    const app = `display-${Date.now().toString(36)}`;
    const at = (agoMs: number) => String(BigInt(Date.now() - agoMs) * 1_000_000n);
    const long = `level=info msg="${'a long line that goes on '.repeat(20)}end"`;
    const pushed = await page.request.post(`${url}/loki/api/v1/push`, {
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      data: { streams: [{ stream: { app }, values: [
        [at(50_000), 'first line of the run'],
        [at(40_000), 'retry 1 failed'],
        [at(30_000), 'retry 2 failed'],
        [at(20_000), '{"user":"ann","cart":{"items":3}}'],
        [at(10_000), long],
      ] }] },
    });
    expect(pushed.status(), await pushed.text()).toBe(204);

    await page.goto(`/${project.slug}/stack/qryn/view?language=logs&query=${encodeURIComponent(`{app="${app}"}`)}`);
    const logs = page.getByRole('region', { name: 'Logs' });
    const rows = logs.getByRole('list', { name: 'Log lines' }).locator(':scope > li');
    await expect(rows).toHaveCount(5, { timeout: 30_000 });
    await expect(rows.first()).toContainText('end');
    const oneLine = (await rows.first().boundingBox())!.height;

    const display = logs.getByRole('group', { name: 'Line display' });
    await display.getByRole('combobox', { name: 'Deduplication' }).selectOption('numbers');
    await expect(rows).toHaveCount(4);
    await expect(logs.getByRole('status').filter({ hasText: 'lines' })).toHaveText('5 lines, newest first (1 duplicate folded).');
    await expect(rows.nth(2)).toContainText('2×');
    await expect(rows.nth(2)).toContainText('retry 2 failed');

    await display.getByRole('combobox', { name: 'Order' }).selectOption('oldest');
    await expect(rows.first()).toContainText('first line of the run');
    await expect(rows.nth(1)).toContainText('retry 1 failed');

    await display.getByRole('checkbox', { name: 'Prettify JSON' }).check();
    await expect.poll(async () => rows.nth(2).locator('[data-line-text]').innerText()).toContain('"cart": {\n    "items": 3');
    await display.getByRole('checkbox', { name: 'Wrap lines' }).check();
    await expect.poll(async () => (await rows.last().boundingBox())!.height).toBeGreaterThan(oneLine * 2);
    await expect.poll(() => params(page).toString()).toContain('wrap=1&prettify=1&dedup=numbers&order=oldest');

    await page.reload();
    await expect(rows).toHaveCount(4, { timeout: 30_000 });
    await expect(display.getByRole('checkbox', { name: 'Wrap lines' })).toBeChecked();
    await expect(display.getByRole('checkbox', { name: 'Prettify JSON' })).toBeChecked();
    await expect(display.getByRole('combobox', { name: 'Deduplication' })).toHaveValue('numbers');
    await expect(display.getByRole('combobox', { name: 'Order' })).toHaveValue('oldest');
    await expect(rows.first()).toContainText('first line of the run');
    await expect.poll(async () => (await rows.last().boundingBox())!.height).toBeGreaterThan(oneLine * 2);
  });

  test("Show context: the line is in its own context, marked and scrolled into view", async ({ page }) => {
    test.setTimeout(180_000);
    const session = await enterAcme(page);
    const { project, url, basic } = await freshQrynProject(session, 'Explorer context');
    const app = `context-${Date.now().toString(36)}`;
    const base = Date.now() - 60_000;
    const values = Array.from({ length: 25 }, (_, i) => [String(BigInt(base + i * 1_000) * 1_000_000n), `step ${String(i).padStart(2, '0')} of the job`]);
    const pushed = await page.request.post(`${url}/loki/api/v1/push`, {
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      data: { streams: [{ stream: { app }, values }] },
    });
    expect(pushed.status(), await pushed.text()).toBe(204);

    await page.goto(`/${project.slug}/stack/qryn/view?language=logs&query=${encodeURIComponent(`{app="${app}"}`)}`);
    const rows = page.getByRole('list', { name: 'Log lines' }).locator(':scope > li');
    await expect(rows).toHaveCount(25, { timeout: 30_000 });
    // Newest first: the 13th row is step 12, with 10 lines on each side in its stream.
    const row = rows.filter({ hasText: 'step 12 of the job' });
    await row.getByRole('button', { name: /^Open the line of/ }).click();
    await row.getByRole('button', { name: 'Show context' }).click();
    // The list draws the rows in view only: once scrolled, the row is found by its text, not its place.
    const context = page.getByRole('region', { name: 'Context' });
    await expect(context.getByRole('list', { name: 'Lines before' }).locator('li')).toHaveCount(10);
    await expect(context.getByRole('list', { name: 'Lines after' }).locator('li')).toHaveCount(10);
    const anchor = context.getByLabel('This line');
    await expect(anchor).toHaveAttribute('aria-current', 'true');
    await expect(anchor).toContainText('step 12 of the job');
    await expect(anchor).toBeInViewport();
  });
});
