// Issue 17's form defects, each checked in the browser through the real login page: a server field error under the
// invite form's Email goes away once the email is changed; the card form marks Country as required and outlines it
// with its message, marks an unticked terms box with its own message, and links the payment provider's terms from
// settings (the defaults here). Billing's card dialog is opened by its address (edit=payment-method, read on load).
import { asRole, expect, test } from './fixtures';

test.describe('the forms as the owner', () => {
  test.use(asRole('owner'));
  test.describe.configure({ timeout: 90_000 });

  test("a server field error on the invite form's Email is cleared when the email changes", async ({ page }) => {
    await page.goto('/projects');
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await sidebar.getByRole('link', { name: 'Acme' }).click();
    await expect(sidebar.getByRole('link', { name: /^Acme/ })).toHaveAttribute('aria-current', 'true');
    await page.goto('/organization');
    const invite = page.getByRole('form', { name: 'Invite new member' });
    const email = invite.getByLabel(/^Email/);
    await email.fill('dev@example.com');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    const message = invite.getByText('This person is already a member of the organization.', { exact: true });
    await expect(message).toBeVisible();
    await email.fill('dev2@example.com');
    await expect(message).toHaveCount(0);
    await expect(email).toHaveValue('dev2@example.com');
  });

  test('the card form: Country required and outlined, the terms box marked with its own message, legal links', async ({ page }) => {
    await page.goto('/billing?edit=payment-method');
    const form = page.getByRole('form', { name: 'Card' });
    await expect(form).toBeVisible();
    const country = form.getByRole('combobox', { name: /^Country/ });
    // The required mark, as Address, City, Postal code and Phone have it (the asterisk, and aria-required).
    await expect(form.locator('label', { hasText: /^Country\s*\*$/ })).toBeVisible();
    await expect(country).toHaveAttribute('aria-required', 'true');
    await form.getByRole('button', { name: 'Save card' }).click();
    await expect(form.getByText('Please fill all the fields')).toBeVisible();
    await expect(form.getByText('The country is required.', { exact: true })).toBeVisible();
    await expect(country).toHaveAttribute('aria-invalid', 'true');
    const terms = form.getByText("Please accept the payment provider's Privacy Policy and Terms of Service.", { exact: true });
    await expect(terms).toBeVisible();
    await form.locator('[data-scope="checkbox"][data-part="control"]').click();
    await expect(form.getByRole('checkbox')).toBeChecked();
    await expect(terms).toHaveCount(0);
    await expect(form.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', 'https://stripe.com/privacy');
    await expect(form.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', 'https://stripe.com/legal/consumer');
    // Closing the dialog clears its address.
    await page.keyboard.press('Escape');
    await expect(page).not.toHaveURL(/edit=payment-method/);
  });
});
