// A teammate opens the owner's copied explorer address in a browser of their own: signed out, with nothing in its
// storage (so in their personal account after signing in). The address of an organization's project opens that
// project in its organization: the console asks the API which account holds it and switches, keeping the address;
// the explorer reads with the teammate's sign-in and runs the shared query.
import { enterAcme } from './acme-session';
import { submitLoginPage } from './login-page';
import { asRole, expect, test } from './fixtures';

test.describe('a shared explorer address', () => {
  test.use(asRole('owner'));

  test("opens the organization's project for a teammate in a fresh browser", async ({ page, browser, baseURL }) => {
    test.setTimeout(180_000);
    const owner = await enterAcme(page);
    const projects = (await (await owner.api('GET', 'projects/')).json()) as { id: number; name: string; slug: string }[];
    const production = projects.find((p) => p.name === 'Acme Production')!;
    await page.goto(`/${production.slug}/stack/qryn/view?language=metrics&query=${encodeURIComponent('vector(3)')}`);
    await expect(page.getByRole('figure', { name: 'Chart of 1 series' })).toBeVisible();
    const copied = page.url();

    // Nothing of the owner's: no identity-server session, no storage (the test's own storage state is not inherited).
    const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    try {
      const teammate = await context.newPage();
      await teammate.goto(copied);
      await teammate.waitForURL((url) => url.pathname.includes('/realms/'));
      await submitLoginPage(teammate, 'dev@example.com');
      await expect(teammate.getByText('read with your sign-in')).toBeVisible({ timeout: 30_000 });
      await expect(teammate.getByRole('textbox', { name: 'Query (PromQL)' })).toHaveText('vector(3)');
      await expect(teammate.getByRole('figure', { name: 'Chart of 1 series' })).toBeVisible();
      expect(teammate.url()).toBe(copied);
      await expect(teammate.getByText('We could not find this project')).toHaveCount(0);
      // The console is now in Acme: the sidebar's organization.
      expect(await teammate.evaluate(() => localStorage.getItem('orgId'))).not.toBe('');

      // Another route of the same project, opened from the personal account in this tab, follows too.
      await teammate.evaluate(() => localStorage.setItem('orgId', ''));
      await teammate.goto(`/${production.slug}/stack`);
      await expect(teammate.getByRole('heading', { level: 1, name: 'Stack' })).toBeVisible({ timeout: 30_000 });
      await expect(teammate.getByText('We could not find this project')).toHaveCount(0);
      expect(new URL(teammate.url()).pathname).toBe(`/${production.slug}/stack`);
    } finally {
      await context.close();
    }
  });
});
