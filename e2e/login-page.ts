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
