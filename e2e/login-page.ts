// Drives the identity server's real login page, as a person would.
import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './demo-accounts';

export async function submitLoginPage(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens the console signed out and follows its redirect to the login page. */
export async function signInThroughConsole(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.waitForURL((url) => url.pathname.includes('/realms/'));
  await submitLoginPage(page, email);
  // Back on the console once the /auth callback has completed the sign-in.
  await page.waitForURL((url) => !url.pathname.includes('/realms/') && url.pathname !== '/auth');
}

/** The console shows who is signed in: the greeting, and the user menu with the full name and email. */
export async function expectSignedInAs(page: Page, account: { email: string; name: string }): Promise<void> {
  const menu = page.getByRole('button', { name: `User menu for ${account.name}` });
  await expect(menu).toBeVisible();
  await menu.click();
  await expect(page.getByRole('menu').getByText(account.name, { exact: true })).toBeVisible();
  await expect(page.getByRole('menu').getByText(account.email, { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
}
