// Figures measured in Debian's chromium against a running platform (fresh demo data, signed in as the demo owner):
//
//   `npm run bench:bundle` (after the manifest figures) — per main route, every script the browser loads to paint it
//   after sign-in, from a cold HTTP cache: counted from the network (each response body gzipped here, whatever the
//   server sent), so shared chunks, lazy route chunks and the shell all count. Budget: the landing route ≤ 150 kB.
//
//   `npm run bench:routes` — p50/p95 of a client-side route change with every chunk already cached (a sidebar or
//   link click to the new page's heading), and each route chunk's own JavaScript from Vite's manifest (budget 60 kB).
//
// Benchmarks print numbers; they are not timed tests. A figure over budget sets a non-zero exit code.
//
// BENCH_SMOKE=1 (scripts/test.sh runs it after the build; scripts/bench-budget.ts): `routes` makes one counted change
// to each route, `loads` (and bench:bundle) loads the landing route only; budgets are printed but not held.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../playwright.config';
import { signInThroughConsole } from '../e2e/login-page';
import { startTestPlatform } from '../tests/support/start-platform';
import { benchSmoke, budgetExitCode, requireBuild, requireFigures } from './bench-budget';

export const LANDING_BUDGET_KB = 150;
export const ROUTE_CHANGE_BUDGET_MS = 50;
export const ROUTE_CHUNK_BUDGET_KB = 60;

export interface Route {
  name: string;
  path: (slug: string) => string;
  /** The page's level-1 heading once the route has painted. */
  heading: RegExp;
}

/** Waits (in Playwright) for the route's heading. */
export async function routeReady(page: Page, route: Route): Promise<void> {
  await page.getByRole('heading', { name: route.heading, level: 1 }).first().waitFor({ state: 'visible', timeout: 30_000 });
}

export const ROUTES: Route[] = [
  { name: 'landing (overview)', path: () => '/', heading: /^Hello/ },
  { name: 'projects', path: () => '/projects', heading: /^Projects$/ },
  { name: 'project stack', path: (slug) => `/${slug}/stack`, heading: /Stack|Integrations|Products/ },
  { name: 'account', path: () => '/account', heading: /Account/ },
  { name: 'billing', path: () => '/billing', heading: /Billing/ },
  // The demo owner signs in to the personal account, where /organization leads to the project overview: ready once
  // that has painted (a heading seen before the redirect would let the redirect land during the next route change).
  { name: 'organization', path: () => '/organization', heading: /^Hello/ },
  { name: 'system status', path: () => '/system-status', heading: /^System status$/ },
];

/** The slug of the first project the signed-in person sees (for the project routes). */
export async function firstProjectSlug(page: Page, baseUrl: string): Promise<string> {
  await page.goto(`${baseUrl}/projects`);
  const link = page.locator('main a[href$="/stack"]').first();
  await link.waitFor({ timeout: 30_000 });
  return (await link.getAttribute('href'))!.split('/')[1]!;
}

async function signedInStorage(browser: Browser, baseUrl: string): Promise<{ state: Awaited<ReturnType<import('@playwright/test').BrowserContext['storageState']>>; slug: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInThroughConsole(page, baseUrl, 'demo@example.com');
  const slug = await firstProjectSlug(page, baseUrl);
  const state = await context.storageState();
  await context.close();
  return { state, slug };
}

/** The routes a load measurement covers: every main route, or in smoke form the landing (the one with a budget). */
export function routesToLoad(smoke = benchSmoke()): Route[] {
  return smoke ? [ROUTES[0]!] : ROUTES;
}

export async function measureRouteLoads(routes: Route[] = routesToLoad()): Promise<number> {
  requireBuild();
  const platform = await startTestPlatform({ seed: true });
  const browser = await chromium.launch(chromiumLaunchOptions);
  let exitCode = 0;
  try {
    const { state, slug } = await signedInStorage(browser, platform.url);
    console.log('\nScripts the browser loads to paint each route after sign-in (chromium, cold cache), gzipped:');
    for (const route of routes) {
      // A new context per route: an empty HTTP cache, the identity server's session cookie from the sign-in.
      const context = await browser.newContext({ storageState: state });
      const page = await context.newPage();
      const scripts = new Map<string, number>();
      page.on('response', async (response) => {
        if (response.request().resourceType() !== 'script') return;
        try {
          scripts.set(new URL(response.url()).pathname, gzipSync(await response.body()).length);
        } catch {
          // A response without a body (a redirect) carries no script.
        }
      });
      await page.goto(`${platform.url}${route.path(slug)}`);
      await routeReady(page, route);
      // Chunks a painted page still fetches (prefetches, late imports) count too: give them a moment.
      await page.waitForTimeout(1_000);
      // A painted route with no script seen means the listener, not the console, is broken.
      requireFigures([...scripts.values()], `no script response seen while loading ${route.name}`);
      const kb = [...scripts.values()].reduce((sum, bytes) => sum + bytes, 0) / 1024;
      const budget = route.path(slug) === '/' ? ` (budget ${LANDING_BUDGET_KB} kB${kb > LANDING_BUDGET_KB ? ', OVER' : ''})` : '';
      if (route.path(slug) === '/' && kb > LANDING_BUDGET_KB) exitCode = 1;
      console.log(`  ${route.name.padEnd(22)} ${String(scripts.size).padStart(3)} scripts ${kb.toFixed(1).padStart(7)} kB${budget}`);
      if (process.env.BENCH_VERBOSE) {
        for (const [file, bytes] of [...scripts.entries()].sort((a, b) => b[1] - a[1])) console.log(`      ${(bytes / 1024).toFixed(1).padStart(6)} kB ${file}`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await platform.stop();
  }
  return exitCode;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function measureRouteChanges(rounds = Number(process.env.BENCH_ROUNDS ?? (benchSmoke() ? 1 : 10))): Promise<number> {
  requireBuild();
  const platform = await startTestPlatform({ seed: true });
  const browser = await chromium.launch(chromiumLaunchOptions);
  let exitCode = 0;
  try {
    const { state, slug } = await signedInStorage(browser, platform.url);
    const context = await browser.newContext({ storageState: state });
    const page = await context.newPage();
    await page.goto(`${platform.url}/`);
    await routeReady(page, ROUTES[0]!);
    const timings: number[] = [];
    const byRoute = new Map<string, number[]>(ROUTES.map((route) => [route.name, []]));
    // Client-side changes through the router (the same call a link makes); the first round loads every chunk and is
    // not counted.
    for (let round = 0; round <= rounds; round += 1) {
      for (const route of ROUTES) {
        // Timed inside the page, from the router call to the first animation frame after the new heading is in the
        // document and visible: a poll from Playwright would add its own polling intervals (20, 50, 100 ms ...).
        // (A string, not a function: the TypeScript loader names inner functions with a helper the page lacks.)
        const elapsed = (await page.evaluate(`(async () => {
          const wanted = new RegExp(${JSON.stringify(route.heading.source)}, ${JSON.stringify(route.heading.flags)});
          const started = performance.now();
          window.history.pushState({}, '', ${JSON.stringify(route.path(slug))});
          window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
          const painted = () => [...document.querySelectorAll('h1')].some((h) => wanted.test((h.textContent || '').trim()) && h.getClientRects().length > 0);
          await new Promise((resolve, reject) => {
            const give = setTimeout(() => reject(new Error('no heading ' + wanted + ' after 30 s')), 30000);
            const check = () => (painted() ? (clearTimeout(give), resolve()) : requestAnimationFrame(check));
            check();
          });
          await new Promise((resolve) => requestAnimationFrame(resolve));
          return performance.now() - started;
        })()`)) as number;
        // The route is settled before the next change (a redirect, like the organization's, has landed).
        await routeReady(page, route);
        if (round > 0) {
          timings.push(elapsed);
          byRoute.get(route.name)!.push(elapsed);
        }
      }
    }
    requireFigures(timings, `no route change timed (BENCH_ROUNDS=${rounds}: at least 1 is needed)`);
    const p50 = percentile(timings, 50);
    const p95 = percentile(timings, 95);
    console.log(`\nCached client-side route change over ${timings.length} changes: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (budget p95 ${ROUTE_CHANGE_BUDGET_MS} ms${p95 > ROUTE_CHANGE_BUDGET_MS ? ', OVER' : ''})`);
    console.log('  (timed in the page: from the router call to the first frame after the new heading is visible)');
    for (const [name, values] of byRoute) console.log(`  to ${name.padEnd(20)} p50 ${percentile(values, 50).toFixed(1).padStart(6)} ms, p95 ${percentile(values, 95).toFixed(1).padStart(6)} ms`);
    if (p95 > ROUTE_CHANGE_BUDGET_MS) exitCode = 1;
    await context.close();
  } finally {
    await browser.close();
    await platform.stop();
  }
  return exitCode;
}

/** Each lazy route chunk's own JavaScript (not the shared chunks it imports), gzipped, from Vite's manifest. */
export function printRouteChunks(): number {
  const dist = requireBuild();
  const manifestPath = path.join(dist, '.vite', 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, { file: string; src?: string; isDynamicEntry?: boolean }>;
  let exitCode = 0;
  console.log(`\nRoute chunks, own JavaScript gzipped (budget ${ROUTE_CHUNK_BUDGET_KB} kB):`);
  const chunks = requireFigures(Object.values(manifest).filter((c) => c.isDynamicEntry && c.file.endsWith('.js')), 'no lazy route chunk in the Vite manifest');
  for (const chunk of chunks) {
    const kb = gzipSync(readFileSync(path.join(dist, chunk.file))).length / 1024;
    const over = kb > ROUTE_CHUNK_BUDGET_KB;
    if (over && chunk.src?.startsWith('src/views/')) exitCode = 1;
    console.log(`  ${(chunk.src ?? chunk.file).padEnd(64)} ${kb.toFixed(1).padStart(7)} kB${over ? ' OVER' : ''}`);
  }
  return exitCode;
}

if (process.argv[1]?.endsWith('bench-browser.ts')) {
  const mode = process.argv[2];
  const run = async () => {
    if (mode === 'routes') return Math.max(printRouteChunks(), await measureRouteChanges());
    if (mode === 'loads') return measureRouteLoads();
    throw new Error('usage: tsx scripts/bench-browser.ts routes|loads');
  };
  run().then(
    (code) => {
      process.exitCode = budgetExitCode(code);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
