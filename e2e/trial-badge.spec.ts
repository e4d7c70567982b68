// Issue 17: the integration trial badge as spec 000 §4 writes it, on the project overview (and the sidebar's status
// dot named the same way): 'Trial period: N day(s) left', never a bare 'Trial'. The product is enabled in a project
// of its own: other tests move the business clock and add cards, which ends the demo data's trials.
import { enterAcme } from './acme-session';
import { asRole, expect, test } from './fixtures';

test.describe('trial badges on the overview', () => {
  test.use(asRole('owner'));

  test("the overview's product card and the sidebar read the trial's days left", async ({ page }) => {
    const acme = await enterAcme(page);
    const created = await acme.api('POST', 'projects/', { name: `Trial badge ${Date.now().toString(36)}` });
    expect(created.ok(), await created.text()).toBe(true);
    const project = (await created.json()) as { id: number; slug: string };
    try {
      const enabled = await acme.api('POST', `integrations/grafana?project_id=${project.id}`, {});
      expect(enabled.ok(), await enabled.text()).toBe(true);
      // The project's overview is its root address.
      await page.goto(`/${project.slug}`);
      const sidebar = page.getByRole('complementary', { name: 'Sidebar' });

      const card = page.getByRole('main').getByRole('listitem').filter({ hasText: 'Grafana' });
      await expect(card).toContainText('Trial period: 14 days left');
      await expect(page.getByRole('main').getByText('Trial', { exact: true })).toHaveCount(0);
      await expect(sidebar.getByRole('img', { name: 'Trial period: 14 days left', exact: true })).toBeVisible();
      await expect(sidebar.getByRole('img', { name: 'Trial', exact: true })).toHaveCount(0);
    } finally {
      await acme.api('DELETE', `projects?project_id=${project.id}`);
    }
  });
});
