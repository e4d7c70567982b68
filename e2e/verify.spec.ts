// The Verify page in the browser against the running platform: a freshly registered (unverified) user is kept on
// /verify, asks for a new verification mail, follows it, and after signing in again the console opens normally.
import type { Page } from '@playwright/test';
import { devPage } from './demo-accounts';
import { expect, test } from './fixtures';

const PASSWORD = 'Demo1234!';

/** Registers a new account through the identity server's registration page, starting from a console address. */
async function registerThroughConsole(page: Page, path: string, email: string): Promise<void> {
  await page.goto(path);
  await page.waitForURL((url) => url.pathname.includes('/realms/'));
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('First name').fill('Vera');
  await page.getByLabel('Last name').fill('Verifier');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => !url.pathname.includes('/realms/') && url.pathname !== '/auth');
}

/** The verification links mailed to that address, newest first, read from the local outbox. */
async function verificationLinks(page: Page, to: string): Promise<string[]> {
  await page.goto(devPage('/dev/outbox'));
  const mails = page
    .locator('article.mail')
    .filter({ has: page.locator('.to', { hasText: to }) })
    .filter({ has: page.locator('h2', { hasText: 'Verify your email address' }) });
  const links: string[] = [];
  for (const mail of await mails.all()) {
    const href = await mail.getByRole('link', { name: /verify-email/ }).first().getAttribute('href');
    if (href) links.push(href);
  }
  return links;
}

test.describe('an unverified account', () => {
  test('is kept on /verify, re-sends the mail, follows it and then reaches the console', async ({ browser, baseURL }) => {
    test.setTimeout(90_000);
    // A signed-out browser: a new account is made for this test only.
    const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    const email = `verify-${Date.now()}@example.com`;

    await registerThroughConsole(page, '/projects', email);
    await page.waitForURL((url) => url.pathname === '/verify');
    const card = page.getByRole('region', { name: 'Your account is not yet verified' });
    await expect(card.getByRole('heading', { name: 'Your account is not yet verified' })).toBeVisible();
    await expect(card.getByText(`We sent a verification link to ${email}.`)).toBeVisible();
    await expect(card.getByRole('link', { name: 'Login' })).toBeVisible();
    // Any other console page sends an unverified user back here.
    await page.goto('/projects');
    await page.waitForURL((url) => url.pathname === '/verify');

    // The mail is read in a second tab, as a person would: the console's tab stays on /verify, not reloaded.
    await page.goto('/verify');
    const mailTab = await context.newPage();
    // Registration sent one mail; the button sends another, with a new link.
    const before = await verificationLinks(mailTab, email);
    expect(before).toHaveLength(1);
    await page.getByRole('button', { name: 'Re-send verification email' }).click();
    await expect(page.getByRole('status').filter({ hasText: `A new verification email has been sent to ${email}.` })).toBeVisible();
    const after = await verificationLinks(mailTab, email);
    expect(after).toHaveLength(2);
    expect(after.slice(1)).toEqual(before);
    expect(after[0]).not.toBe(before[0]);

    // The new link verifies the account (not 'already used': this is the click that verifies it).
    await mailTab.goto(after[0]);
    await expect(mailTab.getByRole('heading', { name: 'Email verified' })).toBeVisible();
    await expect(mailTab.getByText('Thank you, your email address is verified.')).toBeVisible();
    await mailTab.close();

    // Back in the console's tab, 'Login' signs in again: the console no longer shows /verify. A new account with
    // nothing yet lands on creating an organization.
    await expect(page).toHaveURL((url) => url.pathname === '/verify');
    await page.getByRole('link', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname === '/organization/create');
    await expect(page.getByRole('heading', { name: 'Create an organization' })).toBeVisible();
    await page.goto('/projects');
    await expect(page).toHaveURL((url) => url.pathname === '/projects');
    await expect(page.getByText('Your account is not yet verified')).toHaveCount(0);
    await context.close();
  });
});
