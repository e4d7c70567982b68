// The `test` every spec uses: baseURL is the platform global-setup started (its port is only known at run time).
import { test as base } from '@playwright/test';
import { BASE_URL_ENV, storageStatePath, type DemoRole } from './demo-accounts';

export const test = base.extend<object>({
  baseURL: async ({}, use) => {
    const url = process.env[BASE_URL_ENV];
    if (!url) throw new Error(`${BASE_URL_ENV} is not set: run the browser tests with npx playwright test`);
    await use(url);
  },
});

export { expect } from '@playwright/test';

/** Use inside a describe block: `test.use(asRole('owner'))`. */
export function asRole(role: DemoRole): { storageState: string } {
  return { storageState: storageStatePath(role) };
}
