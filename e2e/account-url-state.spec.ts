// Issue 17 in the browser, through the real login page: the delete-member deep link opens its dialog on a direct
// load and after a reload; a read-only member who types the address of a screen the spec hides from them sees the
// read-only message and no form.
import type { Page } from '@playwright/test';
import { recordAccessTokens } from './access-tokens';
import { asRole, expect, test } from './fixtures';

async function switchToAcme(page: Page): Promise<void> {
  const tokens = recordAccessTokens(page);
  await page.goto('/projects');
  await expect.poll(() => tokens.length).toBeGreaterThan(0);
  await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Acme' }).click();
  await expect.poll(() => typeof tokens.at(-1)?.claims.organization_id).toBe('number');
}

test.describe('the owner', () => {
  test.use(asRole('owner'));

  test('a direct load of the delete-member link opens its dialog, a reload keeps it, Cancel clears the address', async ({ page }) => {
    await switchToAcme(page);
    await page.goto('/organization');
    // The link a colleague would share: taken from the Delete button of a member, then loaded afresh.
    const deleteButton = page.getByRole('button', { name: /^Delete user: / }).first();
    const label = (await deleteButton.getAttribute('aria-label'))!.replace('Delete user: ', '');
    await deleteButton.click();
    await expect(page).toHaveURL(/action=delete-org-user-/);
    const link = page.url();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page).not.toHaveURL(/action=/);

    await page.goto(link);
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('heading')).toHaveText(`Delete ${label}?`);
    await page.reload();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expect(page).toHaveURL(link);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page).not.toHaveURL(/action=/);
    await expect(page.getByRole('button', { name: `Delete user: ${label}` })).toBeVisible();
  });
});

test.describe('a read-only member of Acme', () => {
  test.use(asRole('viewer'));

  test('typing /organization/create shows the read-only message and no form', async ({ page }) => {
    await switchToAcme(page);
    await page.goto('/organization/create');
    await expect(page.getByRole('alert').filter({ hasText: 'Read-only access' })).toContainText('creating an organization is not available to you');
    await expect(page.getByRole('textbox')).toHaveCount(0);
    await expect(page.getByRole('form')).toHaveCount(0);
  });
});
