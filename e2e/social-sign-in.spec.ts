// Social sign-in in the browser (issue 17): the login page's "Continue with …" button, the local stand-in provider the
// platform starts (its own login page), back in the console as social@example.com, whose Account Settings offer no
// profile or password editing. And a cancel at the provider ends on the login page with a message.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectSignedInAs } from './login-page';

const SOCIAL = { email: 'social@example.com', name: 'Sam Social' };
const BUTTON = 'Continue with Social stand-in';

/** Opens the console signed out, lands on the login page and reaches the provider's button with the keyboard. */
async function pressSocialButtonByKeyboard(page: Page, baseURL: string) {
  await page.goto(`${baseURL}/`);
  await page.waitForURL((url) => url.pathname.includes('/realms/'));
  const button = page.getByRole('link', { name: BUTTON });
  await expect(button).toBeVisible();
  for (let presses = 0; presses < 10 && !(await button.evaluate((element) => element === document.activeElement)); presses++) {
    await page.keyboard.press('Tab');
  }
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Social stand-in: sign in' })).toBeVisible();
  await expect(page.getByRole('note')).toContainText('Local stand-in for an external sign-in provider');
}

test.describe('social sign-in', () => {
  // Two providers' pages, the console's start and three loads of Account Settings: longer than one page's budget.
  test.describe.configure({ timeout: 90_000 });
  test('social@ signs in through the stand-in provider and is offered no profile editing', async ({ page, baseURL }) => {
    await pressSocialButtonByKeyboard(page, baseURL!);
    await expect(page.getByLabel('Email')).toHaveValue(SOCIAL.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.origin === new URL(baseURL!).origin && !url.pathname.includes('/realms/') && url.pathname !== '/auth');
    await expectSignedInAs(page, SOCIAL);

    // social@ has no projects or organizations yet: the console opens on creating one; the sidebar's Account link works.
    await expect(page.getByRole('heading', { name: 'Create an organization' })).toBeVisible();
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === '/account');
    await expect(page.getByText('Your profile and password are managed by the provider you signed up with.')).toBeVisible();
    await expect(page.locator('#main').getByText(SOCIAL.email, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit profile' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Change password' })).toHaveCount(0);
    // Nor by address: the edit links of a password account open nothing here.
    for (const edit of ['profile', 'password']) {
      await page.goto(`${baseURL}/account?edit=${edit}`);
      await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
      await expect(page.getByLabel('First name')).toHaveCount(0);
      await expect(page.getByLabel(/password/i)).toHaveCount(0);
    }
  });

  test('a cancel at the provider ends on the login page with a message', async ({ page, baseURL }) => {
    await pressSocialButtonByKeyboard(page, baseURL!);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('Sign-in with Social stand-in was cancelled. Please try again, or sign in with your email and password.');
    await expect(page.getByRole('link', { name: BUTTON })).toBeVisible();
  });
});
