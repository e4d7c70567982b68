// Runs once before the browser tests: a built console, a platform with fresh demo data on a free port (its URL in
// E2E_BASE_URL for the specs), and one signed-in session per demo role saved as storage state. Returns the teardown.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../playwright.config';
import { clearBrowserCoverage } from '../tests/support/model-coverage';
import { startTestPlatform } from '../tests/support/start-platform';
import { BASE_URL_ENV, DEV_PAGES_KEY_ENV, demoAccounts, demoRoles, storageStatePath } from './demo-accounts';
import { signInThroughConsole } from './login-page';

function ensureConsoleBuilt(): void {
  if (existsSync(join(process.cwd(), 'dist', 'index.html'))) return;
  console.log('dist/ is missing: building the console (npm run build)...');
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0 || !existsSync(join(process.cwd(), 'dist', 'index.html'))) {
    throw new Error('The console build failed and dist/ is missing: the browser tests cannot run (see the output above).');
  }
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(chromiumLaunchOptions.executablePath)) {
    throw new Error(`${chromiumLaunchOptions.executablePath} is missing: run scripts/install-chromium.sh as root.`);
  }
  ensureConsoleBuilt();
  // The model walks (e2e/paths-*.spec.ts) write this run's browser coverage afresh.
  clearBrowserCoverage();
  // The specs' external ClickHouse server runs on this machine: 127.0.0.1 is allowed the way an operator allows a
  // LAN (OUTBOUND_ALLOWED_NETWORKS); every other loopback, private or link-local address stays refused.
  const platform = await startTestPlatform({ seed: true, env: { OUTBOUND_ALLOWED_NETWORKS: '127.0.0.1' } });
  process.env[BASE_URL_ENV] = platform.url;
  process.env[DEV_PAGES_KEY_ENV] = platform.config.devPagesKey;
  try {
    const browser = await chromium.launch(chromiumLaunchOptions);
    try {
      for (const role of demoRoles) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await signInThroughConsole(page, platform.url, demoAccounts[role].email);
        const path = storageStatePath(role);
        mkdirSync(dirname(path), { recursive: true });
        await context.storageState({ path });
        await context.close();
      }
    } finally {
      await browser.close();
    }
  } catch (error) {
    await platform.stop();
    throw error;
  }
  return async () => {
    await platform.stop();
  };
}
