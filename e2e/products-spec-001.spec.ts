// Spec 001 line by line where the products differed from it, each in the role it concerns, through the real login
// page: a read-only member sees a managed cluster without the actions it cannot use; ClickHouse and Hepic pages
// carry "<product> <page>" titles; Hepic's card is hidden from a member not on its list, its add form starts over
// after an add; qryn's ingestion page without a method is the 404; the retention modal names the days once;
// Grafana says there is nothing to export, and a project without ClickHouse is not asked for clusters.
import type { Browser, Page } from '@playwright/test';
import { enterAcme, freshAcmeProject, type AcmeSession } from './acme-session';
import { storageStatePath } from './demo-accounts';
import { asRole, expect, test } from './fixtures';

/** A page of another demo account in its own browser context (its saved sign-in), switched into Acme. */
async function asAcmeMember(browser: Browser, role: 'viewer' | 'member'): Promise<{ page: Page; session: AcmeSession; close: () => Promise<void> }> {
  const context = await browser.newContext({ storageState: storageStatePath(role) });
  const page = await context.newPage();
  const session = await enterAcme(page);
  return { page, session, close: () => context.close() };
}

/** A fresh Acme project with dev@ and viewer@ in its team. */
async function projectWithTeam(session: AcmeSession, name: string) {
  const project = await freshAcmeProject(session, name);
  const members = (await (await session.api('GET', 'organizations/users')).json()) as { id: string; email: string }[];
  for (const email of ['dev@example.com', 'viewer@example.com']) {
    const member = members.find((m) => m.email === email)!;
    expect((await session.api('POST', `projects/users?project_id=${project.id}`, { user_id: member.id, project_id: project.id })).ok()).toBe(true);
  }
  return project;
}

test.describe('products against spec 001', () => {
  test.use(asRole('owner'));

  test('ClickHouse: titles follow the page; a read-only member sees the cluster without create, delete or safe-list actions', async ({ page, browser }) => {
    test.setTimeout(120_000);
    const session = await enterAcme(page);
    const project = await projectWithTeam(session, 'Spec ClickHouse');
    expect((await session.api('POST', `integrations/clickhouse?project_id=${project.id}`, {})).ok()).toBe(true);
    await page.goto(`/${project.slug}/stack/clickhouse/create`);
    await expect(page.getByRole('heading', { level: 1, name: 'ClickHouse' })).toBeVisible();
    await expect(page).toHaveTitle('ClickHouse Create cluster');

    const created = await session.api('POST', `integrations/clickhouse/clusters?project_id=${project.id}`, {
      name: 'ledger', provider: 'aws', region_code: 'eu-central-1', machine: 'm5_large', version: '18.16', shards: 1, replicas: 1,
      disks: [{ name: 'default', type: 'gp3', size: 150, unit_type: 'Decimal' }], ip_safe_list: '', admin_user: 'ledger_admin', admin_password: 'Ledger-e2e-7731', confirm_password: 'Ledger-e2e-7731',
    });
    expect(created.status(), await created.text()).toBeLessThan(300);
    const clusters = async () => (await (await session.api('GET', `integrations/clickhouse/clusters?project_id=${project.id}`)).json()) as { id: number; status: string }[];
    await expect.poll(async () => (await clusters())[0]?.status, { timeout: 60_000 }).toBe('active');
    const clusterId = (await clusters())[0].id;
    try {
      await page.goto(`/${project.slug}/stack/clickhouse`);
      await expect(page).toHaveURL(new RegExp(`/stack/clickhouse/cluster/${clusterId}$`));
      await expect(page).toHaveTitle('ClickHouse Clusters');
      // The owner has every action.
      await expect(page.getByRole('link', { name: 'New cluster' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Delete cluster' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Save IP safe list' })).toBeVisible();

      const viewer = await asAcmeMember(browser, 'viewer');
      try {
        await viewer.page.goto(`/${project.slug}/stack/clickhouse`);
        await expect(viewer.page).toHaveURL(new RegExp(`/stack/clickhouse/cluster/${clusterId}$`));
        await expect(viewer.page.getByText('Status:')).toBeVisible();
        await expect(viewer.page.getByText('IP safe list: every address is allowed')).toBeVisible();
        await expect(viewer.page.getByRole('link', { name: 'New cluster' })).toHaveCount(0);
        await expect(viewer.page.getByRole('button', { name: 'Delete cluster' })).toHaveCount(0);
        await expect(viewer.page.getByRole('button', { name: 'Save IP safe list' })).toHaveCount(0);
        await expect(viewer.page.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);
        await expect(viewer.page.getByRole('navigation', { name: 'Clusters' }).getByRole('link', { name: 'Settings' })).toHaveCount(0);
        // The create page by address leads back to the cluster.
        await viewer.page.goto(`/${project.slug}/stack/clickhouse/create`);
        await expect(viewer.page).toHaveURL(new RegExp(`/stack/clickhouse/cluster/${clusterId}$`));
        await expect(viewer.page.getByLabel('Cluster name')).toHaveCount(0);
      } finally {
        await viewer.close();
      }
    } finally {
      await session.api('DELETE', `integrations/clickhouse/clusters?project_id=${project.id}&cluster_id=${clusterId}`);
    }
  });

  test('Hepic: titles per page, the add form starts over after an add, and the card is hidden from a member not on its list', async ({ page, browser }) => {
    test.setTimeout(90_000);
    const session = await enterAcme(page);
    const project = await projectWithTeam(session, 'Spec Hepic');
    expect((await session.api('POST', `integrations/hepic?project_id=${project.id}`, { price_id: 'hepic-starter', cluster_id: 'shared-local' })).ok()).toBe(true);
    const base = `/${project.slug}/stack/hepic`;
    for (const [path, title] of [['', 'Hepic Overview'], ['/auth', 'Hepic Auth'], ['/config', 'Hepic Config'], ['/data-ingestion/agents--heplify', 'Hepic Data Ingestion']] as const) {
      await page.goto(`${base}${path}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Hepic' })).toBeVisible();
      await expect(page).toHaveTitle(title);
    }

    // The viewer is in the project but not on Hepic's list: no Hepic card on the stack page.
    const viewer = await asAcmeMember(browser, 'viewer');
    try {
      await viewer.page.goto(`/${project.slug}/stack`);
      await expect(viewer.page.getByRole('heading', { level: 1, name: 'Stack' })).toBeVisible();
      await expect(viewer.page.getByText('No products are enabled in this project yet.')).toBeVisible();
      await expect(viewer.page.getByRole('list', { name: 'Enabled products' }).getByRole('listitem')).toHaveCount(0);
    } finally {
      await viewer.close();
    }

    // Adding dev@ as an admin: the role select goes back to its default for the next person.
    await page.goto(`${base}/config`);
    await page.getByLabel('Member').selectOption({ label: 'Dana Developer (dev@example.com)' });
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByRole('button', { name: 'Add to HEPIC' }).click();
    await expect(page.getByText('User has been successfully added to HEPIC')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Role of Dana Developer' })).toHaveValue('admin');
    await expect(page.getByLabel('Role', { exact: true })).toHaveValue('user');
    await expect(page.getByLabel('Member')).toHaveValue('');
  });

  test('qryn: the ingestion page without a method is the 404, the examples are fed a token made for them, and the retention modal names the days once', async ({ page }) => {
    const session = await enterAcme(page);
    const production = ((await (await session.api('GET', 'projects/')).json()) as { id: number; name: string; slug: string }[]).find((p) => p.name === 'Acme Production')!;
    await page.goto(`/${production.slug}/stack/qryn/data-ingestion`);
    const notFound = page.getByRole('alert', { name: 'Invalid ingestion method' });
    await expect(notFound).toContainText('Invalid ingestion method.');
    await expect(page).toHaveURL(/\/stack\/qryn\/data-ingestion$/);

    // The examples are fed a real secret: a write token made for them, listed in Auth Tokens, that pushes a line.
    await page.goto(`/${production.slug}/stack/qryn/data-ingestion/logs--curl`);
    const example = page.getByRole('region', { name: 'Logs: cURL' });
    await expect(example.locator('pre').first()).toContainText('YOUR_API_SECRET');
    await page.getByRole('button', { name: 'Create a token for these examples' }).click();
    await expect(page.getByText(/^The token "Ingestion examples [0-9 :-]+" fills the examples below\.$/)).toBeVisible();
    const code = (await example.locator('pre').allInnerTexts()).join('\n');
    expect(code).not.toContain('YOUR_API_SECRET');
    const basic = /-u '?([^:\s']+):([^'\s]+)'?/.exec(code) ?? /Basic ([A-Za-z0-9+/=]+)/.exec(code);
    expect(basic, code).not.toBeNull();
    const config = (await (await session.api('GET', `integrations/qryn/config?project_id=${production.id}`)).json()) as { url: string };
    const auth = basic![0].startsWith('Basic') ? basic![0] : `Basic ${Buffer.from(`${basic![1]}:${basic![2]}`).toString('base64')}`;
    const now = `${Date.now()}000000`;
    const pushed = await page.request.post(`${config.url}/loki/api/v1/push`, { headers: { Authorization: auth, 'Content-Type': 'application/json' }, data: { streams: [{ stream: { app: 'examples-token' }, values: [[now, 'pushed with the examples token']] }] } });
    expect(pushed.status()).toBe(204);
    await page.goto(`/${production.slug}/stack/qryn/auth`);
    await expect(page.getByText(/Ingestion examples [0-9 :-]+/).first()).toBeVisible();

    await page.goto(`/${production.slug}/stack/qryn/config?modal=open&plan=retention-90d`);
    const modal = page.getByRole('alertdialog');
    await expect(modal).toContainText('New plan: 90 days');
    await expect(modal).not.toContainText('(90 days)');
  });

  test('Grafana: nothing to export is said as such, and a project without ClickHouse is not asked for clusters', async ({ page }) => {
    const session = await enterAcme(page);
    const project = await freshAcmeProject(session, 'Spec Grafana');
    expect((await session.api('POST', `integrations/grafana?project_id=${project.id}`, {})).ok()).toBe(true);
    const clusterCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('integrations/clickhouse/clusters')) clusterCalls.push(request.url());
    });
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.goto(`/${project.slug}/stack/grafana`);
    await expect(page.getByRole('heading', { level: 1, name: 'Grafana' })).toBeVisible();
    await expect(page.getByText('No dashboards yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Export Dashboards' }).click();
    await expect(page.getByText('There are no dashboards to export yet.')).toBeVisible();
    await expect(page.getByText('Dashboards exported successfully')).toHaveCount(0);
    expect(downloads).toBe(0);
    expect(clusterCalls).toEqual([]);
  });
});
