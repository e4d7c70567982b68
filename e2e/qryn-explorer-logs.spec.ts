// The explorer's logs in the browser against the running platform (issue 26). The owner makes a project with a
// qryn instance through the API and pushes JSON log lines in two level streams; a shared link opens the explorer on
// a log query, the View connects with key:secret, and the page shows the volume histogram by level and the lines,
// newest first. Opening a line and "Filter for value" on a parsed field adds `| json | user="ann"` to the query,
// which runs again. Live tail shows a line pushed after it started; Pause holds new lines back until Resume.
import { readFile } from 'node:fs/promises';
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


async function push(page: Page, url: string, auth: string, streams: { stream: Record<string, string>; values: [string, string][] }[]) {
  const response = await page.request.post(`${url}/loki/api/v1/push`, { headers: { Authorization: auth, 'Content-Type': 'application/json' }, data: { streams } });
  expect(response.status()).toBe(204);
}

test.describe('qryn explorer logs as the owner', () => {
  test.use(asRole('owner'));

  test('volume histogram and lines, a parsed field filters the query, live tail with pause', async ({ page }) => {
    test.setTimeout(120_000);
    const session = await enterAcme(page);
    const { project, url, basic: auth } = await freshQrynProject(session, 'Explorer logs');
    const config = { url };
    const app = `explorer-${Date.now().toString(36)}`;
    const t = BigInt(Date.now() - 60_000) * 1_000_000n;
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await push(page, config.url, auth, [
      { stream: { app, level: 'info' }, values: [[String(t), '{"msg":"cart ok","user":"bob"}'], [String(t + 2_000_000n), '{"msg":"login","user":"ann"}']] },
      { stream: { app, level: 'error' }, values: [[String(t + 1_000_000n), `{"msg":"payment failed","user":"ann","traceId":"${traceId}"}`]] },
    ]);

    // A shared link: the logs of the app over the last hour, run on arrival once connected.
    const query = `{app="${app}"}`;
    await page.goto(`/${project.slug}/stack/qryn/view?language=logs&query=${encodeURIComponent(query)}`);
    await expect(page.getByText('read with your sign-in')).toBeVisible();

    const logs = page.getByRole('region', { name: 'Logs' });
    const volume = logs.getByRole('figure', { name: 'Log volume' });
    await expect(volume).toBeVisible();
    await expect(volume.getByRole('img')).toHaveAttribute('aria-label', /^Log volume: 3 lines in \d+ steps? of \d+s: 1 error, 2 info\.$/);
    await volume.getByRole('button', { name: 'Show the volume numbers' }).click();
    await expect(volume.getByRole('table', { name: 'Log volume by level' })).toBeVisible();
    const lines = logs.getByRole('list', { name: 'Log lines' }).locator(':scope > li');
    await expect(lines).toHaveCount(3);
    // Newest first, coloured by the stream's level.
    await expect(lines.nth(0)).toContainText('login');
    await expect(lines.nth(1)).toHaveAttribute('data-level', 'error');
    await expect(lines.nth(1).getByRole('link', { name: `Open trace ${traceId}` })).toBeVisible();

    // The lines export as the View's table, built in the browser.
    const [csv] = await Promise.all([page.waitForEvent('download'), logs.getByRole('link', { name: 'Export CSV' }).click()]);
    // Named after the query, the instance and the end of the range read (UTC).
    expect(csv.suggestedFilename()).toMatch(new RegExp(`^app-${app.replace(/[^\w.]+/g, '-')}__[\\w.-]+__\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ\\.csv$`));
    const exported = (await readFile((await csv.path())!, 'utf8')).trim().split('\n');
    expect(exported[0]).toBe('Time,Labels,Line');
    expect(exported).toHaveLength(4);
    expect(exported[2]).toMatch(/^\d{4}-\d\d-\d\dT[^,]+Z,/);
    expect(exported[2]).toContain(`,"{app=""${app}"", level=""error""}","{""msg"":""payment failed""`);

    // Open the error line by keyboard: its labels and its parsed fields; filter for the user.
    await lines.nth(1).getByRole('button', { name: /^Open the line of/ }).focus();
    await page.keyboard.press('Enter');
    await expect(lines.nth(1).getByRole('table', { name: 'Labels' })).toContainText(app);
    const fields = lines.nth(1).getByRole('table', { name: 'Fields (json)' });
    await expect(fields).toContainText('payment failed');
    // The opened line, with its labels and fields, has no serious or critical axe violation.
    expect(await axeProblems(page, 'section[aria-label="Logs"]')).toEqual([]);
    await fields.getByRole('button', { name: 'Filter for value user="ann"' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('query')).toBe(`${query} | json | user="ann"`);
    await expect(lines).toHaveCount(2);
    await expect(logs.getByRole('list', { name: 'Log lines' })).not.toContainText('cart ok');

    // Live tail: a line pushed after it started shows; while paused, new lines wait.
    await logs.getByRole('button', { name: 'Start live tail' }).click();
    await expect(logs.getByRole('status').filter({ hasText: /^Live:/ })).toBeVisible();
    await push(page, config.url, auth, [{ stream: { app, level: 'warn' }, values: [[`${BigInt(Date.now()) * 1_000_000n}`, '{"msg":"tail one","user":"ann"}']] }]);
    const live = logs.getByRole('list', { name: 'Live log lines' });
    await expect(live).toContainText('tail one', { timeout: 15_000 });
    await logs.getByRole('button', { name: 'Pause' }).click();
    await push(page, config.url, auth, [{ stream: { app, level: 'warn' }, values: [[`${BigInt(Date.now()) * 1_000_000n}`, '{"msg":"tail two","user":"ann"}']] }]);
    await expect(logs.getByRole('status').filter({ hasText: 'Paused: 1 new line waiting.' })).toBeVisible({ timeout: 15_000 });
    await expect(live).not.toContainText('tail two');
    await logs.getByRole('button', { name: 'Resume' }).click();
    await expect(live.locator(':scope > li').first()).toContainText('tail two');
    await logs.getByRole('button', { name: 'Stop live tail' }).click();
    await expect(logs.getByRole('status').filter({ hasText: 'The live tail is stopped.' })).toBeVisible();
  });
});
