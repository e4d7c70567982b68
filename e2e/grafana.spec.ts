// Grafana in the browser against the running platform (local mode: no GRAFANA_URL). The owner makes a project with
// a qryn instance holding some log lines and a real ClickHouse cluster (through the API, as the other pages would),
// then, on the page: enables Grafana, adds the qryn datasources (the modal checks its names) and a ClickHouse
// datasource, creates the cluster's dashboard, adds dev@ as a Grafana user and exports the dashboards. The zip holds
// dashboard JSON whose datasource uids are the created datasources, and the Loki datasource's URL and credentials
// (from the provisioning files Grafana would be given) return the project's log lines through labels and
// query_range. The project is deleted at the end, which releases everything it had.
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import { parse } from 'yaml';
import type { Page } from '@playwright/test';
import { datasourceUidsOf } from '../server/products/grafana/grafana-models';
import { recordAccessTokens, type ReceivedToken } from './access-tokens';
import { asRole, expect, test } from './fixtures';

async function openAcme(page: Page) {
  await page.goto('/projects');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await sidebar.getByRole('link', { name: 'Acme' }).click();
  await expect(sidebar.getByRole('link', { name: /^Acme/ })).toHaveAttribute('aria-current', 'true');
}

/** Acme Production's Grafana page (the demo data enabled Grafana there, with demo@ and dev@ on its user list). */
async function openProductionGrafana(page: Page) {
  await openAcme(page);
  await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Projects', exact: true }).click();
  await page.getByRole('link', { name: /Acme Production/ }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Stack' })).toBeVisible();
  const slug = new URL(page.url()).pathname.split('/')[1];
  await page.goto(`/${slug}/stack/grafana`);
  return slug;
}


test.describe('Grafana as the owner', () => {
  test.use(asRole('owner'));

  test('enable, qryn and ClickHouse datasources, dashboards, dev@ as a user, export; the Loki datasource reads the logs', async ({ page }) => {
    test.setTimeout(180_000);
    const tokens = recordAccessTokens(page);
    await openAcme(page);
    await expect.poll(() => typeof tokens.at(-1)?.claims.organization_id).toBe('number');
    const token = (): ReceivedToken => tokens.at(-1)!;
    const api = async (method: string, path: string, data?: unknown) => {
      const response = await page.request.fetch(`/api/${path}`, { method, data, headers: { Authorization: `Bearer ${token().raw}` } });
      expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
      return response;
    };

    // The project, its members, its qryn instance with log lines, its ClickHouse cluster.
    const project = await (await api('POST', 'projects', { name: `Grafana e2e ${Date.now() % 100000}` })).json();
    const projectName: string = (await (await api('GET', 'projects/')).json()).find((p: { id: number }) => p.id === project.id).name;
    const production = (await (await api('GET', 'projects/')).json()).find((p: { name: string }) => p.name === 'Acme Production');
    const dev = (await (await api('GET', `projects/users?project_id=${production.id}`)).json()).find((u: { email: string }) => u.email === 'dev@example.com');
    await api('POST', 'projects/users', { user_id: dev.id, project_id: project.id });
    try {
      const resource = (await (await api('GET', `integrations/qryn/cloud/resources?project_id=${project.id}`)).json())[0];
      const region = (await (await api('GET', 'integrations/qryn/writer-regions')).json())[0];
      const qryn = await (await api('POST', `integrations/qryn?project_id=${project.id}`, { cluster_id: resource.clickhouse_cluster_id, writer_region_code: region.code, multi_org: false })).json();
      const qrynConfig = await (await api('GET', `integrations/qryn/config?project_id=${project.id}`)).json();
      const basic = `Basic ${Buffer.from(`${qryn.api_key}:${qryn.api_secret}`).toString('base64')}`;
      const now = BigInt(Date.now()) * 1_000_000n;
      const pushed = await page.request.post(`${qrynConfig.url}/loki/api/v1/push`, {
        headers: { Authorization: basic, 'Content-Type': 'application/json' },
        data: { streams: [{ stream: { app: 'grafana-e2e' }, values: [[String(now), 'cart 41 checked out'], [String(now + 1n), 'cart 42 abandoned']] }] },
      });
      expect(pushed.status()).toBe(204);
      await api('POST', `integrations/clickhouse?project_id=${project.id}`, {});
      await api('POST', `integrations/clickhouse/clusters?project_id=${project.id}`, {
        name: 'metrics', provider: 'aws', region_code: 'eu-central-1', machine: 'm5_large', version: '18.16', shards: 1, replicas: 1,
        disks: [{ name: 'default', type: 'gp3', size: 150, unit_type: 'Decimal' }], ip_safe_list: '', admin_user: 'admin_one', admin_password: 'Secret123', confirm_password: 'Secret123',
      });
      await expect
        .poll(async () => (await (await api('GET', `integrations/clickhouse/clusters?project_id=${project.id}`)).json())[0]?.status, { timeout: 60_000 })
        .toBe('active');

      // Enable Grafana from the stack page.
      await page.goto(`/${project.slug}/stack`);
      await expect(page.getByRole('heading', { level: 1, name: 'Stack' })).toBeVisible();
      await page.getByRole('link', { name: 'Add a product' }).click();
      await page.getByRole('button', { name: 'Add Grafana to this project' }).click();
      await expect(page).toHaveURL(/\/stack\/grafana/);
      await expect(page.getByRole('heading', { level: 1, name: 'Grafana' })).toBeVisible();

      // The qryn datasources: the modal is addressable, its names are required, then the three are created.
      await page.getByRole('button', { name: 'Add qryn datasources' }).click();
      await expect(page).toHaveURL(/modal=add-qryn-datasource/);
      const modal = page.getByRole('dialog', { name: 'Add the qryn datasources' });
      await expect(modal.getByLabel('Loki datasource name')).toHaveValue(`qryn Loki (${projectName})`);
      await expect(modal.getByLabel('Prometheus datasource name')).toHaveValue(`qryn Prometheus (${projectName})`);
      await modal.getByLabel('Loki datasource name').fill('');
      await modal.getByRole('button', { name: 'Add datasources' }).click();
      await expect(modal.getByText('The datasource name is required.')).toBeVisible();
      await modal.getByLabel('Loki datasource name').fill(`qryn Loki (${projectName})`);
      await modal.getByRole('button', { name: 'Add datasources' }).click();
      await expect(page.getByText('The qryn datasources have been added to Grafana')).toBeVisible();
      await expect(page).not.toHaveURL(/modal=/);
      const qrynList = page.getByRole('list', { name: 'qryn datasources' });
      await expect(qrynList).toContainText(`Loki: qryn Loki (${projectName})`);
      await expect(qrynList).toContainText(`Tempo: qryn Tempo (${projectName})`);

      // A ClickHouse datasource for the cluster.
      await page.getByRole('button', { name: 'Add ClickHouse datasource' }).click();
      const chModal = page.getByRole('dialog', { name: 'Add a ClickHouse datasource' });
      await expect(chModal.getByLabel('Datasource name')).toHaveValue(`ClickHouse (${projectName} - metrics)`);
      await chModal.getByRole('button', { name: 'Add datasource' }).click();
      await expect(page.getByText('The ClickHouse datasource has been added to Grafana')).toBeVisible();
      await expect(page.getByRole('list', { name: 'ClickHouse datasources' })).toContainText(`ClickHouse (${projectName} - metrics)`);

      // Dashboards for the chosen cluster.
      const dashboardsForm = page.getByRole('form', { name: 'Create dashboards' });
      await dashboardsForm.getByRole('button', { name: 'Create dashboards' }).click();
      await expect(dashboardsForm.getByText('Select at least one cluster.')).toBeVisible();
      await dashboardsForm.getByText('metrics', { exact: true }).click();
      await dashboardsForm.getByRole('button', { name: 'Create dashboards' }).click();
      await expect(page.getByText('The dashboards have been created')).toBeVisible();
      await expect(page.getByRole('list', { name: 'Dashboards' })).toContainText(`ClickHouse overview (${projectName} - metrics)`);

      // dev@ as a Grafana user: at least one must be chosen.
      const usersForm = page.getByRole('form', { name: 'Add users to Grafana' });
      await usersForm.getByRole('button', { name: 'Add to Grafana' }).click();
      await expect(usersForm.getByText('You need to select at least one user')).toBeVisible();
      await usersForm.getByText(/dev@example\.com/).click();
      await usersForm.getByRole('button', { name: 'Add to Grafana' }).click();
      await expect(page.getByText('The users have been added to Grafana')).toBeVisible();
      await expect(page.getByRole('list', { name: 'Grafana users' })).toContainText('dev@example.com');

      // Export: a zip named by the server, holding dashboard JSON that uses the created datasources.
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export Dashboards' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`grafana-dashboards-${project.slug}.zip`);
      await expect(page.getByText('Dashboards exported successfully')).toBeVisible();
      const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
      const dashboards = Object.values(files).map((bytes) => JSON.parse(strFromU8(bytes)));
      expect(dashboards).toHaveLength(1);
      const datasources = (await (await api('GET', `integrations/grafana/datasources?project_id=${project.id}`)).json()) as { uid: string; type: string }[];
      const chUid = datasources.find((d) => d.type === 'grafana-clickhouse-datasource')!.uid;
      expect(datasourceUidsOf(dashboards[0])).toEqual([chUid]);

      // The Loki datasource as Grafana would be given it: its URL and credentials read the project's logs.
      const provisioning = unzipSync(new Uint8Array(await (await api('GET', `integrations/grafana/provisioning?project_id=${project.id}`)).body()));
      const datasourcesFile = Object.entries(provisioning).find(([name]) => name.startsWith('provisioning/datasources/'))!;
      const loki = parse(strFromU8(datasourcesFile[1])).datasources.find((d: { type: string }) => d.type === 'loki');
      expect(loki.uid).toBe(datasources.find((d) => d.type === 'loki')!.uid);
      const grafanaAuth = `Basic ${Buffer.from(`${loki.basicAuthUser}:${loki.secureJsonData.basicAuthPassword}`).toString('base64')}`;
      const labels = await page.request.get(`${loki.url}/loki/api/v1/labels`, { headers: { Authorization: grafanaAuth } });
      expect(labels.status()).toBe(200);
      expect((await labels.json()).data).toContain('app');
      const params = new URLSearchParams({ query: '{app="grafana-e2e"}', limit: '100', start: `${Date.now() - 600_000}000000`, end: `${Date.now() + 60_000}000000` });
      const range = await page.request.get(`${loki.url}/loki/api/v1/query_range?${params}`, { headers: { Authorization: grafanaAuth } });
      expect(range.status()).toBe(200);
      const lines = ((await range.json()).data.result as { values: [string, string][] }[]).flatMap((s) => s.values.map(([, line]) => line));
      expect(lines.sort()).toEqual(['cart 41 checked out', 'cart 42 abandoned']);
    } finally {
      await api('DELETE', `projects?project_id=${project.id}`);
    }
  });
});

test.describe('Grafana as a read-write member on its user list', () => {
  test.use(asRole('member'));

  test('sees the page with user management and cancel', async ({ page }) => {
    await openProductionGrafana(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Grafana' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Manage users from Grafana' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Grafana users' })).toContainText('dev@example.com');
  });
});

test.describe('Grafana for a member not on its user list', () => {
  test.use(asRole('viewer'));

  test('is sent back to the stack page', async ({ page }) => {
    const slug = await openProductionGrafana(page);
    await expect(page).toHaveURL((url) => url.pathname === `/${slug}/stack`);
    await expect(page.getByRole('heading', { level: 1, name: 'Stack' })).toBeVisible();
  });
});
