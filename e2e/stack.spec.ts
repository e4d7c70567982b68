// The stack in the browser against the running platform: the stack page with its cards and badges, the catalogue
// and the enable flow's error for a product without a back end in this installation, the read-only view, the
// business clock ending a trial, and the system status page following a real back-end process (qryn's storage
// server) that stops and comes back.
import type { Page } from '@playwright/test';
import { devPage } from './demo-accounts';
import { asRole, expect, test } from './fixtures';
import { fillCardForm, freshVerifiedAccount } from './fresh-account';

async function openAcmeProject(page: Page, name: string) {
  await page.goto('/projects');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await sidebar.getByRole('link', { name: 'Acme' }).click();
  await expect(sidebar.getByRole('link', { name: /^Acme/ })).toHaveAttribute('aria-current', 'true');
  await sidebar.getByRole('link', { name: 'Projects', exact: true }).click();
  await page.getByRole('link', { name: new RegExp(name) }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Stack' })).toBeVisible();
}
const openAcmeProduction = (page: Page) => openAcmeProject(page, 'Acme Production');

test.describe('the stack as the owner', () => {
  test.use(asRole('owner'));
  test.describe.configure({ timeout: 60_000 });

  test('cards with status badges; the catalogue; ClickHouse is enabled directly and opens its pages', async ({ page }) => {
    await openAcmeProduction(page);
    await expect(page).toHaveTitle('Stack');
    await expect(page.getByText('The products that are enabled in the current project.')).toBeVisible();
    const cards = page.getByRole('list', { name: 'Enabled products' });
    await expect(cards.getByRole('listitem', { name: 'Observability' })).toContainText(/Trial period: 1[34] days left/);
    await expect(cards.getByRole('listitem', { name: 'Grafana' })).toContainText('Subscription active');

    // A path under the stack that names no enabled product goes back to the stack root.
    const stackUrl = page.url();
    await page.goto(`${stackUrl}/nothing-here`);
    await expect(page).toHaveURL(stackUrl);

    await page.getByRole('link', { name: 'Add a product' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Add a product' })).toBeVisible();
    const loggen = page.getByRole('listitem', { name: 'Loggen' });
    await expect(loggen).toContainText('Requires Observability (enabled).');
    await page.getByRole('button', { name: 'Add ClickHouse to this project' }).click();
    // ClickHouse is enabled directly and opens its pages: with no cluster yet, the create page.
    await expect(page).toHaveURL(/\/stack\/clickhouse\/create$/);
    await expect(page).toHaveTitle(/^ClickHouse /);
    await page.goBack();
    await page.goto(stackUrl);
    await expect(page.getByRole('list', { name: 'Enabled products' }).getByRole('listitem', { name: 'ClickHouse' })).toBeVisible();
  });

  test('moving the business clock: the paid trial becomes active, the scheduled cancellation happens', async ({ page, request, baseURL }) => {
    await openAcmeProject(page, 'Acme Staging');
    const stagingUrl = page.url();
    const loggen = page.getByRole('list', { name: 'Enabled products' }).getByRole('listitem', { name: 'Loggen' });
    await expect(loggen).toContainText('Scheduled for cancellation');
    await expect(loggen).toContainText(/This subscription will be cancelled on: \d{2} \w{3} \d{4}/);

    await openAcmeProduction(page);
    const observability = page.getByRole('list', { name: 'Enabled products' }).getByRole('listitem', { name: 'Observability' });
    await expect(observability).toContainText('Trial period');
    const moved = await request.post(`${baseURL}${devPage('/dev/clock')}`, { data: { advance_days: 15 } });
    expect(moved.ok()).toBe(true);
    await page.reload();
    // Acme's billing account has a card, so the trial became an active subscription.
    await expect(observability).toContainText('Subscription active');

    // Staging's Loggen was due for cancellation within those days: it is cancelled, its card is gone, and opening
    // it warns and leads back to the stack.
    await page.goto(stagingUrl);
    await expect(page.getByRole('heading', { level: 1, name: 'Stack' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Enabled products' }).getByRole('listitem', { name: 'Loggen' })).toHaveCount(0);
    await page.goto(`${stagingUrl}/loggen`);
    await expect(page.getByRole('status').filter({ hasText: "You're trying to access cancelled product" })).toBeVisible();
    await expect(page).toHaveURL(stagingUrl);
  });
});

test.describe('a trial that ends without a card', () => {
  test.describe.configure({ timeout: 120_000 });

  test('suspends the product; opening it warns and leads back; adding a card resumes it', async ({ page, request, baseURL }) => {
    await freshVerifiedAccount(page, `suspended-${Date.now()}@example.com`, 'Susan', { project: true });
    await page.goto('/projects');
    await page.getByRole('link', { name: /My first project/ }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Stack' })).toBeVisible();
    const stackUrl = page.url();
    await page.goto(`${stackUrl}/add`);
    await page.getByRole('button', { name: 'Add ClickHouse to this project' }).click();
    await expect(page).toHaveURL(/\/stack\/clickhouse\/create$/);
    await page.goto(stackUrl);
    const clickhouse = page.getByRole('list', { name: 'Enabled products' }).getByRole('listitem', { name: 'ClickHouse' });
    await expect(clickhouse).toContainText(/Trial period: 14 days left/);

    // The trial ends; this account has no card, so the lifecycle suspends the product.
    expect((await request.post(`${baseURL}${devPage('/dev/clock')}`, { data: { advance_days: 15 } })).ok()).toBe(true);
    await page.reload();
    await expect(clickhouse).toContainText('Subscription suspended');
    await page.goto(`${stackUrl}/clickhouse`);
    const warning = page.getByRole('status').filter({ hasText: "You're trying to access suspended product" });
    await expect(warning).toBeVisible();
    await expect(warning).toContainText('Please review your payment method in Billing to reactivate it.');
    await expect(page).toHaveURL(stackUrl);

    // A card on file: the lifecycle's next pass (every few seconds, no clock move) makes it active again.
    await page.goto('/billing');
    await page.getByRole('button', { name: 'Configure card' }).click();
    // A personal account without a billing account gets one first.
    const proceed = page.getByRole('dialog', { name: 'Configure a card' }).getByRole('button', { name: 'Continue' });
    await expect(proceed.or(page.getByRole('form', { name: 'Card' }))).toBeVisible();
    if (await proceed.isVisible()) await proceed.click();
    await fillCardForm(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect(page.getByText('Payment method updated').first()).toBeVisible({ timeout: 20_000 });
    await page.goto(stackUrl);
    await expect(async () => {
      await page.reload();
      await expect(clickhouse).toContainText('Subscription active', { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await page.goto(`${stackUrl}/clickhouse`);
    await expect(page).toHaveURL(/\/stack\/clickhouse\/create$/);

    // Cancel subscription from the product's settings: a confirm modal, then the stack page with the cancellation date.
    await page.getByRole('navigation', { name: 'Clusters' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel the ClickHouse subscription?' });
    await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(page).toHaveURL(stackUrl);
    await expect(clickhouse).toContainText('Scheduled for cancellation');
    await expect(clickhouse).toContainText(/This subscription will be cancelled on: \d{2} \w{3} \d{4}/);
  });
});

test.describe('the stack as a read-only member', () => {
  test.use(asRole('viewer'));

  test('sees the cards but cannot add products', async ({ page }) => {
    await openAcmeProduction(page);
    await expect(page.getByRole('list', { name: 'Enabled products' }).getByRole('listitem', { name: 'Observability' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Add a product' })).toHaveCount(0);
  });
});

test.describe('system status', () => {
  test.use(asRole('owner'));
  test.describe.configure({ timeout: 90_000 });

  test('follows a real back-end process that stops and comes back', async ({ page, request, baseURL }) => {
    await page.goto('/system-status');
    await expect(page).toHaveTitle('System status');
    // Every product has a back end in this build, each reporting its own services: all of them answer.
    await expect(page.getByText('All services are operational')).toBeVisible();
    const platform = page.getByRole('listitem', { name: 'Platform' });
    await expect(platform.getByRole('listitem').filter({ hasText: 'Database' })).toContainText('Operational');
    await expect(platform).toHaveAttribute('data-status', 'SUCCESS');
    // qryn's storage is a real clickhouse-server process; /dev/storage stops it (SIGSTOP) and lets it continue.
    const qryn = page.getByRole('listitem', { name: 'qryn' });
    const storage = qryn.getByRole('listitem').filter({ hasText: 'Storage' });
    await expect(storage).toContainText('Operational');
    await expect(qryn).toHaveAttribute('data-status', 'SUCCESS');
    try {
      expect((await request.post(`${baseURL}${devPage('/dev/storage')}`, { data: { running: false } })).ok()).toBe(true);
      // No reload: the page refreshes on its own.
      await expect(storage).toContainText('Temporarily Down, try again later', { timeout: 20_000 });
      await expect(qryn).toHaveAttribute('data-status', 'WARNING');
      // Hepic and Loggen write to that storage: they are down with it.
      await expect(page.getByRole('listitem', { name: 'Hepic' })).toHaveAttribute('data-status', 'WARNING');
      await expect(page.getByRole('listitem', { name: 'Loggen' })).toHaveAttribute('data-status', 'WARNING');
      await expect(page.getByText('Some services are not operational')).toBeVisible();
    } finally {
      await request.post(`${baseURL}${devPage('/dev/storage')}`, { data: { running: true } });
    }
    await expect(storage).toContainText('Operational', { timeout: 20_000 });
    await expect(qryn).toHaveAttribute('data-status', 'SUCCESS');
    await expect(page.getByRole('listitem', { name: 'Hepic' })).toHaveAttribute('data-status', 'SUCCESS');
    await expect(page.getByText('All services are operational')).toBeVisible();
  });
});
