// Billing Settings and the ledger in the browser, on a fresh account that creates its own organization with the local
// provider's charge-declined card: tax ids for a one-type and a several-type country survive a reload; when the trial
// ends the invoice stays open, deleting the account shows 'You have pending payments', 'Pay now' settles it on the
// provider's page, and then the account is deleted and cannot sign in again.
import { ErrorText } from '../contract/errors';
import { devPage } from './demo-accounts';
import { expect, test } from './fixtures';
import { FRESH_PASSWORD, fillCardForm, freshVerifiedAccount, signInAgain } from './fresh-account';

test('tax ids, an open invoice, pay now, then delete the account', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const stamp = Date.now();
  const email = `billing-${stamp}@example.com`;
  const organizationName = `Ledger Org ${stamp}`;
  await freshVerifiedAccount(page, email, 'Bill');

  await page.goto('/organization/create');
  await page.getByRole('textbox', { name: /^Organization name/ }).fill(organizationName);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await fillCardForm(page, '4000 0000 0000 0341');
  await page.getByRole('button', { name: 'Add card and create organization' }).click();
  await page.waitForURL((url) => url.pathname === '/organization');

  await page.goto('/billing');
  await expect(page.getByRole('heading', { name: 'Billing Settings' })).toBeVisible();
  await expect(page.getByText('The credit card is configured correctly')).toBeVisible();
  await expect(page.getByText('No invoices yet.')).toBeVisible();

  // One type: Austria (EU VAT). The value is checked against the type's format first.
  await page.getByRole('button', { name: 'Add tax id' }).click();
  await expect(page).toHaveURL(/edit=tax-id/);
  let form = page.getByRole('form', { name: 'Add a tax id' });
  await form.getByRole('combobox', { name: 'Country' }).click();
  await form.getByRole('combobox', { name: 'Country' }).fill('Austri');
  await page.getByRole('option', { name: 'Austria', exact: true }).click();
  await expect(form.getByText('Type: European VAT number')).toBeVisible();
  await form.getByRole('textbox', { name: /^Tax id/ }).fill('12345');
  await form.getByRole('button', { name: 'Add tax id' }).click();
  await expect(form.getByText('This is not a valid European VAT number. Expected a value like ATU12345678.')).toBeVisible();
  await form.getByRole('textbox', { name: /^Tax id/ }).fill('ATU12345678');
  await form.getByRole('button', { name: 'Add tax id' }).click();
  await expect(page.getByText('The tax id has been added.')).toBeVisible();

  // Several types: Canada, GST/HST.
  await page.getByRole('button', { name: 'Add tax id' }).click();
  form = page.getByRole('form', { name: 'Add a tax id' });
  await form.getByRole('combobox', { name: 'Country' }).click();
  await form.getByRole('combobox', { name: 'Country' }).fill('Canad');
  await page.getByRole('option', { name: 'Canada' }).click();
  await form.getByRole('combobox', { name: 'Tax id type' }).click();
  await page.getByRole('option', { name: /Canadian GST\/HST number/ }).click();
  await form.getByRole('textbox', { name: /^Tax id/ }).fill('123456789RT0002');
  await form.getByRole('button', { name: 'Add tax id' }).click();
  await expect(page.getByText('The tax id has been added.').first()).toBeVisible();

  await page.reload();
  const taxIds = page.getByRole('list', { name: 'Tax ids' });
  await expect(taxIds.getByText('ATU12345678')).toBeVisible();
  await expect(taxIds.getByText('123456789RT0002')).toBeVisible();

  // The trial of this organization ends (the developer page moves only its time) and the job invoices it.
  const ended = await page.request.post(devPage('/dev/clock'), { form: { end_trial_of: organizationName } });
  expect(ended.status()).toBe(200);
  await page.reload();
  const invoice = page.getByRole('row', { name: /Invoice \d+/ });
  await expect(invoice.getByText('$249')).toBeVisible();
  await expect(invoice.getByText('Open')).toBeVisible();
  await expect(invoice.getByText('Your card was declined.')).toBeVisible();

  await page.goto('/account/delete');
  const dialog = page.getByRole('alertdialog');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByText(ErrorText.pendingPayments)).toBeVisible();
  await dialog.getByRole('link', { name: 'Pay now' }).click();
  await expect(page.getByRole('heading', { name: 'Pay your invoice' })).toBeVisible();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to billing' }).click();
  await expect(page.getByRole('row', { name: /Invoice \d+/ }).getByText('Paid')).toBeVisible();

  await page.goto('/account/delete');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete my account' }).click();
  // Signed out of the identity server too: the console's root sends a signed-out visitor to the login page.
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 20_000 });
  expect(await signInAgain(page, email, FRESH_PASSWORD)).toBe(false);
  await context.close();
});
