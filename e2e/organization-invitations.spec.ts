// Pending invitations in Organization Settings, in the browser against the running platform: the invite form's field
// messages (nothing sent, nothing typed lost), inviting a fresh address, re-sending it (a second mail) and deleting
// it, after which the mailed link is refused on the invitation page.
import type { Page, Response } from '@playwright/test';
import { devPage } from './demo-accounts';
import { asRole, expect, test } from './fixtures';

/** Access tokens the console receives from the identity server, newest last (claims only). */
function recordAccessTokens(page: Page): Array<Record<string, unknown>> {
  const tokens: Array<Record<string, unknown>> = [];
  page.on('response', async (response: Response) => {
    if (!response.url().includes('/protocol/openid-connect/token') || !response.ok()) return;
    const body = (await response.json().catch(() => null)) as { access_token?: string } | null;
    if (!body?.access_token) return;
    const [, payload] = body.access_token.split('.');
    tokens.push(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>);
  });
  return tokens;
}

/** Switches the signed-in owner to Acme through the sidebar and waits for a token scoped to it. */
async function switchToAcme(page: Page): Promise<void> {
  const tokens = recordAccessTokens(page);
  await page.goto('/projects');
  await expect.poll(() => tokens.length).toBeGreaterThan(0);
  await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Acme' }).click();
  await expect.poll(() => typeof tokens.at(-1)?.organization_id).toBe('number');
}

/** The invitation links mailed to that address, newest first, read from the local outbox in its own tab. */
async function invitationLinks(page: Page, to: string): Promise<string[]> {
  const outbox = await page.context().newPage();
  await outbox.goto(devPage('/dev/outbox'));
  const mails = outbox
    .locator('article.mail')
    .filter({ has: outbox.locator('.to', { hasText: to }) })
    .filter({ has: outbox.locator('h2', { hasText: 'You have been invited to Acme' }) });
  const links: string[] = [];
  for (const mail of await mails.all()) {
    const href = await mail.getByRole('link', { name: /\/invitations\?/ }).first().getAttribute('href');
    if (href) links.push(href);
  }
  await outbox.close();
  return links;
}

test.describe('pending invitations', () => {
  test.use(asRole('owner'));

  test("the invite form's field messages: nothing is sent and the typed text stays", async ({ page }) => {
    await switchToAcme(page);
    const invitePosts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/organizations/invitations')) invitePosts.push(request.url());
    });
    // The pending list is counted once it has loaded (other specs may add or remove invitations in this run).
    const loaded = page.waitForResponse((response) => response.request().method() === 'GET' && new URL(response.url()).pathname.replace(/\/$/, '') === '/api/organizations/invitations');
    await page.goto('/organization');
    await expect(page.getByRole('heading', { name: 'Organization Settings' })).toBeVisible();
    const pendingBefore = ((await (await loaded).json()) as unknown[]).length;
    expect(pendingBefore, 'the seeded invitation is pending').toBeGreaterThan(0);
    await expect(page.getByRole('list', { name: 'Pending members' }).getByRole('listitem')).toHaveCount(pendingBefore);

    const invite = page.getByRole('form', { name: 'Invite new member' });
    const email = invite.getByLabel(/^Email/);
    const send = invite.getByRole('button', { name: 'Send invitation' });
    await send.click();
    await expect(invite.getByText('Email is required.', { exact: true })).toBeVisible();
    await expect(email).toHaveValue('');

    await email.fill('not-an-email');
    await send.click();
    await expect(invite.getByText('Please enter a valid email address.', { exact: true })).toBeVisible();
    await expect(invite.getByText('Email is required.', { exact: true })).toHaveCount(0);
    await expect(email).toHaveValue('not-an-email');

    expect(invitePosts).toEqual([]);
    await expect(page.getByRole('list', { name: 'Pending members' }).getByRole('listitem')).toHaveCount(pendingBefore);
    await expect(page.getByText(/An invitation has been sent to/)).toHaveCount(0);
  });

  test('invite, re-send (a second mail), delete: the link is then refused', async ({ page, browser, baseURL }) => {
    test.setTimeout(90_000);
    await switchToAcme(page);
    await page.goto('/organization');
    await expect(page.getByRole('heading', { name: 'Organization Settings' })).toBeVisible();
    const email = `pending-${Date.now()}@example.com`;
    const pending = page.getByRole('list', { name: 'Pending members' }).getByRole('listitem', { name: email });
    await expect(pending).toHaveCount(0);

    const invite = page.getByRole('form', { name: 'Invite new member' });
    await invite.getByLabel(/^Email/).fill(email);
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByRole('status').filter({ hasText: `An invitation has been sent to ${email}.` })).toBeVisible();
    await expect(pending).toBeVisible();
    await expect(pending.getByText(email, { exact: true })).toBeVisible();
    await expect(invite.getByLabel(/^Email/)).toHaveValue('');
    expect(await invitationLinks(page, email)).toHaveLength(1);

    // Re-send: the server's message as a toast, and a second mail to the same address.
    await pending.getByRole('button', { name: 'Re-send Invitation' }).click();
    await expect(page.getByRole('status').filter({ hasText: `The invitation has been re-sent to ${email}.` })).toBeVisible();
    await expect.poll(async () => (await invitationLinks(page, email)).length).toBe(2);
    await expect(pending).toBeVisible();
    const [latestLink] = await invitationLinks(page, email);

    // Delete asks first: Cancel keeps the invitation; confirming removes it from 'Pending members' (also after a
    // reload, so it is gone on the server too).
    await pending.getByRole('button', { name: `Delete invitation: ${email}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete the invitation to ${email}?` });
    await expect(confirm).toContainText('The link in the invitation mail stops working.');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(pending).toBeVisible();
    await pending.getByRole('button', { name: `Delete invitation: ${email}` }).click();
    await confirm.getByRole('button', { name: 'Delete invitation' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The invitation has been deleted.' })).toBeVisible();
    await expect(pending).toHaveCount(0);
    await page.reload();
    await expect(page.getByText('Acme Team')).toBeVisible();
    await expect(pending).toHaveCount(0);

    // The mailed link, opened by a signed-in user, is refused.
    const other = await browser.newContext({ baseURL, storageState: asRole('newcomer').storageState });
    const invitee = await other.newPage();
    await invitee.goto(latestLink);
    await expect(invitee.getByRole('heading', { name: 'You have received an invitation to organization Acme' })).toBeVisible();
    await invitee.locator('[data-scope="checkbox"][data-part="control"]').click();
    await invitee.getByRole('button', { name: 'Accept invitation' }).click();
    const form = invitee.getByRole('form', { name: 'Invitation' });
    await expect(form.getByRole('alert').filter({ hasText: 'Invitation expired or invalid.' })).toBeVisible();
    await expect(form.getByText('Inviting user must re-send invitation.')).toBeVisible();
    await expect(invitee).toHaveURL((url) => url.pathname === '/invitations');
    await other.close();
  });
});
