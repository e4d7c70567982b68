// Loggen in the browser against the running platform: the owner adds Loggen to a project whose qryn instance the
// demo data created, the form starts from that instance (its URL, key and a token made for Loggen), a run of 50
// lines a second for 5 s streams 'Running... N%' to 'Loggen is done', and the instance then holds 250 more logfmt
// lines labelled app=checkout (its stats and a Loki read say so). A wrong secret ends in 'Loggen failed'.
import type { Page } from '@playwright/test';
import { recordAccessTokens, type ReceivedToken } from './access-tokens';
import { axeFindings } from './axe-themes';
import { asRole, expect, test } from './fixtures';

async function openAcmeProduction(page: Page) {
  await page.goto('/projects');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await sidebar.getByRole('link', { name: 'Acme' }).click();
  await expect(sidebar.getByRole('link', { name: /^Acme/ })).toHaveAttribute('aria-current', 'true');
  await sidebar.getByRole('link', { name: 'Projects', exact: true }).click();
  await page.getByRole('link', { name: /Acme Production/ }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Stack' })).toBeVisible();
}

const monthStart = () => {
  const now = new Date();
  return Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000);
};

test.describe('Loggen as the owner', () => {
  test.use(asRole('owner'));

  test('add Loggen, run 50 lines/s for 5 s into the qryn instance, then a wrong secret fails', async ({ page }) => {
    test.setTimeout(120_000);
    const tokens = recordAccessTokens(page);
    await openAcmeProduction(page);
    const projectId = Number(new URL(page.url()).pathname.split('/')[1].split('-').at(-1));
    const token = (): ReceivedToken => tokens.at(-1)!;
    const api = (path: string, init: { method?: string; data?: unknown } = {}) =>
      page.request.fetch(`/api/${path}`, { method: init.method ?? 'GET', data: init.data, headers: { Authorization: `Bearer ${token().raw}` } });
    const logsRows = async () => {
      const metrics = await (await api(`integrations/qryn/metrics?project_id=${projectId}&start=${monthStart()}&end=${Math.floor(Date.now() / 1000) + 60}`)).json();
      return Number(metrics.logs_rows);
    };
    await expect.poll(() => typeof tokens.at(-1)?.claims.organization_id).toBe('number');
    const before = await logsRows();

    await page.getByRole('link', { name: 'Add a product' }).click();
    await page.getByRole('button', { name: 'Add Loggen to this project' }).click();
    await expect(page).toHaveURL(/\/stack\/loggen/);
    await expect(page).toHaveTitle('Loggen Configuration');

    const form = page.getByRole('form', { name: 'Loggen configuration' });
    await expect(form.getByLabel('qryn instance URL')).toHaveValue(/\/qryn\/[a-f0-9]+$/);
    await expect(form.getByLabel('API secret')).toHaveValue(/^qt_/);
    await form.getByLabel('Value 1', { exact: true }).fill('checkout');
    await form.getByLabel('Rate (logs per second)').fill('0');
    await form.getByRole('button', { name: 'Save and run' }).click();
    // The rule is checked before anything is sent.
    await expect(form.getByText('The rate must be between 1 and 100')).toBeVisible();
    await form.getByLabel('Rate (logs per second)').fill('50');
    await form.getByRole('combobox', { name: 'Timeout' }).click();
    await page.getByRole('option', { name: '5s', exact: true }).click();
    await form.getByRole('combobox', { name: 'Format' }).click();
    await page.getByRole('option', { name: 'logfmt' }).click();
    await form.getByRole('button', { name: 'Save and run' }).click();

    await expect(form.getByRole('button', { name: /Running\.\.\. \d+%/ })).toBeVisible();
    await expect(page.getByText('Loggen is running')).toBeVisible();
    // The toast never covers what raised it: Stop, the progress and the running button stay clear of it.
    const covered = async () => {
      const toast = await page.getByRole('region', { name: 'Notifications' }).getByRole('status').first().boundingBox();
      const boxes = await Promise.all([form.getByRole('button', { name: 'Stop' }), form.getByRole('progressbar', { name: 'Loggen run' })].map((c) => c.boundingBox()));
      // While the run is on: without Stop on screen there is nothing to judge, and the poll goes on.
      if (!toast || boxes.some((b) => b === null)) return null;
      return boxes.filter((b) => b && b.x < toast.x + toast.width && toast.x < b.x + b.width && b.y < toast.y + toast.height && toast.y < b.y + b.height).length;
    };
    await expect.poll(covered, { timeout: 3_000 }).toBe(0);
    await expect(form.getByText('Loggen is done')).toBeVisible({ timeout: 30_000 });
    await expect(form.getByText('250 log lines were accepted by the qryn instance.')).toBeVisible();
    expect(await axeFindings(page)).toEqual([]);

    // The instance counted them, and a Loki read with a read token returns logfmt lines labelled app=checkout.
    expect((await logsRows()) - before).toBe(250);
    const created = await (await api('integrations/qryn/tokens', { method: 'POST', data: { name: 'e2e read', scope: 'read', project_id: projectId } })).json();
    const url = await form.getByLabel('qryn instance URL').inputValue();
    const params = new URLSearchParams({ query: '{app="checkout"}', limit: '1000', start: `${Date.now() - 600_000}000000`, end: `${Date.now() + 60_000}000000` });
    const answer = await page.request.get(`${url}/loki/api/v1/query_range?${params}`, { headers: { Authorization: `Bearer ${created.token.token}` } });
    expect(answer.status(), await answer.text()).toBe(200);
    const read = await answer.json();
    const lines = (read.data.result as { values: [string, string][] }[]).flatMap((stream) => stream.values.map(([, line]) => line));
    expect(lines.length).toBeGreaterThanOrEqual(250);
    expect(lines[0]).toMatch(/^level=\w+ service=\w+ method=[A-Z]+ /);

    // Leaving the page and coming back: the last run is still shown.
    await page.reload();
    await expect(form.getByText('Loggen is done').or(form.getByRole('button', { name: 'Save and run' }))).toBeVisible();

    // A wrong secret: the gateway refuses, the run fails with the reason, nothing is counted.
    const counted = await logsRows();
    await form.getByLabel('API secret').fill('not-the-secret');
    await form.getByRole('button', { name: 'Save and run' }).click();
    await expect(form.getByText('Loggen failed')).toBeVisible({ timeout: 30_000 });
    await expect(form.getByText(/refused the API key and secret/)).toBeVisible();
    expect(await logsRows()).toBe(counted);
  });
});
