// The seeded demo accounts the browser tests sign in as (password Demo1234!), and where their sessions are kept.
import { join } from 'node:path';

export const DEMO_PASSWORD = 'Demo1234!';

export const demoAccounts = {
  owner: { email: 'demo@example.com', name: 'Demo Owner' },
  member: { email: 'dev@example.com', name: 'Dana Developer' },
  viewer: { email: 'viewer@example.com', name: 'Vic Viewer' },
  newcomer: { email: 'new@example.com', name: 'Nora Newcomer' },
} as const;

export type DemoRole = keyof typeof demoAccounts;

export const demoRoles = Object.keys(demoAccounts) as DemoRole[];

/** Cookies of the identity server's session per role; keycloak-js re-authenticates from them with check-sso. */
export function storageStatePath(role: DemoRole): string {
  return join(process.cwd(), '.tmp', 'e2e', `${role}.storage.json`);
}

export const BASE_URL_ENV = 'E2E_BASE_URL';
/** The developer pages' key of the platform global-setup started (its DEV_PAGES_KEY), for the specs. */
export const DEV_PAGES_KEY_ENV = 'E2E_DEV_PAGES_KEY';

/** A developer page's address with the key (e.g. devPage('/dev/outbox')). */
export function devPage(path: string): string {
  const key = process.env[DEV_PAGES_KEY_ENV];
  if (!key) throw new Error(`${DEV_PAGES_KEY_ENV} is not set: run the browser tests with npx playwright test`);
  return `${path}${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(key)}`;
}
