// Text that names a member of Object.prototype (`__proto__`, `constructor`, `toString`, …) is data like any other:
// as a path segment, a query value, a body value or a body key it is answered 2xx/4xx on every route of the running
// platform, never 5xx. fast-check's string arbitraries draw these names on purpose now and then, so the property tests
// meet them at random; this test meets each of them on every route, every run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHandler } from '../../server/api/api-handler';
import { createMailer } from '../../server/adapters/mail/mailer';
import { createServiceRegistry } from '../../server/api/service-status';
import { createAccessTokenVerifier } from '../../server/identity/verify-access-token';
import { loadOrCreateSigningKeys } from '../../server/identity/signing-keys';
import { findUserByEmail } from '../../server/db/repositories/users-repository';
import { createTokenMinter } from '../support/mint-token';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';

const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', '__lookupGetter__', 'prototype', 'length'];
// Field names the API's bodies and queries use (contract/), each given the name as its value.
const FIELDS = [
  'name', 'display_name', 'email', 'password', 'given_name', 'family_name', 'code', 'value', 'type', 'country', 'scope', 'group', 'role',
  'user_id', 'project_id', 'organization_id', 'billing_account_id', 'cluster_id', 'writer_region_code', 'region_code', 'provider', 'machine',
  'version', 'price_id', 'ttl_addon_id', 'kind', 'status', 'intent', 'slug', 'payment_method_id', 'tax_id', 'invite_id', 'limit', 'enabled',
];

describe('names of Object.prototype members as input', () => {
  let platform: TestPlatform;
  let owner: string;
  let routes: { method: string; path: string }[];
  let projectId: number;

  beforeAll(async () => {
    platform = await startTestPlatform();
    // The route table of the platform's API (the same products' routes), read from a handler that serves nothing.
    const { publicJwks } = await loadOrCreateSigningKeys(platform.db);
    const handler = createApiHandler({
      db: platform.db,
      config: platform.config,
      verifyAccessToken: createAccessTokenVerifier({ issuer: platform.config.issuer, audience: platform.config.apiAudience, publicJwks }),
      mailer: createMailer(platform.db, { from: 'x@localhost' }),
      clock: platform.clock,
      jobs: platform.jobs,
      services: createServiceRegistry(platform.db),
      products: platform.products,
    });
    routes = handler.routes();
    const demo = (await findUserByEmail(platform.db, 'demo@example.com'))!;
    const acme = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    projectId = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
    owner = await (await createTokenMinter(platform.db, platform.config))(demo, { organizationId: acme });
  }, 120_000);
  afterAll(async () => platform?.stop());

  async function call(method: string, path: string, query: Record<string, string>, body: string | undefined) {
    const url = new URL(`/api/${path}`, platform.url);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const headers: Record<string, string> = { authorization: `Bearer ${owner}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body });
    return { status: response.status, text: await response.text() };
  }

  it('lists the routes of the core API and of the products', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.some((r) => r.path.includes(':'))).toBe(true);
  });

  it('as a path segment, a query value, a body value or a body key: never 5xx on any route', async () => {
    const failures: string[] = [];
    const answered: Record<number, number> = {};
    // Destructive calls last, so that the others meet the demo data as it was seeded.
    const ordered = [...routes].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    for (const route of ordered) {
      for (const name of NAMES) {
        const path = route.path.replace(/:[^/]+/g, encodeURIComponent(name));
        const values = Object.fromEntries(FIELDS.map((field) => [field, name]));
        // The name as a key: written as JSON text, where it is an own property (not the prototype) once parsed.
        const body = route.method === 'GET' ? undefined : `{${JSON.stringify(name)}:{"a":1},${JSON.stringify(values).slice(1)}`;
        const asked = [
          { query: values, body },
          // With the project the owner has, so that the calls that check it first go on to read the rest.
          { query: { ...values, project_id: String(projectId) }, body },
        ];
        for (const { query, body: sent } of asked) {
          const { status, text } = await call(route.method, path, query, sent);
          answered[Math.floor(status / 100)] = (answered[Math.floor(status / 100)] ?? 0) + 1;
          if (status >= 500) failures.push(`${route.method} ${path} ?project_id=${query.project_id} → ${status} ${text.slice(0, 160)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The calls reached the handlers: many were taken (the names are valid text for a name or a password), many
    // refused at a field (about 600 and 1,700 of some 2,500 when this was written).
    expect(answered[2]).toBeGreaterThan(200);
    expect(answered[4]).toBeGreaterThan(500);
  }, 120_000);
});
