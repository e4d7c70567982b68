// Accessibility gate: axe-core (through @axe-core/playwright) on every route of the console, as every demo role, in
// both themes. A serious or critical violation fails the test and is named with the route, the rule and the
// elements. Routes under a project use the role's first project; roles without one skip those.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { demoRoles, type DemoRole } from './demo-accounts';
import { asRole, expect, test } from './fixtures';

const ROOT_ROUTES = [
  '/',
  '/projects',
  '/resources/create-project',
  '/account',
  '/account/delete',
  '/billing',
  '/organization',
  '/organization/create',
  '/system-status',
  '/statecharts',
  '/statecharts/create-organization',
  '/verify',
  '/invitations?code=unknown',
  '/no-such-page',
];
const PROJECT_ROUTES = ['', '/stack', '/stack/add', '/settings', '/stack/clickhouse', '/stack/loggen', '/account'];
const THEMES = ['dark', 'light'] as const;

// Scanning ~20 routes per role and theme takes a while on a loaded 2-core machine.
test.describe.configure({ timeout: 300_000 });

async function firstProjectSlug(page: Page): Promise<string | null> {
  await page.goto('/projects');
  await page.locator('h1').first().waitFor({ timeout: 30_000 });
  await page.locator('main a[href$="/stack"]').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
  const hrefs = await page.locator('main a[href$="/stack"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  const slug = hrefs.map((href) => /^\/([a-z0-9-]+-\d+)\/stack$/.exec(href ?? '')?.[1]).find(Boolean);
  return slug ?? null;
}

async function scan(page: Page, route: string): Promise<string[]> {
  await page.goto(route);
  // The console polls (status, tokens): wait for the page's heading rather than for a quiet network.
  await page.locator('main :is(h1, h2)').first().waitFor({ timeout: 30_000 });
  // Skeletons and spinners are replaced by the page's content (or its error) before the scan.
  await expect(page.locator('[aria-busy="true"], [aria-label^="Loading"]')).toHaveCount(0, { timeout: 20_000 }).catch(() => undefined);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${route}: ${violation.id} (${violation.impact}) ${violation.help}\n    ${violation.nodes
          .slice(0, 5)
          .map((node) => `${node.target.join(' ')} ${node.failureSummary?.split('\n').slice(1, 2).join(' ') ?? ''}`)
          .join('\n    ')}`,
    );
}

for (const role of demoRoles) {
  test.describe(`as ${role}`, () => {
    test.use(asRole(role as DemoRole));
    for (const theme of THEMES) {
      test(`every route in the ${theme} theme has no serious or critical axe violation`, async ({ page }) => {
        await page.addInitScript((value) => window.localStorage.setItem('theme', value), theme);
        const found: string[] = [];
        const slug = await firstProjectSlug(page);
        const routes = [...ROOT_ROUTES, ...(slug ? PROJECT_ROUTES.map((path) => `/${slug}${path}`) : [])];
        for (const route of routes) found.push(...(await scan(page, route)));
        await expect(page.locator('html')).toHaveClass(new RegExp(theme));
        expect(found, found.join('\n')).toEqual([]);
      });
    }
  });
}
