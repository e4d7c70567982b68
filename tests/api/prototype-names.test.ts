// Text that names a member of Object.prototype (`__proto__`, `constructor`, `toString`, …) is data like any other:
// as a path segment, a query value, a body value or a body key it is answered 2xx/4xx on every route of the API with
// every product started, never 5xx. fast-check's string arbitraries draw these names on purpose now and then, so the
// property tests meet them at random; this test meets each of them on every route, every run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcmeApi, type ApiHarness } from '../support/api-client';

const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', '__lookupGetter__', 'prototype', 'length'];
// Field names the API's bodies and queries use (contract/), each given the name as its value.
const FIELDS = [
  'name', 'display_name', 'email', 'password', 'given_name', 'family_name', 'code', 'value', 'type', 'country', 'scope', 'group', 'role',
  'user_id', 'project_id', 'organization_id', 'billing_account_id', 'cluster_id', 'writer_region_code', 'region_code', 'provider', 'machine',
  'version', 'price_id', 'ttl_addon_id', 'kind', 'status', 'intent', 'slug', 'payment_method_id', 'tax_id', 'invite_id', 'limit', 'enabled',
];

describe('names of Object.prototype members as input', () => {
  let api: ApiHarness;
  let owner: string;
  let projectId: number;

  beforeAll(async () => {
    ({ api, owner, stagingId: projectId } = await startAcmeApi());
  }, 120_000);
  afterAll(async () => api?.close());

  it('lists the routes of the core API and of the products', () => {
    expect(api.routes().length).toBeGreaterThan(40);
    expect(api.routes().some((r) => r.path.includes(':'))).toBe(true);
  });

  it('as a path segment, a query value, a body value or a body key: never 5xx on any route', async () => {
    const failures: string[] = [];
    const answered: Record<number, number> = {};
    // Destructive calls last, so that the others meet the demo data as it was seeded.
    const ordered = [...api.routes()].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    for (const route of ordered) {
      for (const name of NAMES) {
        const path = route.path.replace(/:[^/]+/g, encodeURIComponent(name));
        const values = Object.fromEntries(FIELDS.map((field) => [field, name]));
        // The name as a key: written as JSON text, where it is an own property (not the prototype) once parsed.
        const rawBody = route.method === 'GET' ? undefined : `{${JSON.stringify(name)}:{"a":1},${JSON.stringify(values).slice(1)}`;
        const asked = [
          values,
          // With the project the owner has, so that the calls that check it first go on to read the rest.
          { ...values, project_id: String(projectId) },
        ];
        for (const query of asked) {
          const { status, body } = await api.request(route.method, path, { token: owner, query, rawBody });
          answered[Math.floor(status / 100)] = (answered[Math.floor(status / 100)] ?? 0) + 1;
          if (status >= 500) failures.push(`${route.method} ${path} ?project_id=${query.project_id} → ${status} ${JSON.stringify(body).slice(0, 160)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The calls reached the handlers: many were taken (the names are valid text for a name or a password), many
    // refused at a field (about 660 and 1,840 of some 2,500 when this was written).
    expect(answered[2]).toBeGreaterThan(200);
    expect(answered[4]).toBeGreaterThan(500);
  }, 120_000);
});
