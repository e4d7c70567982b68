// The qryn explorer in the browser against the running platform, signed in through the real login page. The owner
// enables qryn on a fresh Acme project through the API, pushes three metric series (InfluxDB line protocol, which the
// gateway stores as Prometheus series) and log lines of two levels (Loki JSON), opens the View (read with the owner's
// sign-in), types a PromQL query with the editor's completion of the instance's metric names and sees a chart of three series,
// runs a LogQL metric query that is drawn as a chart, and opens the shared address in a new tab: the same language,
// query and chart. A read-only member explores with their sign-in, or with a read token someone gave them kept in the
// View's cookie, and cannot create tokens.
import type { Browser, Page } from '@playwright/test';
import { enterAcme, type AcmeSession } from './acme-session';
import { storageStatePath } from './demo-accounts';
import { asRole, expect, test } from './fixtures';
import { freshQrynProject } from './qryn-explorer-setup';

async function json<T>(response: Awaited<ReturnType<AcmeSession['api']>>): Promise<T> {
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()) as T;
}

/** The editor's content element (CodeMirror's textbox) of the language shown. */
const editor = (page: Page, language: string) => page.getByRole('textbox', { name: `Query (${language})` });

test.describe('the qryn explorer as the owner', () => {
  test.use(asRole('owner'));

  test('PromQL with completion draws its series, a LogQL metric query draws a chart, a shared address reopens the view', async ({ page, context }) => {
    test.setTimeout(180_000);
    const session = await enterAcme(page);
    const { project, ...qryn } = await freshQrynProject(session, 'Explorer');
    const auth = qryn.basic;

    // Three metric series over the last two minutes, and log lines of two levels.
    const now = Date.now();
    const points = [120_000, 60_000, 0].flatMap((ago) => [0, 1, 2].map((n) => `explorer_e2e,n=${n} value=${n + ago / 60_000} ${now - ago}`));
    const influx = await page.request.post(`${qryn.url}/api/v2/write?precision=ms`, { headers: { Authorization: auth }, data: points.join('\n') });
    expect(influx.status(), await influx.text()).toBe(204);
    const ns = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
    const logs = await page.request.post(`${qryn.url}/loki/api/v1/push`, {
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      data: {
        streams: [
          { stream: { app: 'explorer-e2e', level: 'info' }, values: [[ns(now - 30_000), 'started'], [ns(now - 20_000), 'ready']] },
          { stream: { app: 'explorer-e2e', level: 'error' }, values: [[ns(now - 10_000), 'failed to connect']] },
        ],
      },
    });
    expect(logs.status(), await logs.text()).toBe(204);

    // The Explore tab opens the View; the key and secret connect it.
    await page.goto(`/${project.slug}/stack/qryn`);
    await page.getByRole('navigation', { name: 'qryn' }).getByRole('link', { name: 'Explore' }).click();
    await expect(page).toHaveTitle('Observability qryn View');
    // The owner's sign-in reads the instance: no credential to paste, no token to make first.
    await expect(page.getByText('read with your sign-in')).toBeVisible();
    await expect(page.getByRole('form', { name: 'Connect' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Metrics (PromQL)' })).toHaveAttribute('aria-pressed', 'true');

    // PromQL: typing part of the metric name offers the instance's metric; Enter takes it, Shift+Enter runs.
    const promql = editor(page, 'PromQL');
    await promql.click();
    await page.keyboard.type('explorer_e2e_v');
    const option = page.getByRole('listbox').getByRole('option', { name: /explorer_e2e_value/ });
    await expect(option).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(promql).toHaveText('explorer_e2e_value');
    await page.keyboard.press('Shift+Enter');
    const chart = page.getByRole('figure', { name: 'Chart of 3 series' });
    await expect(chart).toBeVisible();
    // uPlot's legend: the time row, then one row per series with its labels.
    await expect(chart.locator('.u-legend .u-series')).toHaveCount(4);
    await expect(chart.locator('.u-legend')).toContainText('explorer_e2e_value{n="2"}');
    await expect(page).toHaveURL(/query=explorer_e2e_value/);
    // The same result as a table, and an instant query as a table.
    await page.getByRole('group', { name: 'Show as' }).getByRole('button', { name: 'Table' }).click();
    await expect(page.getByRole('table', { name: 'Results' })).toContainText('explorer_e2e_value{n="1"}');
    await expect(page).toHaveURL(/view=table/);
    await page.getByRole('group', { name: 'Show as' }).getByRole('button', { name: 'Chart' }).click();
    await expect(chart).toBeVisible();

    // A parse error is the instance's reason, underlined in the editor where the parser says.
    await promql.click();
    await page.keyboard.press('ControlOrMeta+a');
    // (The editor closes brackets as they are typed: the matcher without a value is what is wrong.)
    await page.keyboard.type('explorer_e2e_value{n=}');
    await page.keyboard.press('Escape');
    await expect(promql).toHaveText('explorer_e2e_value{n=}');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'parse error' })).toBeVisible();
    await expect(page.locator('.cm-lintRange-error')).toHaveCount(1);

    // LogQL: a metric query goes to Loki's query_range and is drawn: one series per level.
    await page.getByRole('button', { name: 'Logs (LogQL)' }).click();
    const logql = editor(page, 'LogQL');
    const metricQuery = 'sum by (level) (count_over_time({app="explorer-e2e"}[1m]))';
    await logql.fill(metricQuery);
    await page.getByRole('button', { name: 'Run query' }).click();
    const logChart = page.getByRole('figure', { name: 'Chart of 2 series' });
    await expect(logChart).toBeVisible();
    await expect(logChart.locator('.u-legend')).toContainText('{level="error"}');

    // The address holds the view: a new tab with it shows the same language, query and chart.
    const shared = page.url();
    expect(new URL(shared).searchParams.get('language')).toBe('logs');
    expect(new URL(shared).searchParams.get('query')).toBe(metricQuery);
    const other = await context.newPage();
    await other.goto(shared);
    await expect(other.getByRole('button', { name: 'Logs (LogQL)' })).toHaveAttribute('aria-pressed', 'true');
    await expect(editor(other, 'LogQL')).toHaveText(metricQuery);
    await expect(other.getByRole('figure', { name: 'Chart of 2 series' })).toBeVisible();
    await other.close();

    // The history keeps what was run, per language.
    await page.getByRole('button', { name: 'Metrics (PromQL)' }).click();
    await expect(page.getByLabel('History').locator('option', { hasText: 'explorer_e2e_value' }).first()).toBeAttached();
  });
});

async function ownerSession(browser: Browser) {
  const context = await browser.newContext({ storageState: storageStatePath('owner') });
  const page = await context.newPage();
  return { context, session: await enterAcme(page) };
}

test.describe('the qryn explorer as a read-only member', () => {
  test.use(asRole('viewer'));

  test('explores with their sign-in, or with a read token given to them, but cannot create tokens', async ({ page, browser }) => {
    test.setTimeout(120_000);
    // The owner makes a read token for Acme Production's instance (what a read-only member would be given).
    const owner = await ownerSession(browser);
    const projects = await json<{ id: number; name: string }[]>(await owner.session.api('GET', 'projects/'));
    const production = projects.find((p) => p.name === 'Acme Production')!;
    const created = await json<{ token: { token: string } }>(await owner.session.api('POST', 'integrations/qryn/tokens', { name: `explorer viewer ${Date.now()}`, scope: 'read', project_id: production.id }));
    const config = await json<{ url: string }>(await owner.session.api('GET', `integrations/qryn/config?project_id=${production.id}`));
    await owner.context.close();

    const viewer = await enterAcme(page);
    // The API refuses a read-only member a token.
    expect((await viewer.api('POST', 'integrations/qryn/tokens', { name: 'mine', scope: 'read', project_id: production.id })).status()).toBe(403);
    const slug = (await json<{ id: number; slug: string }[]>(await viewer.api('GET', 'projects/'))).find((p) => p.id === production.id)!.slug;
    await page.goto(`/${slug}/stack/qryn`);
    const nav = page.getByRole('navigation', { name: 'qryn' });
    await expect(nav.getByRole('link')).toHaveText(['Overview', 'Explore']);
    await nav.getByRole('link', { name: 'Explore' }).click();
    // The member's sign-in reads: no dead end at a credential form.
    await expect(page.getByText('read with your sign-in')).toBeVisible();
    const promql = editor(page, 'PromQL');
    await promql.fill('vector(1)');
    await page.keyboard.press('Shift+Enter');
    await expect(page.getByRole('figure', { name: 'Chart of 1 series' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Forget the credential' })).toHaveCount(0);

    // A credential kept in the View's cookie for this instance is used instead, and can be forgotten; the form then
    // offers the sign-in again, and no token button.
    const origin = new URL(page.url()).origin;
    await page.context().addCookies([{ name: 'organization_project', value: encodeURIComponent(JSON.stringify({ auth: created.token.token, url: config.url })), url: origin, secure: true, sameSite: 'Strict' }]);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Forget the credential' })).toBeVisible();
    await expect(page.getByText('read with your sign-in')).toHaveCount(0);
    await editor(page, 'PromQL').fill('vector(2)');
    await page.keyboard.press('Shift+Enter');
    await expect(page.getByRole('figure', { name: 'Chart of 1 series' })).toBeVisible();
    await page.getByRole('button', { name: 'Forget the credential' }).click();
    await expect(page.getByRole('form', { name: 'Connect' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create a read token for the View' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Use my sign-in' }).click();
    await expect(page.getByText('read with your sign-in')).toBeVisible();
  });
});
