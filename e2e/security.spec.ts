// Sign-in hardening in the browser (issue 16): the login page's lock-out message after repeated failures, and the
// "sign in again" step before a password change, which goes through the login page and returns to the open form.
import { expect, test } from './fixtures';
import { FRESH_PASSWORD, freshVerifiedAccount } from './fresh-account';
import { submitLoginPage } from './login-page';

test('the login page says to wait after repeated failures, the same for any account', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  // An address without an account: the answer must not differ from an existing one's.
  const email = `lockout-${Date.now()}@example.com`;
  await page.goto('/');
  await page.waitForURL((url) => url.pathname.includes('/realms/'));
  // The default settings: 5 free failures, then a growing wait (5 s after the 6th).
  for (let attempt = 1; attempt <= 5; attempt++) {
    await submitLoginPage(page, email, `Wrong-guess${attempt}!`);
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
  }
  await submitLoginPage(page, email, 'Wrong-guess6!');
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText('Too many failed sign-in attempts. Please wait 5 seconds before trying again.');
  // The email stays typed and focus is back on the form.
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await context.close();
});

test('a password change after an old sign-in asks to sign in again, then returns to the form', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const email = `reauth-${Date.now()}@example.com`;
  await freshVerifiedAccount(page, email, 'Reauth', { project: true });

  // Ten minutes later in the browser: the sign-in is older than a password change accepts (5 minutes).
  await page.clock.install({ time: Date.now() + 10 * 60_000 });
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
  await page.getByRole('button', { name: 'Change password' }).click();
  const step = page.getByRole('region', { name: 'Confirm it is you' });
  await expect(step.getByText('For your security, please sign in again before changing your password.')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Change password' })).toHaveCount(0);
  await expect(step.getByRole('button', { name: 'Sign in again' })).toBeFocused();

  // Back to the real time, then through the login page (even though the session is alive) and back to the form.
  await page.clock.setSystemTime(Date.now());
  await step.getByRole('button', { name: 'Sign in again' }).click();
  await page.waitForURL((url) => url.pathname.includes('/realms/'));
  await submitLoginPage(page, email, FRESH_PASSWORD);
  await page.waitForURL((url) => url.pathname === '/account' && url.searchParams.get('edit') === 'password');
  const form = page.getByRole('form', { name: 'Change password' });
  await expect(form).toBeVisible();
  await form.getByLabel(/^New password/).fill('Fresh-Pass9!');
  await form.getByLabel(/^Confirm new password/).fill('Fresh-Pass9!');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password has been updated.')).toBeVisible();
  await context.close();
});
