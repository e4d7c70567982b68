// Accessibility gate: axe-core (through @axe-core/playwright) on every route of the console, as every demo role, in
// both themes. A serious or critical violation fails the test and is named with the route, the theme, the rule and
// the elements. Routes under a project use the role's first project; roles without one skip those.
// Each route is loaded once: every rule runs in the theme the page loaded in, then the page switches to the other
// theme in place (what the console's own theme switch does: the class and color-scheme of <html>) and the rules
// that read colours run again. The two themes share one DOM, so the structural rules would only repeat themselves.
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
type Theme = (typeof THEMES)[number];
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
// The rules of TAGS whose outcome depends on colours (contrast of text, links told apart from text only by colour).
type Violations = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'];
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

// Scanning ~20 routes per role in two themes takes a while on a loaded 2-core machine.
test.describe.configure({ timeout: 600_000 });

async function firstProjectSlug(page: Page): Promise<string | null> {
  await page.goto('/projects');
  await page.locator('h1').first().waitFor({ timeout: 30_000 });
  await page.locator('main a[href$="/stack"]').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
  const hrefs = await page.locator('main a[href$="/stack"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  const slug = hrefs.map((href) => /^\/([a-z0-9-]+-\d+)\/stack$/.exec(href ?? '')?.[1]).find(Boolean);
  return slug ?? null;
}

function serious(route: string, theme: Theme, violations: Violations): string[] {
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${route} (${theme}): ${violation.id} (${violation.impact}) ${violation.help}\n    ${violation.nodes
          .slice(0, 5)
          .map((node) => `${node.target.join(' ')} ${node.failureSummary?.split('\n').slice(1, 2).join(' ') ?? ''}`)
          .join('\n    ')}`,
    );
}

async function switchTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate((value) => {
    const root = document.documentElement;
    root.classList.toggle('dark', value === 'dark');
    root.classList.toggle('light', value === 'light');
    root.style.colorScheme = value;
    window.localStorage.setItem('theme', value);
  }, theme);
  // Colours may be transitioned: read them once every running animation has finished.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`));
}

async function scan(page: Page, route: string): Promise<string[]> {
  const [first, second] = THEMES;
  await switchTheme(page, first);
  await page.goto(route);
  // The console polls (status, tokens): wait for the page's heading rather than for a quiet network.
  await page.locator('main :is(h1, h2)').first().waitFor({ timeout: 30_000 });
  // Skeletons and spinners are replaced by the page's content (or its error) before the scan.
  await expect(page.locator('[aria-busy="true"], [aria-label^="Loading"]')).toHaveCount(0, { timeout: 20_000 }).catch(() => undefined);
  await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${first}\\b`));
  const all = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  await switchTheme(page, second);
  const colours = await new AxeBuilder({ page }).withRules(COLOUR_RULES).analyze();
  return [...serious(route, first, all.violations), ...serious(route, second, colours.violations)];
}

for (const role of demoRoles) {
  test.describe(`as ${role}`, () => {
    test.use(asRole(role as DemoRole));
    test(`every route in the ${THEMES.join(' and the ')} theme has no serious or critical axe violation`, async ({ page }) => {
      await page.addInitScript((value) => window.localStorage.setItem('theme', value), THEMES[0]);
      const found: string[] = [];
      const slug = await firstProjectSlug(page);
      const routes = [...ROOT_ROUTES, ...(slug ? PROJECT_ROUTES.map((path) => `/${slug}${path}`) : [])];
      for (const route of routes) found.push(...(await scan(page, route)));
      expect(found, found.join('\n')).toEqual([]);
    });
  });
}
