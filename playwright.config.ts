// Browser tests in Debian's chromium (Playwright's browser download is unreachable here). e2e/global-setup.ts
// builds the console if needed, starts the platform on a free port with fresh demo data and signs in once per
// demo role through the real login page; specs reuse those sessions.
import { defineConfig } from '@playwright/test';

export const chromiumLaunchOptions = {
  executablePath: '/usr/bin/chromium',
  // Without the background-networking flags chromium keeps trying to reach the internet.
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  globalSetup: './e2e/global-setup.ts',
  // One worker: the platform runs in the runner's process and the machine has 2 cores.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: chromiumLaunchOptions,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    locale: 'en-GB',
  },
});
