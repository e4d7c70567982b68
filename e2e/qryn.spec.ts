// qryn in the browser against the running platform. The owner adds qryn to a fresh Acme project through the
// catalogue (show-config → show-info), copies the key and secret, downloads the JSON, pushes with the Data Ingestion
// page's curl example run by a shell, and sees the Overview counts rise; rotates the keys (the old secret is then
// refused); creates a read token (a push with it is refused) and deletes it; changes the Config page's settings and
// sets a fingerprints limit (new series past it are refused and the Overview shows the banner). A read-only member
// sees the Overview and the explorer only.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { FINGERPRINT_LIMIT_REACHED_MESSAGE } from '../contract/qryn';
import { recordAccessTokens } from './access-tokens';
import { axeFindings } from './axe-themes';
import { asRole, expect, test } from './fixtures';

const run = promisify(execFile);

async function openAcme(page: Page) {
  await page.goto('/projects');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await sidebar.getByRole('link', { name: 'Acme' }).click();
  await expect(sidebar.getByRole('link', { name: /^Acme/ })).toHaveAttribute('aria-current', 'true');
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** A Loki JSON push with `streams` new series, as an agent would send it; answers the status. */
async function pushSeries(page: Page, url: string, auth: string, streams: number, job: string) {
  const now = `${Date.now()}000000`;
  const body = { streams: Array.from({ length: streams }, (_, i) => ({ stream: { job, n: String(i) }, values: [[now, `line ${i}`]] })) };
  const response = await page.request.post(`${url}/loki/api/v1/push`, { headers: { Authorization: auth, 'Content-Type': 'application/json' }, data: body });
  return response.status();
}
const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

test.describe('qryn as the owner', () => {
  test.use({ ...asRole('owner'), permissions: ['clipboard-read', 'clipboard-write'] });

  test('enable, copy the keys, push with the page example, rotate, tokens, settings and the fingerprints limit', async ({ page }) => {
    test.setTimeout(180_000);
    const tokens = recordAccessTokens(page);
    await openAcme(page);
    await expect.poll(() => typeof tokens.at(-1)?.claims.organization_id).toBe('number');
    const created = await page.request.post('/api/projects/', { headers: { Authorization: `Bearer ${tokens.at(-1)!.raw}` }, data: { name: `qryn e2e ${Date.now()}` } });
    expect(created.status()).toBe(201);
    const { slug } = (await created.json()) as { slug: string };

    // Enable through the catalogue: show-config (storage, writer region, retention), then show-info.
    await page.goto(`/${slug}/stack/add`);
    await page.getByRole('button', { name: 'Add Observability to this project' }).click();
    const configure = page.getByRole('form', { name: 'Configure Observability' });
    await configure.getByRole('button', { name: 'Enable Observability' }).click();
    // The writer region is required: the spec's message at the field, nothing sent.
    await expect(configure.getByText('Please select from where qryn data will be ingested')).toBeVisible();
    await configure.getByLabel(/^Storage/).selectOption({ index: 1 });
    await configure.getByLabel(/^Writer region/).selectOption({ index: 1 });
    await configure.getByRole('button', { name: 'Enable Observability' }).click();
    const info = page.getByRole('dialog', { name: 'Observability is enabled' });
    await expect(info.getByText('API KEY', { exact: true })).toBeVisible();
    await info.getByRole('button', { name: 'Copy API KEY' }).click();
    const apiKey = await clipboard(page);
    await info.getByRole('button', { name: 'Copy API SECRET' }).click();
    const apiSecret = await clipboard(page);
    expect(apiKey).toMatch(/^qk_/);
    expect(apiSecret.length).toBeGreaterThan(20);
    const [download] = await Promise.all([page.waitForEvent('download'), info.getByRole('link', { name: 'Download JSON' }).click()]);
    const json = JSON.parse(await readFile((await download.path())!, 'utf8')) as Record<string, string>;
    expect(json).toEqual({ product: 'qryn', api_key: apiKey, api_secret: apiSecret });
    await info.getByRole('link', { name: 'Open Observability' }).click();
    await expect(page).toHaveURL(new RegExp(`/${slug}/stack/qryn$`));
    await expect(page).toHaveTitle('Observability Overview');

    // A fresh instance: no byte count yet, so the stats show quota (the default stored-bytes quota), rotation point
    // and the per-type rows.
    await expect(page.getByRole('group', { name: 'Storage Quota' })).toContainText('10 GB');
    await expect(page.getByRole('group', { name: 'Stored of quota' })).toContainText('0 B of 10 GB (0%)');
    await expect(page.getByRole('table', { name: 'Ingested data by type' }).getByRole('row', { name: /Logs/ })).toContainText('0');
    const url = (await page.getByLabel('Your qryn Instance').textContent())!;
    expect(url).toMatch(/\/qryn\/[a-f0-9]+$/);
    // Nothing stored yet: the first-data snippets are offered.
    await expect(page.getByRole('region', { name: 'Send your first data' })).toBeVisible();
    expect(await axeFindings(page)).toEqual([]);

    // Data Ingestion: the page's curl example, filled with the copied secret, run by a shell.
    await page.getByRole('navigation', { name: 'qryn' }).getByRole('link', { name: 'Data Ingestion' }).click();
    await expect(page).toHaveURL(/\/data-ingestion\/logs--logql$/);
    await expect(page).toHaveTitle('Observability Data Ingestion');
    await expect(page.getByRole('table', { name: 'Compatibility' }).getByRole('row')).toHaveCount(11);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(csv.suggestedFilename()).toBe('YourData.csv');
    expect(await readFile((await csv.path())!, 'utf8')).toContain('Promtail Lambda,yes,no,no');
    await page.getByRole('link', { name: 'Logs: cURL' }).click();
    await page.getByLabel('API secret for the examples').fill(apiSecret);
    const example = page.getByRole('figure', { name: 'Push a log line with curl (Loki JSON)' });
    await expect(example).toContainText(apiKey);
    await example.getByRole('button', { name: /^Copy/ }).click();
    const command = await clipboard(page);
    expect(command).toContain(`${apiKey}:${apiSecret}`);
    await run('bash', ['-c', command]);

    // The Overview counts it: now with a byte count, the four totals.
    await page.getByRole('navigation', { name: 'qryn' }).getByRole('link', { name: 'Overview' }).click();
    // The stats on the page were read before the push: refresh them, as a person would.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('group', { name: 'Metrics & logs' })).toContainText('1');
    await expect(page.getByRole('group', { name: 'Total unique fingerprints' })).toContainText('1');
    // Data has arrived: the onboarding card gives way.
    await expect(page.getByRole('region', { name: 'Send your first data' })).toHaveCount(0);

    // qryn View from the Overview's side card: it reads with the owner's sign-in (nothing pasted, nothing written to
    // the organization_project cookie); in the explorer's Logs, the label browser lists the pushed stream and builds
    // its selector, the query shows the line, the CSV export is built in the browser.
    await page.getByRole('link', { name: 'qryn View' }).click();
    await expect(page).toHaveURL(new RegExp(`/${slug}/stack/qryn/view$`));
    await expect(page).toHaveTitle('Observability qryn View');
    await expect(page.getByText('read with your sign-in')).toBeVisible();
    await page.getByRole('button', { name: 'Logs (LogQL)' }).click();
    const labelBrowser = page.getByRole('region', { name: 'Label browser' });
    await labelBrowser.getByLabel('Label').selectOption('job');
    await labelBrowser.getByText('curl-example', { exact: true }).click();
    await expect(labelBrowser.locator('output')).toHaveText('{job="curl-example"}');
    await labelBrowser.getByRole('button', { name: 'Use query' }).click();
    await expect(page.getByRole('textbox', { name: 'Query (LogQL)' })).toHaveText('{job="curl-example"}');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect(page.getByRole('region', { name: 'Logs' })).toContainText('Hello from curl');
    expect((await page.context().cookies()).find((c) => c.name === 'organization_project')).toBeUndefined();
    const [viewCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(viewCsv.suggestedFilename()).toMatch(/^job-curl-example__[\w.-]+__\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.csv$/);
    const exported = (await readFile((await viewCsv.path())!, 'utf8')).trim().split('\n');
    expect(exported[0]).toBe('Time,Labels,Line');
    expect(exported).toHaveLength(2);
    expect(exported[1]).toMatch(/^\d{4}-\d\d-\d\dT[^,]+,"\{job=""curl-example"", level=""info""\}",Hello from curl$/);
    // A reload connects with the sign-in again, no form to fill, and reopens the query from the address.
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Query (LogQL)' })).toHaveText('{job="curl-example"}');
    await expect(page.getByRole('form', { name: 'Connect' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Back to the Overview' }).click();

    // Rotate API keys: the old secret is refused at once, the new one accepted.
    await page.getByRole('button', { name: 'Rotate API keys' }).click();
    const rotate = page.getByRole('alertdialog', { name: 'Rotate API keys' });
    await expect(rotate).toContainText('Are you sure you want to rotate the keys?');
    await rotate.getByRole('button', { name: 'Rotate Keys' }).click();
    await expect(page.getByText('API keys rotated successfully')).toBeVisible();
    const rotated = page.getByRole('alertdialog', { name: 'Your new API keys' });
    const newKey = (await rotated.getByLabel('API KEY').textContent())!;
    const newSecret = (await rotated.getByLabel('API SECRET').textContent())!;
    await rotated.getByRole('button', { name: 'Done' }).click();
    expect(await pushSeries(page, url, basic(apiKey, apiSecret), 1, 'old-keys')).toBe(401);
    expect(await pushSeries(page, url, basic(newKey, newSecret), 1, 'new-keys')).toBe(204);

    // Auth Tokens: a read token cannot push; the token is then deleted through its modal.
    await page.getByRole('navigation', { name: 'qryn' }).getByRole('link', { name: 'Auth Tokens' }).click();
    await expect(page).toHaveTitle('Observability Auth Tokens');
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page).toHaveURL(/action=create-token/);
    const createForm = page.getByRole('form', { name: 'Create token' });
    await createForm.getByRole('button', { name: 'Create token' }).click();
    await expect(createForm.getByText('You must provide a name.')).toBeVisible();
    await createForm.getByLabel(/^Name/).fill('e2e reader');
    await createForm.getByLabel('Scope').selectOption('read');
    await createForm.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByText('The new token has been created!')).toBeVisible();
    const readToken = (await page.getByLabel('e2e reader (read)').textContent())!;
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page).not.toHaveURL(/action=/);
    expect(await pushSeries(page, url, `Bearer ${readToken}`, 1, 'read-token')).toBe(403);
    const query = await page.request.get(`${url}/loki/api/v1/labels`, { headers: { Authorization: `Bearer ${readToken}` } });
    expect(query.status()).toBe(200);
    await expect(page.getByText('This qryn instance has 1 scoped token')).toBeVisible();
    await page.getByRole('button', { name: 'Delete token e2e reader' }).click();
    await expect(page).toHaveURL(/action=delete-token&token_id=\d+/);
    // The address holds the dialog: a reload (or the link shared) opens it again once the tokens have loaded.
    const deleteLink = page.url();
    await page.reload();
    const deleteDialog = page.getByRole('alertdialog', { name: 'Delete the token e2e reader?' });
    await deleteDialog.getByRole('button', { name: 'Delete token' }).click();
    await expect(page.getByText('The token has been deleted!')).toBeVisible();
    await expect(page.getByText('This qryn instance has 0 scoped tokens')).toBeVisible();
    await expect(page).not.toHaveURL(/action=|token_id=/);
    // The same link once the token is gone: no dialog, and the address stops asking.
    await page.goto(deleteLink);
    await expect(page.getByText('This qryn instance has 0 scoped tokens')).toBeVisible();
    await expect(page).not.toHaveURL(/action=|token_id=/);
    await expect(deleteDialog).toHaveCount(0);

    // Config: the retention modal (modal=open), the optimistic switches, then the fingerprints limit.
    await page.getByRole('navigation', { name: 'qryn' }).getByRole('link', { name: 'Config' }).click();
    await expect(page).toHaveTitle('Observability Config');
    await page.getByLabel('Current Retention Plan').selectOption({ label: '90 days' });
    await expect(page).toHaveURL(/modal=open/);
    const retention = page.getByRole('alertdialog', { name: 'Change your Retention Policy' });
    await expect(retention).toContainText('Your current Retention Policy is 30 days.');
    await expect(retention.getByRole('list', { name: 'Price tiers' })).toContainText('$1.2 per GB');
    await retention.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('The retention policy has been updated.')).toBeVisible();
    await expect(page.getByLabel('Current Retention Plan')).toHaveValue('retention-90d');
    await expect(page).not.toHaveURL(/modal=|plan=/);
    // A link asking for the plan already in place opens nothing and is cleared.
    await page.goto(`${page.url()}${page.url().includes('?') ? '&' : '?'}modal=open&plan=retention-90d`);
    await expect(page.getByLabel('Current Retention Plan')).toHaveValue('retention-90d');
    await expect(page).not.toHaveURL(/modal=|plan=/);
    await expect(retention).toHaveCount(0);
    await page.getByText('Server-side cache', { exact: true }).click();
    await expect(page.getByText('Server-side cache enabled')).toBeVisible();
    await page.getByText('Logs drilldown', { exact: true }).click();
    await expect(page.getByText('Drilldown enabled')).toBeVisible();
    const volume = await page.request.get(`${url}/loki/api/v1/index/volume?query=${encodeURIComponent('{job="curl-example"}')}`, { headers: { Authorization: basic(newKey, newSecret) } });
    expect(volume.status()).toBe(200);

    const limitForm = page.getByRole('form', { name: 'Fingerprints limit' });
    await limitForm.getByLabel('Fingerprints limit').fill('1500');
    await limitForm.getByRole('button', { name: 'Save limit' }).click();
    await expect(limitForm.getByText('The limit must be a multiple of 1000.')).toBeVisible();
    await limitForm.getByLabel('Fingerprints limit').fill('1000');
    await expect(limitForm.getByLabel('Spend limit (USD)')).toHaveValue('5');
    await limitForm.getByRole('button', { name: 'Save limit' }).click();
    await expect(page.getByText('The fingerprints limit has been updated.')).toBeVisible();
    // This month's cost: stored data priced by the plan, plus the limit's spend (1000 × 5/1000 USD).
    const costs = page.getByRole('table', { name: 'Cost by kind of data' });
    await expect(costs.getByRole('row', { name: /Fingerprints limit/ })).toContainText(/1,000\s*\$5(\.00)?/);
    await expect(costs.getByRole('row', { name: /^Logs/ })).toContainText(/[1-9][\d.,]* (B|kB)/);
    await expect(page.getByLabel('Total this month')).toContainText(/\$5(\.\d+)?/);
    // Instrumentation: this fresh project has no ClickHouse cluster to offer.
    await expect(page.getByText('This project has no running ClickHouse cluster to instrument.')).toBeVisible();

    // Two series this month so far (curl-example, new-keys): 998 more reach the limit, one more is refused.
    expect(await pushSeries(page, url, basic(newKey, newSecret), 998, 'fill')).toBe(204);
    expect(await pushSeries(page, url, basic(newKey, newSecret), 1, 'one-too-many')).toBe(429);
    // Known series keep flowing.
    expect(await pushSeries(page, url, basic(newKey, newSecret), 1, 'fill')).toBe(204);
    await page.getByRole('navigation', { name: 'qryn' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByText(FINGERPRINT_LIMIT_REACHED_MESSAGE)).toBeVisible();
    await expect(page.getByRole('group', { name: 'Total unique fingerprints' })).toContainText('1,000');

    // An unknown ingestion method is the 404 page.
    await page.goto(`/${slug}/stack/qryn/data-ingestion/logs--nothing`);
    await expect(page.getByRole('heading', { name: 'Invalid ingestion method.' })).toBeVisible();
    await expect(page.getByText('Please select a different method from the list above')).toBeVisible();
  });
});

test.describe('qryn as a read-only member', () => {
  test.use(asRole('viewer'));

  test('sees the Overview and the explorer: stats, no snippets, keys or cancel', async ({ page }) => {
    await openAcme(page);
    await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Projects', exact: true }).click();
    await page.getByRole('link', { name: /Acme Production/ }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Stack' })).toBeVisible();
    const stack = page.url();
    await page.goto(`${stack}/qryn`);
    const nav = page.getByRole('navigation', { name: 'qryn' });
    // Reading is what read-only is for: the Overview and the explorer (e2e/qryn-explorer.spec.ts), nothing else.
    await expect(nav.getByRole('link')).toHaveText(['Overview', 'Explore']);
    await expect(page.getByRole('heading', { name: 'Ingestion Stats' })).toBeVisible();
    await expect(page.getByRole('group', { name: /^(Storage Quota|Metrics & logs)$/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Rotate API keys' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Log Ingestion' })).toHaveCount(0);
    await page.goto(`${stack}/qryn/auth`);
    await expect(page).toHaveURL(new RegExp(`${new URL(stack).pathname}/qryn$`));
  });
});
