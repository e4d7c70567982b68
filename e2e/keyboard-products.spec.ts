// Keyboard-only walks of the products' flagship flows (Tab, Shift+Tab, Enter, Escape, arrows and typing; no mouse),
// as the demo owner in a fresh Acme project set up through the API: a ClickHouse cluster created on its form,
// followed to active and deleted through its confirmation; a Loggen run started and stopped; a Hepic user's role
// changed in its group select, cancelled with Escape and then confirmed. On each screen every control is reachable by
// Tab with its focus visible and Tab leaves again; in a dialog Tab stays inside it, and when the dialog closes focus
// is back on the control that opened it (e2e/keyboard.ts).
import type { Page } from '@playwright/test';
import { ROLE_UPDATED_MESSAGE, roleConfirmText } from '../contract/hepic';
import { LOGGEN_RUNNING } from '../src/machines/loggen-run/loggen-run.machine';
import { SAMPLE_USER_NAME } from '../src/machines/hepic-role-confirm/hepic-role-confirm.samples';
import { enterAcme, freshAcmeProject } from './acme-session';
import { asRole, expect, test } from './fixtures';
import { arrowTo, arrowToOption, expectFocusOn, expectTabCycle, tabTo, tabToControl, typeInto } from './keyboard';
import { freshLoggen, ownerApi } from './loggen-lab';

const PASSWORD = 'Keys-password-1';

/** Tab to a field, select what it holds and type over it. */
async function replaceIn(page: Page, label: RegExp, text: string) {
  await tabTo(page, label);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

test.describe('keyboard only, the products', () => {
  test.use(asRole('owner'));

  test('creates a ClickHouse cluster, follows it to active and deletes it', async ({ page }) => {
    test.setTimeout(180_000);
    const session = await enterAcme(page, 'keyboard');
    const project = await freshAcmeProject(session, 'Keyboard cluster');
    await page.goto(`/${project.slug}/stack/add`);
    await expect(page.getByRole('heading', { level: 1, name: 'Add a product' })).toBeVisible();
    await tabTo(page, 'Add ClickHouse to this project');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/${project.slug}/stack/clickhouse/create$`));

    const form = page.getByRole('form', { name: 'Managed cluster' });
    const field = (label: string) => form.getByLabel(new RegExp(`^${label}\\s*\\*?$`));
    await expect(field('Region')).toBeEnabled();
    await expectTabCycle(page);
    const name = `keys-${Date.now().toString(36)}`;
    await replaceIn(page, /^input.*"Name\*?"$/, name);
    await tabTo(page, /^select "Region/);
    await arrowTo(page, field('Region'), 'eu-central-1');
    await tabTo(page, /^select "Version/);
    await page.keyboard.press('ArrowDown');
    await expect(field('Version')).not.toHaveValue('');
    await replaceIn(page, /^input\[number\] "Replicas/, '1');
    await expect(field('Replicas')).toHaveValue('1');
    await replaceIn(page, /"Admin user\*?"$/, 'admin_keys');
    await typeInto(page, /"Admin password\*?"$/, PASSWORD);
    await typeInto(page, /"Confirm password\*?"$/, PASSWORD);
    await page.keyboard.press('Enter'); // submits the form from its last field

    await expect(page).toHaveURL(/\/stack\/clickhouse\/cluster\/\d+$/, { timeout: 20_000 });
    const clusterId = Number(/\/cluster\/(\d+)$/.exec(page.url())![1]);
    const cluster = page.getByRole('region', { name: 'ClickHouse cluster' });
    await expect(cluster.getByText('Status:')).toContainText('active', { timeout: 60_000 });
    await expect(page.getByRole('button', { name: 'Copy client command' })).toBeVisible();
    await expectTabCycle(page);

    // The confirmation: Tab stays in it, Escape closes it and focus is back on Delete cluster.
    const confirm = page.getByRole('alertdialog');
    await tabTo(page, 'Delete cluster');
    await page.keyboard.press('Enter');
    await expect(confirm).toContainText(`Delete ${name}?`);
    await expectTabCycle(page, confirm);
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await expectFocusOn(page, 'Delete cluster');
    await expect(cluster.getByText('Status:')).toContainText('active');

    await page.keyboard.press('Enter');
    await expect(confirm).toBeVisible();
    await tabTo(page, /^button\[button\] "Delete"$/);
    await page.keyboard.press('Enter');
    await expect(page.getByText('This cluster has been deleted.')).toBeVisible({ timeout: 60_000 });
    const clusters = (await (await session.api('GET', `integrations/clickhouse/clusters?project_id=${project.id}`)).json()) as Array<{ id: number }>;
    expect(clusters.map((c) => c.id)).not.toContain(clusterId);
  });

  test('starts a Loggen run and stops it', async ({ page }) => {
    test.setTimeout(120_000);
    const session = await enterAcme(page, 'keyboard');
    const api = ownerApi(page, session);
    const lab = await freshLoggen(api);
    await page.goto(`/${lab.slug}/stack/loggen`);
    const form = page.getByRole('form', { name: 'Loggen configuration' });
    const save = form.getByRole('button', { name: 'Save and run', exact: true });
    const stop = form.getByRole('button', { name: 'Stop', exact: true });
    await expect(save).toBeEnabled({ timeout: 20_000 });
    await expectTabCycle(page);

    // A run long enough to stop: the Timeout select, opened and moved by arrows.
    const timeout = form.getByRole('combobox', { name: 'Timeout' });
    await tabToControl(page, timeout);
    await page.keyboard.press('Enter');
    await arrowToOption(page, page.getByRole('option', { name: '1m', exact: true }));
    await page.keyboard.press('Enter');
    await expect(timeout).toHaveText(/1m/);
    await expectFocusOn(page, '1m');

    await tabToControl(page, save);
    await page.keyboard.press('Enter');
    await expect(form.getByRole('progressbar', { name: 'Loggen run' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(LOGGEN_RUNNING)).toBeVisible();
    await expect(stop).toBeVisible();
    await expectTabCycle(page);
    await tabToControl(page, stop);
    await page.keyboard.press('Enter');

    await expect(save).toBeEnabled({ timeout: 20_000 });
    await expect(stop).toHaveCount(0);
    // The server ended the run as stopped (the last run's one chunk).
    const last = await page.request.get(`/api/integrations/loggen/run?project_id=${lab.projectId}`, { headers: { Authorization: `Bearer ${session.tokens.at(-1)!.raw}` } });
    expect(JSON.parse((await last.text()).trim().split('\n').at(-1)!)).toMatchObject({ status: 'stopped' });
    // Stop is gone: focus is on Save and run, not left at the top of the page.
    await expectFocusOn(page, 'Save and run');
    await api('DELETE', `projects?project_id=${lab.projectId}`);
  });

  test('changes a Hepic role in the group select, cancels with Escape, then confirms', async ({ page }) => {
    test.setTimeout(120_000);
    const session = await enterAcme(page, 'keyboard');
    const project = await freshAcmeProject(session, 'Keyboard Hepic');
    const query = `project_id=${project.id}`;
    const members = (await (await session.api('GET', 'organizations/users')).json()) as { id: string; email: string }[];
    const devId = members.find((m) => m.email === 'dev@example.com')!.id;
    expect((await session.api('POST', `projects/users?${query}`, { user_id: devId, project_id: project.id })).ok()).toBe(true);
    const enabled = await session.api('POST', `integrations/hepic?${query}`, { price_id: 'hepic-starter', cluster_id: 'shared-local' });
    expect(enabled.ok(), await enabled.text()).toBe(true);
    const added = await session.api('POST', `integrations/hepic/users?${query}`, { users: [{ user_id: devId, group: 'user' }] });
    expect(added.ok(), await added.text()).toBe(true);

    await page.goto(`/${project.slug}/stack/hepic/config`);
    // The open modal makes the rest of the page inert, the select included.
    const select = page.getByRole('combobox', { name: `Role of ${SAMPLE_USER_NAME}`, includeHidden: true });
    const modal = page.getByRole('alertdialog', { name: 'Update user role' });
    await expect(select).toBeEnabled({ timeout: 20_000 });
    await expect(select).toHaveValue('user');
    await expectTabCycle(page);

    await tabTo(page, `Role of ${SAMPLE_USER_NAME}`);
    await page.keyboard.press('ArrowUp');
    await expect(modal).toContainText(roleConfirmText(SAMPLE_USER_NAME, 'admin'));
    await expectTabCycle(page, modal);
    await page.keyboard.press('Escape');
    await expect(modal).toHaveCount(0);
    await expect(select).toHaveValue('user');
    await expect(select).toBeEnabled();
    await expectFocusOn(page, `Role of ${SAMPLE_USER_NAME}`);

    await page.keyboard.press('ArrowUp');
    await expect(modal).toBeVisible();
    await tabTo(page, /^button\[button\] "Confirm"$/);
    await page.keyboard.press('Enter');
    await expect(page.getByText(ROLE_UPDATED_MESSAGE).first()).toBeVisible();
    await expect(modal).toHaveCount(0);
    await expect(select).toHaveValue('admin');
    await expectFocusOn(page, `Role of ${SAMPLE_USER_NAME}`);
    const users = (await (await session.api('GET', `integrations/hepic/users?${query}`)).json()) as Array<{ user_id: string; group: string }>;
    expect(users.find((u) => u.user_id === devId)?.group).toBe('admin');
  });
});
