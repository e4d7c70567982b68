// The sidebar without a project in the browser against the running platform: project-scoped links stay focusable
// and answer a click or Enter with 'No project has been selected.' instead of navigating; the `project` query
// parameter selects a project, moves it into the path and disappears.
import type { Page, Response } from '@playwright/test';
import { asRole, expect, test } from './fixtures';

const NO_PROJECT = 'No project has been selected.';

/** Access tokens the console receives from the identity server, newest last. */
function recordAccessTokens(page: Page): string[] {
  const tokens: string[] = [];
  page.on('response', async (response: Response) => {
    if (!response.url().includes('/protocol/openid-connect/token') || !response.ok()) return;
    const body = (await response.json().catch(() => null)) as { access_token?: string } | null;
    if (body?.access_token) tokens.push(body.access_token);
  });
  return tokens;
}

test.describe('the sidebar without a project', () => {
  test.use(asRole('owner'));

  test('the project links are focusable and explain instead of navigating', async ({ page }) => {
    // Without a project, the project-scoped links are the integrations the user has in other projects and Settings;
    // the demo owner has integrations in Acme, while the personal sandbox has none. So the owner switches to Acme,
    // where no project is selected after the switch.
    const tokens = recordAccessTokens(page);
    await page.goto('/projects');
    await expect.poll(() => tokens.length).toBeGreaterThan(0);
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await sidebar.getByRole('link', { name: 'Acme' }).click();
    await expect(sidebar.getByRole('link', { name: /^Acme/ })).toHaveAttribute('aria-current', 'true');
    await sidebar.getByRole('link', { name: 'Projects', exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/projects');
    await expect(page.getByRole('button', { name: 'Project: Select a project. Change project' })).toBeVisible();
    await expect(sidebar.getByText('Select a project to open its integrations.')).toBeVisible();

    const disabled = sidebar.locator('[aria-disabled="true"]');
    // The seeded Acme projects have qryn (listed as Observability), grafana and loggen enabled, and Settings is always there; other browser
    // tests may have enabled more products in Acme's projects (Hepic), which are listed the same way.
    for (const name of [/observability/i, /grafana/i, /loggen/i, /settings/i]) await expect(disabled.filter({ hasText: name })).toHaveCount(1);
    for (const link of await disabled.all()) {
      await expect(link).toHaveAttribute('role', 'link');
      await expect(link).not.toHaveAttribute('href');
    }
    const count = await disabled.count();
    const urlBefore = page.url();
    const historyBefore = await page.evaluate(() => history.length);
    const toast = page.getByRole('alert').filter({ hasText: NO_PROJECT });

    for (let index = 0; index < count; index += 1) {
      const link = disabled.nth(index);
      const label = (await link.innerText()).trim();
      await test.step(`'${label}' by keyboard and by mouse`, async () => {
        // In the tab order: reached with Tab from the entry before it, then Enter.
        if (index === 0) await sidebar.getByRole('link', { name: 'Projects', exact: true }).focus();
        else await disabled.nth(index - 1).focus();
        await page.keyboard.press('Tab');
        await expect(link).toBeFocused();
        await page.keyboard.press('Enter');
        await expect(toast).toHaveCount(1);
        await expect(toast).toBeVisible();
        await expect(page).toHaveURL(urlBefore);
        await toast.getByRole('button', { name: 'Dismiss notification' }).click();
        await expect(toast).toHaveCount(0);

        // Playwright will not click an aria-disabled element by default; a person's mouse can.
        await link.click({ force: true });
        await expect(toast).toHaveCount(1);
        await expect(page).toHaveURL(urlBefore);
        await toast.getByRole('button', { name: 'Dismiss notification' }).click();
        await expect(toast).toHaveCount(0);
      });
    }
    // Nothing was pushed onto the history either, and the projects page is still there.
    expect(await page.evaluate(() => history.length)).toBe(historyBefore);
    await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
  });
});

test.describe('the project query parameter', () => {
  test.use(asRole('owner'));

  test('?project=<slug> selects that project: the path moves into it and the parameter is gone', async ({ page }) => {
    const tokens = recordAccessTokens(page);
    await page.goto('/projects');
    await expect.poll(() => tokens.length).toBeGreaterThan(0);
    const answer = await page.request.get('/api/projects/', { headers: { Authorization: `Bearer ${tokens.at(-1)}` } });
    expect(answer.ok()).toBe(true);
    const projects = (await answer.json()) as Array<{ name: string; slug: string }>;
    const sandbox = projects.find((project) => project.name === 'Personal Sandbox');
    expect(sandbox, 'the demo owner has a personal project').toBeDefined();
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await expect(sidebar.getByText(/^Select a project to/)).toBeVisible();

    await page.goto(`/?project=${encodeURIComponent(sandbox!.slug)}`);
    await expect(page).toHaveURL((url) => url.pathname === `/${sandbox!.slug}` && url.search === '');
    await expect(page.getByRole('button', { name: `Project: ${sandbox!.name}. Change project` })).toBeVisible();
    // The sidebar is now about that project: its integrations, not the prompt to select one.
    // (The sandbox has no integrations unless the ClickHouse browser test added it there first.)
    await expect(sidebar.getByText('No integrations enabled in this project yet.').or(sidebar.getByRole('link', { name: /ClickHouse/ }))).toBeVisible();
    await expect(sidebar.getByText(/^Select a project to/)).toHaveCount(0);
    // The choice is remembered: the overview without the parameter opens that project again.
    await page.goto('/');
    await expect(page).toHaveURL((url) => url.pathname === `/${sandbox!.slug}`);
  });
});
