// Issue 17: the integration trial badge as spec 000 §4 writes it, on the project overview (and the sidebar's status
// dot named the same way): 'Trial period: N day(s) left', never a bare 'Trial'.
import { enterAcme } from './acme-session';
import { asRole, expect, test } from './fixtures';

test.describe('trial badges on the overview', () => {
  test.use(asRole('owner'));

  test("the overview's product card and the sidebar read the trial's days left", async ({ page }) => {
    const acme = await enterAcme(page);
    const projects = (await (await acme.api('GET', 'projects/')).json()) as Array<{ name: string; slug: string }>;
    // The project's overview is its root address.
    await page.goto(`/${projects.find((project) => project.name === 'Acme Production')!.slug}`);
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });

    const card = page.getByRole('main').getByRole('listitem').filter({ hasText: 'Observability' });
    await expect(card).toContainText(/Trial period: 1[34] days left/);
    await expect(page.getByRole('main').getByText('Trial', { exact: true })).toHaveCount(0);
    await expect(sidebar.getByRole('img', { name: /^Trial period: 1[34] days left$/ }).first()).toBeVisible();
    await expect(sidebar.getByRole('img', { name: 'Trial', exact: true })).toHaveCount(0);
  });
});
