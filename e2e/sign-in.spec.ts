// Signing in through the real login page as each demo account, and signing out.
import { demoAccounts, demoRoles } from './demo-accounts';
import { expect, test } from './fixtures';
import { expectSignedInAs, signInThroughConsole } from './login-page';

test.describe('sign in', () => {
  for (const role of demoRoles) {
    const account = demoAccounts[role];
    test(`${account.email} signs in through the login page and sees their name`, async ({ page, baseURL }) => {
      await signInThroughConsole(page, baseURL!, account.email);
      await expectSignedInAs(page, account);
    });
  }

  test('a wrong password keeps the user on the login page', async ({ page, baseURL }) => {
    await page.goto(`${baseURL}/`);
    await page.waitForURL((url) => url.pathname.includes('/realms/'));
    await page.getByLabel('Email').fill(demoAccounts.owner.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(new URL(page.url()).pathname).toContain('/realms/');
  });
});

test.describe('sign out', () => {
  test('returns to the login page and the back button shows no private data', async ({ page, baseURL }) => {
    const account = demoAccounts.member;
    await signInThroughConsole(page, baseURL!, account.email);
    await expectSignedInAs(page, account);

    // LOGOUT in the sidebar, as a person would.
    await page.getByRole('link', { name: /logout/i }).or(page.getByRole('button', { name: /logout/i })).first().click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

    await page.goBack();
    // Whatever the back button lands on (the console's loading view or the login page again), the signed-out
    // user's name and projects must not be on it.
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: `User menu for ${account.name}` })).toHaveCount(0);
    await expect(page.getByText(account.name)).toHaveCount(0);
    await expect(page.getByText(`Hello, ${account.name.split(' ')[0]}`)).toHaveCount(0);
    await expect(page.getByText('Acme Production')).toHaveCount(0);
  });
});
