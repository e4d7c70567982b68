// Issue 17: the integration trial badge as spec 000 §4 writes it, on the project overview (and the sidebar's status
// dot named the same way): 'Trial period: N day(s) left', never a bare 'Trial'.
import { asRole, expect, test } from './fixtures';

test.describe('trial badges on the overview', () => {
  test.use(asRole('owner'));

  test("the overview's product card and the sidebar read the trial's days left", async ({ page }) => {
    await page.goto('/projects');
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await sidebar.getByRole('link', { name: 'Acme' }).click();
    await expect(sidebar.getByRole('link', { name: /^Acme/ })).toHaveAttribute('aria-current', 'true');
    await sidebar.getByRole('link', { name: 'Projects', exact: true }).click();
    await page.getByRole('link', { name: /Acme Production/ }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Stack' })).toBeVisible();
    // The project's overview is its root address.
    await page.goto(new URL(page.url()).pathname.replace(/\/stack\/?$/, ''));

    const card = page.getByRole('main').getByRole('listitem').filter({ hasText: 'Observability' });
    await expect(card).toContainText(/Trial period: 1[34] days left/);
    await expect(page.getByRole('main').getByText('Trial', { exact: true })).toHaveCount(0);
    await expect(sidebar.getByRole('img', { name: /^Trial period: 1[34] days left$/ }).first()).toBeVisible();
    await expect(sidebar.getByRole('img', { name: 'Trial', exact: true })).toHaveCount(0);
  });
});
