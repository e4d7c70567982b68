// Account Settings in the browser, on a fresh account (the demo users keep their passwords): the profile edit with
// its rules persists across a reload; a password change with its rules, then the old password is refused at the
// login page and the new one signs in.
import { PASSWORDS_DO_NOT_MATCH, PROFILE_UNCHANGED } from '../contract/users';
import { expect, test } from './fixtures';
import { FRESH_PASSWORD, freshVerifiedAccount, signInAgain } from './fresh-account';

const NEW_PASSWORD = 'Newer-Pass9!';

test('profile edit persists; password change: old refused, new accepted', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const email = `account-${Date.now()}@example.com`;
  await freshVerifiedAccount(page, email, 'Paula', { project: true });

  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
  await page.getByRole('button', { name: 'Edit profile' }).click();
  await expect(page).toHaveURL(/edit=profile/);
  const profile = page.getByRole('form', { name: 'Edit profile' });
  await profile.getByLabel(/^First name/).fill('');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(profile.getByText('The first name is required.')).toBeVisible();
  await profile.getByLabel(/^First name/).fill('Paula');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(PROFILE_UNCHANGED)).toBeVisible();
  await profile.getByLabel(/^First name/).fill('Paulina');
  await profile.getByLabel(/^Last name/).fill('Renamed');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Your profile has been updated.')).toBeVisible();
  await expect(page).not.toHaveURL(/edit=profile/);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
  await expect(page.getByText('Paulina', { exact: true })).toBeVisible();
  await expect(page.getByText('Renamed', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/edit=password/);
  const form = page.getByRole('form', { name: 'Change password' });
  const newPassword = form.getByLabel(/^New password/);
  const confirm = form.getByLabel(/^Confirm new password/);
  await newPassword.fill('lowercase1!');
  await confirm.fill('lowercase1!');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('The new password must include at least 1 upper case letter.')).toBeVisible();
  await newPassword.fill(NEW_PASSWORD);
  await confirm.fill(`${NEW_PASSWORD}x`);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText(PASSWORDS_DO_NOT_MATCH)).toBeVisible();
  await confirm.fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password has been updated.')).toBeVisible();
  await expect(page).not.toHaveURL(/edit=password/);

  await page.goto('/logout');
  // Signed out of the identity server too: the console's root sends a signed-out visitor to the login page.
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 20_000 });
  expect(await signInAgain(page, email, FRESH_PASSWORD)).toBe(false);
  expect(await signInAgain(page, email, NEW_PASSWORD)).toBe(true);
  await context.close();
});
