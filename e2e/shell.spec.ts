// The shell around every page: landing, unknown routes, bad slugs, the remembered project, API failures, themes
// and the layout at phone, tablet and desktop widths.
import { asRole, expect, test } from './fixtures';

test.describe('newcomer', () => {
  test.use(asRole('newcomer'));

  test('a user without projects or organizations lands on /organization/create', async ({ page }) => {
    await page.goto('/');
    await page.waitForURL('**/organization/create');
    await expect(page.getByRole('heading', { name: 'Create an organization' })).toBeVisible();
  });
});

test.describe('owner', () => {
  test.use(asRole('owner'));

  test("an unknown route shows 'Nothing to see here!'", async ({ page }) => {
    await page.goto('/organization/no-such-page');
    await expect(page.getByText('Nothing to see here!')).toBeVisible();
    await page.getByRole('button', { name: 'Go to the home page' }).or(page.getByRole('link', { name: 'Go to the home page' })).click();
    await expect(page).toHaveURL((url) => url.pathname === '/' || !url.pathname.startsWith('/organization/no-such-page'));
  });

  test('a project slug not of the form name-id redirects to /', async ({ page }) => {
    await page.goto('/not-a-project-slug/settings');
    await expect(page).toHaveURL((url) => url.pathname === '/');
  });

  test('the remembered project is restored into the path', async ({ page }) => {
    await page.goto('/projects');
    await page.getByRole('link', { name: /Personal Sandbox/ }).first().click();
    await page.waitForURL(/^https?:\/\/[^/]+\/[a-z0-9-]+-\d+(\/|$)/);
    const slug = new URL(page.url()).pathname.split('/')[1];
    await page.goto('/');
    await expect(page).toHaveURL((url) => url.pathname.startsWith(`/${slug}`));
  });

  test('the API answering 500 shows the error view, not a blank page', async ({ page }, testInfo) => {
    await page.route('**/api/**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Internal error' }) }),
    );
    await page.goto('/projects');
    // The error view shows the API's message (spec section 8: message taken from message, error or details).
    await expect(page.getByRole('heading', { name: 'Internal error' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reload page' }).or(page.getByRole('link', { name: 'Reload page' })).first()).toBeVisible();
    expect((await page.locator('body').innerText()).trim().length).toBeGreaterThan(0);
    await page.screenshot({ path: testInfo.outputPath('error-view.png') });
  });

  test('the API being down shows the error view, not a blank page', async ({ page }, testInfo) => {
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await page.goto('/projects');
    await expect(page.getByRole('button', { name: 'Reload page' }).or(page.getByRole('link', { name: 'Reload page' })).first()).toBeVisible();
    expect((await page.locator('body').innerText()).trim().length).toBeGreaterThan(0);
    await page.screenshot({ path: testInfo.outputPath('error-view.png') });
  });

  test('the theme switches and persists across a reload', async ({ page }) => {
    const html = page.locator('html');
    const canvas = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.goto('/projects');
    await expect(page.getByText('Personal Sandbox').first()).toBeVisible();
    // Default dark (spec section 1).
    await expect(html).toHaveClass(/dark/);
    const dark = await canvas();

    await page.getByRole('button', { name: /^User menu for / }).click();
    await page.getByRole('menuitem', { name: /^Light/ }).click();
    await expect(html).toHaveClass(/light/);
    await expect(html).not.toHaveClass(/dark/);
    const light = await canvas();
    expect(light).not.toBe(dark);

    await page.reload();
    await expect(page.getByText('Personal Sandbox').first()).toBeVisible();
    await expect(html).toHaveClass(/light/);
    expect(await canvas()).toBe(light);
  });

  for (const width of [375, 768, 1280]) {
    test(`projects page at ${width} px wide`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/projects');
      await expect(page.getByText('Personal Sandbox').first()).toBeVisible();
      // No horizontal scrolling at any width.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: testInfo.outputPath(`projects-${width}.png`), fullPage: true });
      await page.screenshot({ path: `test-results/screenshots/projects-${width}.png`, fullPage: true });
    });
  }
});
