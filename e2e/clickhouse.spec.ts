// ClickHouse in the browser against the running platform and real clickhouse-server processes: the owner adds
// ClickHouse to the personal project from the catalogue, the create page shows field messages for bad input and a
// cost estimate that follows the form, the cluster goes from creating to active, the links card's endpoint and
// username (copied with the copy buttons) and the password typed at creation let an HTTP client create a table and
// insert rows, the metrics and available-space cards show them without a reload, an IP safe list without 127.0.0.1
// refuses that client and clearing it lets it in again, qryn added through show-config → show-info stores on that
// cluster (the downloaded JSON's key pushes a line the cluster's admin reads back), and deleting stops the server
// (its port closes). Then an
// external cluster, a second clickhouse-server started by this spec, is refused with a wrong password and connected
// with the right one.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ClusterMessage } from '../contract/clickhouse';
import { startStorageServer, type StorageServer } from '../server/products/qryn/storage/storage-server';
import { asRole, expect, test } from './fixtures';

const ADMIN = 'admin_e2e';
const PASSWORD = 'Secret-e2e-1';

/** A statement over ClickHouse's HTTP interface, as any HTTP client would send it. */
async function clickhouse(endpoint: string, user: string, password: string, sql: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${endpoint}/`, { method: 'POST', headers: { 'X-ClickHouse-User': user, 'X-ClickHouse-Key': password }, body: sql, signal: AbortSignal.timeout(5_000) });
  return { status: response.status, text: await response.text() };
}

async function openPersonalSandbox(page: Page): Promise<string> {
  await page.goto('/projects');
  await page.getByRole('link', { name: /Personal Sandbox/ }).first().click();
  await page.waitForURL(/^https?:\/\/[^/]+\/personal-sandbox-\d+(\/|$)/);
  return new URL(page.url()).pathname.split('/')[1];
}

/** Adds ClickHouse from the catalogue when it is not yet in the project (it opens the create page); false when it was. */
async function addClickhouse(page: Page, slug: string): Promise<boolean> {
  await page.goto(`/${slug}/stack/add`);
  const clickhouseCard = page.getByRole('listitem', { name: 'ClickHouse' });
  await expect(clickhouseCard).toBeVisible();
  const add = clickhouseCard.getByRole('button', { name: 'Add ClickHouse to this project' });
  if ((await add.count()) === 0) return false;
  await add.click();
  await expect(page).toHaveURL(new RegExp(`/${slug}/stack/clickhouse/create$`));
  return true;
}

/** A form control by its label; required fields' labels end in '*'. */
const field = (scope: Locator, label: string) => scope.getByLabel(new RegExp(`^${label}\\s*\\*?$`));

async function copied(page: Page, button: string): Promise<string> {
  await page.getByRole('button', { name: button }).click();
  return page.evaluate(() => navigator.clipboard.readText());
}

test.describe('ClickHouse clusters as the owner', () => {
  test.use({ ...asRole('owner'), permissions: ['clipboard-read', 'clipboard-write'] });
  test.describe.configure({ timeout: 120_000 });

  let external: StorageServer | undefined;
  let externalDir: string | undefined;
  test.afterAll(async () => {
    await external?.close();
    if (externalDir) rmSync(externalDir, { recursive: true, force: true });
  });

  test('a managed cluster: create with field errors and a live estimate, query it, metrics, IP safe list, delete', async ({ page }) => {
    const slug = await openPersonalSandbox(page);
    await addClickhouse(page, slug);
    await expect(page).toHaveTitle(/^ClickHouse /);

    // Bad input first: every broken field says what is wrong, and nothing is created.
    const form = page.getByRole('form', { name: 'Managed cluster' });
    await field(form, 'Name').fill('Bad_Name');
    await field(form, 'Admin user').fill('grafana');
    await field(form, 'Admin password').fill('short');
    await field(form, 'Confirm password').fill('other');
    await field(form, 'IP safe list').fill('10.0.0.300');
    await page.getByRole('button', { name: 'Create cluster' }).click();
    for (const message of [
      'The cluster name can only have lowercase letters, digits and dashes, start with a letter and end with a letter or digit.',
      'The region is required.',
      'The version is required.',
      'This username is not allowed.',
      'The password must be at least 8 characters.',
      'The password does not match.',
      'Some IP address is not valid.',
    ]) {
      await expect(form.getByText(message, { exact: true })).toBeVisible();
    }
    await expect(page).toHaveURL(/\/create$/);

    // The estimate follows the shape: two replicas cost more than one.
    const estimate = form.getByRole('complementary', { name: 'Estimated cost' }).getByTestId('monthly-total');
    const costOf = async () => Number(/\$([\d.]+)/.exec((await estimate.textContent()) ?? '')![1]);
    await field(form, 'Replicas').fill('2');
    const twoReplicas = await costOf();
    await field(form, 'Replicas').fill('1');
    await expect.poll(costOf).toBeLessThan(twoReplicas);
    expect(await costOf()).toBeGreaterThan(0);

    await field(form, 'Name').fill('e2e-one');
    await field(form, 'Region').selectOption('eu-central-1');
    await field(form, 'Version').selectOption({ index: 1 });
    await field(form, 'Admin user').fill(ADMIN);
    await field(form, 'Admin password').fill(PASSWORD);
    await field(form, 'Confirm password').fill(PASSWORD);
    await field(form, 'IP safe list').fill('');
    for (const message of ['The region is required.', 'This username is not allowed.', 'Some IP address is not valid.']) {
      await expect(form.getByText(message, { exact: true })).toHaveCount(0);
    }
    await page.getByRole('button', { name: 'Create cluster' }).click();

    // Creating → active, followed by the page without a reload.
    await expect(page).toHaveURL(/\/stack\/clickhouse\/cluster\/\d+$/);
    const clusterUrl = page.url();
    const cluster = page.getByRole('region', { name: 'ClickHouse cluster' });
    await expect(cluster.getByText('Status:')).toContainText(/creating|active/);
    await expect(cluster.getByText('Status:')).toContainText('active', { timeout: 45_000 });
    await expect(page.getByRole('navigation', { name: 'Clusters' }).getByRole('link', { name: 'e2e-one' })).toBeVisible();

    // The links card's endpoint and username, through the copy buttons.
    const endpoint = await copied(page, 'Copy HTTP endpoint');
    expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await copied(page, 'Copy username')).toBe(ADMIN);
    expect(await copied(page, 'Copy client command')).toContain(`--user ${ADMIN}`);

    expect(await clickhouse(endpoint, ADMIN, PASSWORD, 'CREATE TABLE default.visits (n UInt32) ENGINE = MergeTree ORDER BY n')).toMatchObject({ status: 200 });
    expect(await clickhouse(endpoint, ADMIN, PASSWORD, 'INSERT INTO default.visits SELECT number FROM system.numbers LIMIT 1234')).toMatchObject({ status: 200 });
    expect((await clickhouse(endpoint, ADMIN, PASSWORD, 'SELECT count() FROM default.visits')).text.trim()).toBe('1234');
    expect((await clickhouse(endpoint, ADMIN, 'not-the-password', 'SELECT 1')).status).not.toBe(200);

    // Live metrics: the totals and charts refresh on their own and show the table and its rows.
    const metrics = page.getByRole('region', { name: 'Metrics' });
    await expect(metrics.getByText(/Total tables: 1 · Total rows: 1234/)).toBeVisible({ timeout: 25_000 });
    await expect(metrics.getByRole('img', { name: 'Written rows per second chart' })).toBeVisible();
    const space = page.getByRole('region', { name: 'Available space' });
    await expect(space.getByText('1 table(s), 1234 row(s)')).toBeVisible({ timeout: 25_000 });
    await expect(space.getByRole('meter')).toHaveAttribute('data-level', /good|warn|bad/);

    // qryn added to the same project through show-config, storing on this cluster: show-info's JSON download holds
    // the key, a line pushed with it lands in the cluster, where the admin reads it.
    await page.goto(`/${slug}/stack/add`);
    await page.getByRole('button', { name: 'Add Observability to this project' }).click();
    const configure = page.getByRole('form', { name: 'Configure Observability' });
    await field(configure, 'Storage').selectOption({ label: 'e2e-one (Europe (Frankfurt), Europe)' });
    await field(configure, 'Writer region').selectOption({ index: 1 });
    await configure.getByRole('button', { name: 'Enable Observability' }).click();
    const info = page.getByRole('dialog').or(page.getByRole('alertdialog'));
    await expect(info.getByText('API SECRET', { exact: true })).toBeVisible({ timeout: 15_000 });
    const downloading = page.waitForEvent('download');
    await info.getByRole('link', { name: 'Download JSON' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('qryn-credentials.json');
    const credentials = JSON.parse(await readFile((await download.path())!, 'utf8')) as { api_key: string; api_secret: string };
    expect(credentials.api_key).toMatch(/^qk_/);
    await expect(info.getByText(credentials.api_key)).toBeVisible();
    await info.getByRole('button', { name: 'Done' }).click();
    // The instance's database is on the cluster (qryn_<instance id>), as its admin sees it.
    const instanceId = (await clickhouse(endpoint, ADMIN, PASSWORD, "SELECT name FROM system.databases WHERE name LIKE 'qryn_%'")).text.trim().replace(/^qryn_/, '');
    expect(instanceId).toMatch(/^[0-9a-f]+$/);
    const line = `stored in e2e-one ${Date.now()}`;
    const pushed = await fetch(`${new URL(page.url()).origin}/qryn/${instanceId}/loki/api/v1/push`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${credentials.api_key}:${credentials.api_secret}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ streams: [{ stream: { job: 'e2e' }, values: [[String(Date.now() * 1_000_000), line]] }] }),
    });
    expect(pushed.status).toBe(204);
    await expect.poll(async () => (await clickhouse(endpoint, ADMIN, PASSWORD, `SELECT line FROM qryn_${instanceId}.log_samples`)).text.trim()).toBe(line);
    await page.goto(clusterUrl);

    // An IP safe list without 127.0.0.1 refuses the client within seconds; clearing it lets it in again.
    const config = page.getByRole('region', { name: 'Configuration' });
    await field(config, 'IP safe list').fill('10.1.2.3/32');
    await config.getByRole('button', { name: 'Save IP safe list' }).click();
    await expect(page.getByText('The IP safe list has been updated.')).toBeVisible();
    await expect.poll(async () => (await clickhouse(endpoint, ADMIN, PASSWORD, 'SELECT 1')).status, { timeout: 15_000 }).not.toBe(200);
    expect((await clickhouse(endpoint, ADMIN, PASSWORD, 'SELECT 1')).text).toMatch(/not allowed/i);
    await field(config, 'IP safe list').fill('');
    await config.getByRole('button', { name: 'Save IP safe list' }).click();
    await expect.poll(async () => (await clickhouse(endpoint, ADMIN, PASSWORD, 'SELECT 1')).status, { timeout: 15_000 }).toBe(200);

    // Delete with a confirm: the server stops, its port closes.
    await cluster.getByRole('button', { name: 'Delete cluster' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByText('This cluster has been deleted.')).toBeVisible({ timeout: 30_000 });
    await expect.poll(async () => clickhouse(endpoint, ADMIN, PASSWORD, 'SELECT 1').then(() => 'answers', () => 'closed'), { timeout: 15_000 }).toBe('closed');
  });

  test('an external cluster: a wrong password is refused with the one "could not connect" message, the right one connects', async ({ page }) => {
    externalDir = mkdtempSync(path.join(tmpdir(), 'e2e-external-clickhouse-'));
    external = await startStorageServer({ dir: externalDir });
    const port = Number(new URL(external.url).port);

    const slug = await openPersonalSandbox(page);
    if (!(await addClickhouse(page, slug))) await page.goto(`/${slug}/stack/clickhouse/create`);
    await page.getByRole('tab', { name: 'External' }).click();
    const form = page.getByRole('form', { name: 'External cluster' });
    await page.getByRole('button', { name: 'Connect cluster' }).click();
    await expect(form.getByText('The host is required.')).toBeVisible();

    await field(form, 'Name').fill('e2e-external');
    await field(form, 'Host').fill('127.0.0.1');
    await field(form, 'HTTP port').fill(String(port));
    // The TCP port is not used to connect over HTTP; any valid number is stored as given.
    await field(form, 'TCP port').fill('9000');
    await field(form, 'Username').fill(external.user);
    await field(form, 'Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Connect cluster' }).click();
    // The same answer as for a closed port or an unknown user: the connect tells an attacker nothing (docs/security.md).
    await expect(form.getByText(ClusterMessage.couldNotConnect)).toBeVisible({ timeout: 15_000 });
    await expect(field(form, 'Host')).toHaveValue('127.0.0.1');

    await field(form, 'Password').fill(external.password);
    await page.getByRole('button', { name: 'Connect cluster' }).click();
    await expect(page).toHaveURL(/\/stack\/clickhouse\/cluster\/\d+$/);
    const cluster = page.getByRole('region', { name: 'ClickHouse cluster' });
    await expect(cluster.getByText('Status:')).toContainText('external');
    expect(await copied(page, 'Copy HTTP endpoint')).toBe(external.url);
    await expect(page.getByRole('region', { name: 'Metrics' }).getByText(/Total tables: \d+/)).toBeVisible({ timeout: 20_000 });

    // A disconnected cluster is said to be disconnected (not deleted), and its cards stop asking for its metrics: no
    // call for it fails once it is gone.
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/integrations/clickhouse/') && response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await cluster.getByRole('button', { name: 'Disconnect cluster' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Disconnect', exact: true }).click();
    await expect(page.getByText('This cluster has been disconnected.')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('region', { name: 'Metrics' })).toHaveCount(0);
    await page.waitForTimeout(11_000); // one refresh interval of the metrics cards
    expect(failed).toEqual([]);
    // Disconnecting leaves the external server running.
    expect(await external.ping()).toBe(true);
  });
});
