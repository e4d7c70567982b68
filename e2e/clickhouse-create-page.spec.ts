// The ClickHouse create page as a person sees it, in a fresh Acme project (a card on file, so every field is open):
// its sections by their headings, the cost summary's lines following the shape, focus on the first invalid field
// after a refused submit, the subscription under Settings rather than beside the form, no horizontal overflow on a
// phone, and no serious axe violation in either theme. UPDATE_SCREENSHOTS=1 writes the page at 1440 and 390 px wide
// to docs/images/ (docs/clickhouse.md shows them).
import type { Locator, Page } from '@playwright/test';
import { enterAcme, freshAcmeProject } from './acme-session';
import { axeFindings, setTheme } from './axe-themes';
import { asRole, expect, test } from './fixtures';

const field = (scope: Locator, label: string) => scope.getByLabel(new RegExp(`^${label}\\s*\\*?$`));

async function openCreatePage(page: Page): Promise<{ slug: string }> {
  const session = await enterAcme(page);
  const project = await freshAcmeProject(session, 'Create page');
  const enabled = await session.api('POST', `integrations/clickhouse/?project_id=${project.id}`, {});
  expect(enabled.status(), await enabled.text()).toBe(201);
  await page.goto(`/${project.slug}/stack/clickhouse/create`);
  await expect(page.getByRole('form', { name: 'Managed cluster' })).toBeVisible({ timeout: 20_000 });
  return project;
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test.describe('the ClickHouse create page', () => {
  test.use(asRole('owner'));
  test.describe.configure({ timeout: 120_000 });

  test('sections, a cost breakdown that follows the shape, focus on the first invalid field, Settings for the subscription', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const project = await openCreatePage(page);
    const form = page.getByRole('form', { name: 'Managed cluster' });
    for (const section of ['Name and location', 'Compute', 'Storage', 'Access']) {
      await expect(form.getByRole('region', { name: section })).toBeVisible();
      await expect(form.getByRole('heading', { name: section })).toBeVisible();
    }
    await expect(form.getByRole('region', { name: 'Compute' }).getByLabel(/^Shards/)).toBeVisible();
    await expect(form.getByRole('region', { name: 'Storage' }).getByLabel(/^Disk 1 size/)).toBeVisible();
    await expect(form.getByRole('region', { name: 'Access' }).getByLabel(/^IP safe list/)).toBeVisible();

    // The summary: one line for the nodes (shards × replicas of the machine), one per disk, the total per month.
    const summary = page.getByRole('complementary', { name: 'Estimated cost' });
    const lines = summary.getByRole('list', { name: 'Cost breakdown' }).getByRole('listitem');
    const total = async () => Number(((await summary.getByTestId('monthly-total').textContent()) ?? '').replace(/[$,]/g, ''));
    await field(form, 'Shards').fill('1');
    await field(form, 'Replicas').fill('2');
    await expect(lines.first()).toContainText('2 × m5.large');
    await expect(lines.nth(1)).toContainText('150 GB');
    const twoNodes = await total();
    expect(twoNodes).toBeGreaterThan(0);
    await field(form, 'Shards').fill('2');
    await expect(lines.first()).toContainText('4 × m5.large');
    await expect(lines.first()).toContainText('2 shards × 2 replicas');
    await expect.poll(total).toBeGreaterThan(twoNodes);
    await page.getByRole('button', { name: 'Add disk' }).click();
    await expect(lines).toHaveCount(3);
    await expect(summary).toContainText('VAT included');

    // A refused submit puts focus on the first field that needs attention, in the page's order.
    await field(form, 'Name').fill('');
    await page.getByRole('button', { name: 'Create cluster' }).click();
    await expect(field(form, 'Name')).toBeFocused();
    await field(form, 'Name').fill('good-name');
    await page.getByRole('button', { name: 'Create cluster' }).click();
    await expect(field(form, 'Region')).toBeFocused();
    await expect(form.getByText('The region is required.', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/create$/);

    // The External tab does the same.
    await page.getByRole('tab', { name: 'External' }).click();
    const external = page.getByRole('form', { name: 'External cluster' });
    await external.getByRole('button', { name: 'Connect cluster' }).click();
    await expect(field(external, 'Name')).toBeFocused();

    // The subscription is not cancelled from a create form: it lives under the area's Settings.
    await expect(page.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Clusters' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(new RegExp(`/${project.slug}/stack/clickhouse/settings$`));
    await expect(page).toHaveTitle('ClickHouse Settings');
    await expect(page.getByRole('region', { name: 'Subscription' }).getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
    expect(await axeFindings(page)).toEqual([]);
  });

  test('fits a phone and a desktop without horizontal scrolling and has no serious axe violation in either theme', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openCreatePage(page);
    await page.getByLabel(/^Region/).selectOption('eu-central-1');
    await expect.poll(() => overflow(page)).toBeLessThanOrEqual(0);
    // The summary sits beside the form at desktop widths.
    const formBox = (await page.getByRole('region', { name: 'Compute' }).boundingBox())!;
    const summaryBox = (await page.getByRole('complementary', { name: 'Estimated cost' }).boundingBox())!;
    expect(summaryBox.x).toBeGreaterThan(formBox.x + formBox.width - 1);
    if (process.env.UPDATE_SCREENSHOTS) {
      await setTheme(page, 'light');
      await page.screenshot({ path: 'docs/images/clickhouse-create-1440.png', fullPage: true });
    }
    expect(await axeFindings(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => overflow(page)).toBeLessThanOrEqual(0);
    // On a phone the summary comes after the sections, at the same width.
    const narrowForm = (await page.getByRole('region', { name: 'Access' }).boundingBox())!;
    const narrowSummary = (await page.getByRole('complementary', { name: 'Estimated cost' }).boundingBox())!;
    expect(narrowSummary.y).toBeGreaterThan(narrowForm.y + narrowForm.height - 1);
    expect(narrowSummary.x + narrowSummary.width).toBeLessThanOrEqual(390);
    if (process.env.UPDATE_SCREENSHOTS) {
      await setTheme(page, 'light');
      await page.screenshot({ path: 'docs/images/clickhouse-create-390.png', fullPage: true });
    }
  });
});
