// Fresh accounts for browser tests that change or delete what they sign in with (the demo users stay as they are):
// registration through the identity server's page, verification through the local outbox, the card form.
import type { Page } from '@playwright/test';
import { devPage } from './demo-accounts';
import { recordAccessTokens } from './access-tokens';
import { expect } from './fixtures';

export const FRESH_PASSWORD = 'Demo1234!';

/** Registers a new account through the identity server's registration page, starting from a console address. */
export async function registerThroughConsole(page: Page, path: string, email: string, firstName: string, password = FRESH_PASSWORD): Promise<void> {
  await page.goto(path);
  await page.waitForURL((url) => url.pathname.includes('/realms/'));
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('First name').fill(firstName);
  await page.getByLabel('Last name').fill('Tester');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => !url.pathname.includes('/realms/') && url.pathname !== '/auth');
}

/** Opens the newest mail to that address in the local outbox and follows its first link. */
export async function followMailLink(page: Page, to: string, linkPattern: RegExp): Promise<void> {
  await page.goto(devPage('/dev/outbox'));
  const mail = page.locator('article.mail').filter({ has: page.locator('.to', { hasText: to }) }).first();
  // Opened like a person pasting it: a long link can sit outside the viewport, where a click never lands.
  const href = await mail.getByRole('link', { name: linkPattern }).first().getAttribute('href');
  expect(href, `a link in the mail to ${to}`).toBeTruthy();
  await page.goto(href!);
}

/** A new, verified account, signed in; with a personal project when asked (else the console sends it to create an organization). */
export async function freshVerifiedAccount(page: Page, email: string, firstName: string, options: { project?: boolean } = {}): Promise<void> {
  const tokens = recordAccessTokens(page);
  await registerThroughConsole(page, '/projects', email, firstName);
  await followMailLink(page, email, /verify-email/);
  await expect(page.getByRole('heading', { name: 'Email verified' })).toBeVisible();
  if (options.project) {
    await page.goto('/organization/create');
    await expect.poll(() => tokens.length).toBeGreaterThan(0);
    const created = await page.request.post('/api/projects/', { headers: { Authorization: `Bearer ${tokens.at(-1)!.raw}` }, data: { name: 'My first project' } });
    expect(created.status()).toBe(201);
  }
}

export async function fillCardForm(page: Page, cardNumber: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Card' });
  await form.getByLabel(/^Address/).first().fill('1 Main Street');
  await form.getByLabel(/^City/).fill('Berlin');
  await form.getByLabel(/^Postal code/).fill('10115');
  const country = form.getByRole('combobox', { name: 'Country' });
  await country.click();
  await country.fill('Germ');
  await page.getByRole('option', { name: 'Germany' }).click();
  await form.getByLabel(/^Phone/).fill('+49 30 1234567');
  await form.getByLabel('Card number').fill(cardNumber);
  await form.getByLabel('Expiry (MM/YY)').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  // Ark's checkbox keeps its input visually hidden; the person clicks the box drawn next to the label.
  const terms = form.getByRole('checkbox');
  if (!(await terms.isChecked())) await form.locator('[data-scope="checkbox"][data-part="control"]').click();
  await expect(terms).toBeChecked();
}

/** Signs out through the console, then tries the login page with these credentials; true when it let them in. */
export async function signInAgain(page: Page, email: string, password: string): Promise<boolean> {
  await page.goto('/projects');
  await page.waitForURL((url) => url.pathname.includes('/realms/'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const outcome = await Promise.race([
    page.waitForURL((url) => !url.pathname.includes('/realms/') && url.pathname !== '/auth', { timeout: 15_000 }).then(() => true),
    page.getByText('Invalid email or password.').waitFor({ timeout: 15_000 }).then(() => false),
  ]);
  return outcome;
}
