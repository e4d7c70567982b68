// Hepic in the browser against the running platform: the owner enables it with a plan, sees Launch disabled with its
// tooltip, adds dev@ as a user, changes dev@'s role through the 'Update user role' modal (cancel once: the previous
// role returns; confirm once), creates a scoped token, sends HEP v3 packets with SIP over UDP and TCP to the HEP
// Endpoint shown, and sees the Overview statistics count them. dev@ (not an admin) then sees no add/remove/role
// controls and the server refuses those changes from them.
import type { Page } from '@playwright/test';
import { hepPacket, sendTcp, sendUdp, sipInvite, sipResponse } from '../tests/support/hepic';
import { enterAcme } from './acme-session';
import { asRole, expect, test } from './fixtures';

const PROJECT = 'Hepic Lab';

/**
 * A project of its own in Acme (so the other specs' projects keep their products), with dev@ in its team: the owner
 * creates it through the API the console uses, then opens its stack page.
 */
async function openHepicLab(page: Page, create: boolean) {
  const session = await enterAcme(page);
  const projects = (await (await session.api('GET', 'projects/')).json()) as { id: number; name: string; slug: string }[];
  let project = projects.find((p) => p.name === PROJECT);
  if (!project && create) {
    const created = (await (await session.api('POST', 'projects/', { name: PROJECT })).json()) as { id: number; slug: string };
    const members = (await (await session.api('GET', 'organizations/users')).json()) as { id: string; email: string }[];
    const dev = members.find((m) => m.email === 'dev@example.com')!;
    expect((await session.api('POST', `projects/users?project_id=${created.id}`, { user_id: dev.id, project_id: created.id })).ok()).toBe(true);
    project = { id: created.id, name: PROJECT, slug: created.slug };
  }
  await page.goto(`/${project!.slug}/stack`);
  await expect(page.getByRole('heading', { level: 1, name: 'Stack' })).toBeVisible();
  return { session, projectId: project!.id };
}

const hepicNav = (page: Page) => page.getByRole('navigation', { name: 'Hepic' });

test.describe.serial('Hepic', () => {
  test.describe('as the owner', () => {
    test.use(asRole('owner'));

    test('enable with a plan, users and the role confirm, a scoped token, packets move the statistics', async ({ page }) => {
      test.setTimeout(120_000);
      await openHepicLab(page, true);
      await page.getByRole('link', { name: 'Add a product' }).click();
      await page.getByRole('button', { name: 'Add Hepic to this project' }).click();
      const form = page.getByRole('form', { name: 'Configure Hepic' });
      // The plan is required, with the spec's message.
      await form.getByRole('button', { name: 'Enable Hepic' }).click();
      await expect(form.getByText('Please select a pricing plan.')).toBeVisible();
      await form.getByLabel('Pricing plan').selectOption('hepic-starter');
      await form.getByLabel('Storage').selectOption('shared-local');
      await form.getByRole('button', { name: 'Enable Hepic' }).click();
      await expect(page.getByText('HEP Endpoint', { exact: true })).toBeVisible();
      // The ingestion key is shown this once, with its copy button (only its hash is stored).
      const enableKey = (await page.locator('dd', { has: page.getByRole('button', { name: 'Copy Token (shown once)' }) }).locator('code').innerText()).trim();
      expect(enableKey).toMatch(/^hep_/);
      await page.getByRole('link', { name: 'Open Hepic' }).click();
      await expect(page).toHaveURL(/\/stack\/hepic$/);
      await expect(page).toHaveTitle('Hepic Overview');

      // The owner who enabled it is listed (its superadmin), so Launch is open to them from the start (spec 001 §2:
      // disabled only when nobody is listed), and the owner may cancel Hepic from its header.
      await expect(page.getByRole('link', { name: 'Launch hepic' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
      await expect(page.getByText('Storage Quota')).toBeVisible();

      // Config: add dev@ as a user.
      await hepicNav(page).getByRole('link', { name: 'Config' }).click();
      await expect(page.getByRole('cell', { name: 'demo@example.com' })).toBeVisible();
      await expect(page.getByLabel('Role of Demo Owner')).toHaveText('superadmin (locked)');
      await page.getByLabel('Member').selectOption({ label: 'Dana Developer (dev@example.com)' });
      await page.getByLabel('Role', { exact: true }).selectOption('user');
      await page.getByRole('button', { name: 'Add to HEPIC' }).click();
      await expect(page.getByText('User has been successfully added to HEPIC')).toBeVisible();
      const devRole = page.getByRole('combobox', { name: 'Role of Dana Developer' });
      await expect(devRole).toHaveValue('user');

      // Change dev@'s role: cancel once (the previous role returns), confirm once.
      await devRole.selectOption('admin');
      const modal = page.getByRole('alertdialog', { name: 'Update user role' });
      await expect(modal).toContainText('You will change the role of Dana Developer to admin.');
      await modal.getByRole('button', { name: 'Cancel' }).click();
      await expect(modal).toBeHidden();
      await expect(devRole).toHaveValue('user');
      await devRole.selectOption('admin');
      await modal.getByRole('button', { name: 'Confirm' }).click();
      await expect(page.getByText('The role has been updated')).toBeVisible();
      await expect(devRole).toHaveValue('admin');
      // And back to user (dev@ is checked as a non-admin below).
      await devRole.selectOption('user');
      await modal.getByRole('button', { name: 'Confirm' }).click();
      await expect(devRole).toHaveValue('user');
      await expect(modal).toBeHidden();

      // Auth: create a scoped token (TTL Days defaults to 1).
      await hepicNav(page).getByRole('link', { name: 'Auth' }).click();
      await expect(page.getByText('This hepic instance has 0 scoped tokens')).toBeVisible();
      await page.getByRole('button', { name: 'Create token' }).click();
      await expect(page).toHaveURL(/action=create-token/);
      const tokenDialog = page.getByRole('dialog', { name: 'Create a new scoped token' });
      await expect(tokenDialog.getByLabel('TTL Days')).toHaveValue('1');
      await tokenDialog.getByLabel('Name').fill('Edge proxy');
      await tokenDialog.getByRole('button', { name: 'Create token' }).click();
      await expect(page.getByText('The new token has been created!')).toBeVisible();
      // The new token is shown once in the modal; the list then shows its hint only.
      const shown = page.getByRole('dialog', { name: 'Your new scoped token' });
      await expect(shown).toContainText('it is shown only once');
      const scoped = await shown.getByRole('textbox', { name: 'New token' }).inputValue();
      expect(scoped).toMatch(/^hep_/);
      await expect(shown.getByRole('button', { name: 'Copy New token' })).toBeVisible();
      await shown.getByRole('button', { name: 'Done' }).click();
      await expect(page.getByText('This hepic instance has 1 scoped token')).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Edge proxy (read)' })).toHaveValue(`${scoped.slice(0, 8)}…${scoped.slice(-4)}`);

      // Data Ingestion: the endpoint and the key's hint; the examples carry a placeholder.
      await hepicNav(page).getByRole('link', { name: 'Data Ingestion' }).click();
      await expect(page).toHaveURL(/data-ingestion\/agents--heplify$/);
      const endpoint = await page.getByRole('textbox', { name: 'HEP Endpoint' }).inputValue();
      await expect(page.getByRole('textbox', { name: 'Token', exact: true })).toHaveValue(`${enableKey.slice(0, 8)}…${enableKey.slice(-4)}`);
      await expect(page.locator('code')).toContainText(`-hs ${endpoint} -hp '<your-hepic-token>'`);
      // Rotating (the superadmin may) shows the new key once and puts it in the examples; the old key is refused.
      await page.getByRole('button', { name: 'Rotate token' }).click();
      await page.getByRole('alertdialog', { name: 'Rotate the ingestion token' }).getByRole('button', { name: 'Rotate token' }).click();
      const newKey = page.getByRole('textbox', { name: 'New token' });
      await expect(newKey).toHaveValue(/^hep_/);
      const token = await newKey.inputValue();
      expect(token).not.toBe(enableKey);
      await expect(page.getByText('it is shown only once')).toBeVisible();
      await expect(page.locator('code')).toContainText(`-hs ${endpoint} -hp '${token}'`);
      const port = Number(endpoint.split(':').at(-1));
      await sendUdp(port, [hepPacket(sipInvite('e2e-old-key@test'), enableKey)]);
      await sendUdp(port, [hepPacket(sipInvite('e2e-udp@test'), token), hepPacket(sipResponse('e2e-udp@test'), token)]);
      await sendTcp(port, [Buffer.concat([hepPacket(sipInvite('e2e-tcp@test'), scoped, { protocol: 6 }), hepPacket(sipResponse('e2e-tcp@test'), scoped, { protocol: 6 })])]);
      await sendUdp(port, [hepPacket(sipInvite('e2e-wrong@test'), 'hep_wrong')]);

      await hepicNav(page).getByRole('link', { name: 'Overview' }).click();
      // The wrong and the rotated-away key's packets are not counted; the Overview reads the statistics again every 10 s.
      await expect(page.getByTestId('statistic-Packets')).toHaveText('4', { timeout: 30_000 });
      await expect(page.getByTestId('statistic-Ingested')).toContainText(/\d+(\.\d+)? (B|kB)/);
      await expect(page.getByRole('link', { name: 'Launch hepic' })).toBeVisible();
    });
  });

  test.describe('as a member who is not a Hepic admin', () => {
    test.use(asRole('member'));

    test('sees the users without controls; the server refuses the changes', async ({ page }) => {
      const { session, projectId } = await openHepicLab(page, false);
      await page.getByRole('link', { name: /Hepic/ }).first().click();
      await hepicNav(page).getByRole('link', { name: 'Config' }).click();
      await expect(page.getByRole('cell', { name: 'dev@example.com' })).toBeVisible();
      await expect(page.getByRole('combobox', { name: /^Role of / })).toHaveCount(0);
      await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Add to HEPIC' })).toHaveCount(0);
      await expect(page.getByText('Automatically add users in the current project to hepic.')).toHaveCount(0);

      const users = (await (await session.api('GET', `integrations/hepic/users?project_id=${projectId}`)).json()) as { email: string; user_id: string }[];
      const demo = users.find((u) => u.email === 'demo@example.com')!;
      const me = users.find((u) => u.email === 'dev@example.com')!;
      expect((await session.api('DELETE', `integrations/hepic/users?project_id=${projectId}&user_id=${demo.user_id}`)).status()).toBe(403);
      expect((await session.api('POST', `integrations/hepic/users?project_id=${projectId}`, { users: [{ user_id: me.user_id, group: 'admin' }] })).status()).toBe(403);
      expect((await session.api('POST', `integrations/hepic/auto-add?project_id=${projectId}`, { enabled: true })).status()).toBe(403);
    });
  });
});
