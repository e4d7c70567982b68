// `npx tsx scripts/smoke-clickhouse-console.ts`: the ClickHouse pages in Debian's chromium against a real platform
// (built console in dist/, embedded database, real clickhouse-server). Enables ClickHouse on the owner's personal
// project directly in the database (the stack's enable route lives in another part of the console), then walks the
// create page (empty submit shows the field messages, the cost estimate), waits for the cluster page's links card
// (active), writes rows with the admin credentials, sees them in the available-space card, and deletes the cluster.
// It becomes a Playwright spec once the stack's POST integrations/clickhouse/ is merged.
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../playwright.config';
import { startTestPlatform } from '../tests/support/start-platform';
import { signInThroughConsole } from '../e2e/login-page';
import { createIntegration } from '../server/db/repositories/integrations-repository';
import { clickhouseExec } from '../server/products/clickhouse/clickhouse-http';

const platform = await startTestPlatform({ seed: true });
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const sandbox = (await platform.db.query<{ id: number; user_id: string }>("SELECT id, user_id FROM projects WHERE name = 'Personal Sandbox'"))[0];
  await createIntegration(platform.db, { projectId: sandbox.id, productSlug: 'clickhouse', status: 'active', creatorUserId: sandbox.user_id });
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  await signInThroughConsole(page, platform.url, 'demo@example.com');
  await page.goto(`${platform.url}/personal-sandbox-${sandbox.id}/stack/clickhouse`);
  await page.waitForURL(/\/create$/, { timeout: 15000 });
  console.log('redirected to', page.url());
  await page.getByRole('button', { name: 'Create cluster' }).click();
  const alerts = await page.locator('[data-part="error-text"], [role=alert]').allTextContents();
  console.log('errors after empty submit:', alerts.slice(0, 6));
  for (const message of ['The region is required.', 'The version is required.', 'The username must be at least 5 characters.', 'The password must be at least 8 characters.']) {
    if (!alerts.includes(message)) throw new Error(`missing field message: ${message}`);
  }
  await page.getByLabel('Region').selectOption('eu-central-1');
  await page.getByLabel('Version').selectOption({ index: 1 });
  await page.getByLabel('Admin user').fill('admin_one');
  await page.getByLabel('Admin password').fill('Secret123');
  await page.getByLabel('Confirm password').fill('Secret123');
  console.log(await page.getByText(/Estimated cost/).textContent());
  await page.getByRole('button', { name: 'Create cluster' }).click();
  await page.waitForURL(/\/cluster\/\d+$/, { timeout: 15000 });
  console.log('at', page.url());
  await page.getByText('Copy client command').waitFor({ timeout: 20000 });
  const endpoint = await page.locator('code').first().textContent();
  console.log('endpoint', endpoint, await page.locator('code').last().textContent());
  const port = Number(endpoint!.split(':').at(-1));
  await clickhouseExec({ host: '127.0.0.1', port, user: 'admin_one', password: 'Secret123' }, 'CREATE TABLE default.t (n UInt8) ENGINE = MergeTree ORDER BY n');
  await clickhouseExec({ host: '127.0.0.1', port, user: 'admin_one', password: 'Secret123' }, 'INSERT INTO default.t VALUES (1),(2)');
  await new Promise((r) => setTimeout(r, 1500)); // query_log is flushed every second
  await page.reload();
  await page.getByRole('img', { name: 'Written rows per second chart' }).waitFor({ timeout: 15000 });
  console.log('charts:', await page.getByRole('img', { name: /chart$/ }).count());
  await page.getByText(/table\(s\)/).waitFor({ timeout: 15000 });
  console.log('space card:', await page.getByText(/table\(s\)/).textContent(), await page.getByText(/free of/).first().textContent());
  await page.screenshot({ path: '.tmp/smoke-clickhouse.png', fullPage: true });
  await page.getByRole('button', { name: 'Delete cluster' }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByText('This cluster has been deleted.').waitFor({ timeout: 20000 });
  console.log('deleted shown');
} finally {
  await browser.close();
  await platform.stop();
}
