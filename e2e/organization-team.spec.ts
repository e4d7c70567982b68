// Organization Settings in the browser against the running platform: an owner invites a new address limited to one
// project and read-only, the invitee registers through the mailed link and accepts, the owner promotes and then
// removes them (after which the invitee's API calls for that project are refused); members who are not owners see
// no role or delete buttons and the API refuses them those calls.
import type { Page } from '@playwright/test';
import { devPage } from './demo-accounts';
import { recordAccessTokens, type ReceivedToken } from './access-tokens';
import { asRole, expect, test } from './fixtures';

const PASSWORD = 'Demo1234!';

/** Switches the signed-in demo user to Acme through the sidebar and waits for a token scoped to it. */
async function switchToAcme(page: Page, tokens: ReceivedToken[]): Promise<number> {
  await page.goto('/projects');
  await expect.poll(() => tokens.length).toBeGreaterThan(0);
  await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Acme' }).click();
  await expect.poll(() => typeof tokens.at(-1)?.claims.organization_id).toBe('number');
  return tokens.at(-1)!.claims.organization_id as number;
}

async function api(page: Page, token: ReceivedToken, path: string) {
  return page.request.get(`/api/${path}`, { headers: { Authorization: `Bearer ${token.raw}` } });
}

test.describe('the owner manages the team', () => {
  test.use(asRole('owner'));

  test('invite read-only to one project, accept, promote, remove', async ({ page, browser, baseURL }) => {
    test.setTimeout(120_000);
    const ownerTokens = recordAccessTokens(page);
    const acmeId = await switchToAcme(page, ownerTokens);
    const projects = (await (await api(page, ownerTokens.at(-1)!, 'projects')).json()) as Array<{ id: number; name: string }>;
    const production = projects.find((project) => project.name === 'Acme Production')!;
    const staging = projects.find((project) => project.name === 'Acme Staging')!;

    await page.goto('/organization');
    await expect(page.getByRole('heading', { name: 'Organization Settings' })).toBeVisible();
    await expect(page.getByText('Acme Team')).toBeVisible();

    // The invite form's own rules first.
    const invite = page.getByRole('form', { name: 'Invite new member' });
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect(invite.getByText('Email is required.')).toBeVisible();
    await invite.getByLabel(/^Email/).fill('not-an-email');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect(invite.getByText('Please enter a valid email address.')).toBeVisible();

    const stamp = Date.now();
    const email = `invitee-${stamp}@example.com`;
    await invite.getByLabel(/^Email/).fill(email);
    await invite.getByRole('combobox', { name: 'Projects' }).click();
    await page.getByRole('option', { name: 'Acme Production' }).click();
    await page.keyboard.press('Escape');
    await invite.locator('[data-scope="checkbox"][data-part="control"]').click();
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`An invitation has been sent to ${email}.`)).toBeVisible();
    const pending = page.getByRole('list', { name: 'Pending members' }).getByRole('listitem', { name: email });
    await expect(pending).toBeVisible();
    await expect(pending.getByText('Read-Only', { exact: true })).toBeVisible();

    // The mail is in the local outbox with the invitation link.
    await page.goto(devPage('/dev/outbox'));
    const mail = page.locator('article.mail').filter({ has: page.locator('.to', { hasText: email }) }).first();
    await expect(mail.locator('h2')).toHaveText('You have been invited to Acme');
    const link = await mail.getByRole('link', { name: /\/invitations\?/ }).first().getAttribute('href');
    expect(link).toContain('organization_name=Acme');

    // The invitee registers from the link, verifies the address, comes back and accepts.
    // A signed-out browser: contexts made here would otherwise start with the owner's session (the `use` defaults).
    const inviteeContext = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    const invitee = await inviteeContext.newPage();
    const inviteeTokens = recordAccessTokens(invitee);
    await invitee.goto(link!);
    await invitee.waitForURL((url) => url.pathname.includes('/realms/'));
    await invitee.getByRole('link', { name: 'Create an account' }).click();
    await invitee.getByLabel('First name').fill('Ivy');
    await invitee.getByLabel('Last name').fill('Invitee');
    await invitee.getByLabel('Email').fill(email);
    await invitee.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await invitee.getByLabel('Confirm password').fill(PASSWORD);
    await invitee.getByRole('button', { name: 'Create account' }).click();
    await invitee.waitForURL((url) => url.pathname === '/invitations');
    await invitee.goto(devPage('/dev/outbox'));
    // Follow the link by its address: with many mails in the shared outbox, a long wrapped link can sit where a
    // click does not reach it.
    const verifyHref = await invitee
      .locator('article.mail')
      .filter({ has: invitee.locator('.to', { hasText: email }) })
      .getByRole('link', { name: /verify-email/ })
      .first()
      .getAttribute('href');
    expect(verifyHref).toContain('/verify-email?token=');
    await invitee.goto(verifyHref!);
    await expect(invitee.getByRole('heading', { name: 'Email verified' })).toBeVisible();
    await invitee.goto(link!);
    await expect(invitee.getByText('You have received an invitation to organization Acme')).toBeVisible();
    const accept = invitee.getByRole('button', { name: 'Accept invitation' });
    await expect(accept).toBeDisabled();
    await invitee.locator('[data-scope="checkbox"][data-part="control"]').click();
    await expect(accept).toBeEnabled();
    await accept.click();
    await expect.poll(() => inviteeTokens.at(-1)?.claims.organization_id).toBe(acmeId);
    await expect(invitee.getByText('Welcome to Acme')).toBeVisible();

    // Access to the one project only.
    const visible = (await (await api(invitee, inviteeTokens.at(-1)!, 'projects')).json()) as Array<{ id: number }>;
    expect(visible.map((project) => project.id)).toEqual([production.id]);
    expect((await api(invitee, inviteeTokens.at(-1)!, `integrations?project_id=${production.id}`)).ok()).toBe(true);
    expect((await api(invitee, inviteeTokens.at(-1)!, `integrations?project_id=${staging.id}`)).ok()).toBe(false);

    // The owner sees them as a read-only member, promotes them, then removes them.
    await page.goto('/organization');
    const row = page.getByRole('list', { name: 'Team' }).getByRole('listitem', { name: 'Ivy Invitee' });
    await expect(row).toBeVisible();
    await expect(row.getByText('Read-Only', { exact: true })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Pending members' }).getByRole('listitem', { name: email })).toHaveCount(0);
    await row.getByRole('button', { name: 'Make read-write: Ivy Invitee' }).click();
    await expect(page.getByText('User promoted').first()).toBeVisible();
    await expect(row.getByText('Read-Only', { exact: true })).toHaveCount(0);
    await expect(row.getByRole('button', { name: 'Make read-only: Ivy Invitee' })).toBeVisible();

    await row.getByRole('button', { name: 'Delete user: Ivy Invitee' }).click();
    await expect(page).toHaveURL(/action=delete-org-user-/);
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByText('removes them from all projects and integrations')).toBeVisible();
    await expect(dialog.getByText('cannot be undone')).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete user' }).click();
    await expect(page.getByText('The user has been removed from the organization, its projects and integrations.')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Team' }).getByRole('listitem', { name: 'Ivy Invitee' })).toHaveCount(0);

    // The invitee's next call for that project is refused.
    const after = await api(invitee, inviteeTokens.at(-1)!, `integrations?project_id=${production.id}`);
    expect(after.ok()).toBe(false);
    expect([401, 403, 404]).toContain(after.status());
    await inviteeContext.close();
  });
});

for (const role of ['member', 'viewer'] as const) {
  test.describe(`a ${role === 'member' ? 'read-write' : 'read-only'} member of Acme`, () => {
    test.use(asRole(role));

    test('sees no role or delete buttons, and the API refuses those calls', async ({ page }) => {
      const tokens = recordAccessTokens(page);
      const acmeId = await switchToAcme(page, tokens);
      await page.goto('/organization');
      if (role === 'viewer') {
        // A read-only member is kept out by address too (issue 17): a message, not the team or the invitations.
        await expect(page.getByRole('alert').filter({ hasText: 'Read-only access' })).toBeVisible();
        await expect(page.getByText('Acme Team')).toHaveCount(0);
        await expect(page.getByRole('list', { name: 'Pending members' })).toHaveCount(0);
      } else {
        await expect(page.getByText('Acme Team')).toBeVisible();
        await expect(page.getByRole('list', { name: 'Team' }).getByText('Demo Owner', { exact: true })).toBeVisible();
      }
      await expect(page.getByRole('button', { name: /^Make read-/ })).toHaveCount(0);
      await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Re-send Invitation' })).toHaveCount(0);
      await expect(page.getByRole('form', { name: 'Invite new member' })).toHaveCount(0);

      const members = (await (await api(page, tokens.at(-1)!, 'organizations/users')).json()) as Array<{ id: string; owner: boolean }>;
      const other = members.find((member) => !member.owner)!;
      const token = tokens.at(-1)!;
      const promote = await page.request.get(`/api/users/promote?user_id=${other.id}&read_only=true&organization_id=${acmeId}`, {
        headers: { Authorization: `Bearer ${token.raw}` },
      });
      expect(promote.status()).toBe(403);
      const remove = await page.request.delete(`/api/organizations/user/${other.id}`, { headers: { Authorization: `Bearer ${token.raw}` } });
      expect(remove.status()).toBe(403);
    });
  });
}
