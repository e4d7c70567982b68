// A GET the API refuses with 401/403 ends the sign-in (spec 000: "GET 401/403 log the user out"): the identity
// session ends too (logout with the id token hint), the browser lands on the login page, and signing in again
// returns to the page the user was on (issue 16 item 10).
import { expect, test } from './fixtures';
import { FRESH_PASSWORD, freshVerifiedAccount } from './fresh-account';
import { submitLoginPage } from './login-page';

test('a GET answered 403 ends the identity session on the login page and returns to the page after sign-in', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const email = `refused-${Date.now()}@example.com`;
  await freshVerifiedAccount(page, email, 'Refused', { project: true });
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();

  // From now on the API refuses every read, as it does when the user was removed from the organization elsewhere.
  const refuse = (route: import('@playwright/test').Route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ message: 'Forbidden' }) })
      : route.fallback();
  await page.route('**/api/**', refuse);
  await page.goto('/billing?from=refusal');

  // The login page, not the console: the identity session has ended, so check-sso cannot sign straight back in.
  await page.waitForURL((url) => url.pathname.includes('/realms/'));
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(new URL(page.url()).pathname).toContain('/realms/');

  // Signing in again returns to the page where the read was refused.
  await page.unroute('**/api/**', refuse);
  await submitLoginPage(page, email, FRESH_PASSWORD);
  await page.waitForURL((url) => url.pathname === '/billing' && url.searchParams.get('from') === 'refusal');
  await context.close();
});
