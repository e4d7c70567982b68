// Inputs that used to give 500 (issue 16, item 6), property-based over every API route (the installation's products
// included): a NUL byte in the query, a JSON body or a form body is 400 "Invalid characters"; a body over the limit
// is 413; the error log names an unexpected error without the SQL parameters it carried.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHandler } from '../../server/api/api-handler';
import { MAX_BODY_BYTES } from '../../server/route-kit/http';
import { createMailer } from '../../server/adapters/mail/mailer';
import { createClock } from '../../server/clock';
import { createJobQueue } from '../../server/jobs/job-queue';
import { createProductRegistry, PRODUCT_FACTORIES } from '../../server/products/product-registry';
import { createServiceRegistry } from '../../server/api/service-status';
import { createAccessTokenVerifier } from '../../server/identity/verify-access-token';
import { loadOrCreateSigningKeys } from '../../server/identity/signing-keys';
import { describeErrorForLog } from '../../server/safe-error-log';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';

const NUL = '\u0000';
const FIELDS = ['name', 'email', 'password', 'code', 'given_name', 'family_name', 'display_name', 'value', 'type', 'events', 'project_id', 'organization_id'];

describe.each(databaseTargets())('hostile input on every route ($kind)', (target) => {
  let api: ApiHarness;
  let owner: string;
  let routes: { method: string; path: string }[];
  let server: Server;
  let base: string;
  beforeAll(async () => {
    // The installation's products are registered (their routes exist) but not started: every refusal checked here
    // happens before a route's handler runs.
    api = await startApi(target);
    const clock = createClock();
    const jobs = createJobQueue(api.db);
    const services = createServiceRegistry(api.db);
    const products = createProductRegistry({ db: api.db, config: api.config, clock, jobs, services, log: () => undefined }, PRODUCT_FACTORIES);
    const { publicJwks } = await loadOrCreateSigningKeys(api.db);
    const verifyAccessToken = createAccessTokenVerifier({ issuer: api.config.issuer, audience: api.config.apiAudience, publicJwks });
    const handler = createApiHandler({ db: api.db, config: api.config, verifyAccessToken, mailer: createMailer(api.db, { from: 'x@localhost' }), clock, jobs, services, products });
    routes = handler.routes();
    server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await api?.close();
  });

  /** A request to the API with every product's routes (same shape as the harness's). */
  async function request(method: string, path: string, options: { token?: string; query?: Record<string, string>; body?: unknown; form?: Record<string, string>; rawBody?: string }) {
    const url = new URL(`/api/${path}`, base);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
    let body: string | undefined;
    if (options.form) {
      body = new URLSearchParams(options.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (options.rawBody !== undefined || options.body !== undefined) {
      body = options.rawBody ?? JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  }

  const concrete = (path: string) => path.replace(/:[^/]+/g, '1');
  const withNul = fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([a, b]) => `${a}${NUL}${b}`);

  it('lists the routes of the core API and of the products', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.some((r) => r.path.startsWith('users'))).toBe(true);
    expect(routes.some((r) => r.path.includes('clickhouse'))).toBe(true);
  });

  it('a NUL byte in the query string is 400 on every route, signed in or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.constantFrom(...FIELDS), withNul, fc.boolean(), async (route, key, value, signedIn) => {
        const response = await request(route.method, concrete(route.path), { token: signedIn ? owner : undefined, query: { [key]: value } });
        expect(response.status, `${route.method} ${route.path}`).toBe(400);
        expect(response.body.message).toBe('Invalid characters');
      }),
      { numRuns: 150 },
    );
  });

  it('a NUL byte anywhere in a JSON or form body is 400 on every route that takes a body', async () => {
    const writes = routes.filter((r) => r.method !== 'GET');
    const body = fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(fc.string({ maxLength: 10 }), fc.integer()), { maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), body, fc.constantFrom(...FIELDS), withNul, fc.boolean(), async (route, rest, key, value, asForm) => {
        const options = asForm ? { form: Object.fromEntries(Object.entries({ ...rest, [key]: value }).map(([k, v]) => [k, String(v)])) } : { body: { ...rest, [key]: value } };
        const response = await request(route.method, concrete(route.path), { token: owner, ...options });
        expect(response.status, `${route.method} ${route.path}`).toBe(400);
        expect(response.body.message).toBe('Invalid characters');
      }),
      { numRuns: 150 },
    );
  });

  it('a body over the limit is 413 on every route that takes a body', async () => {
    const writes = routes.filter((r) => r.method !== 'GET');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), fc.integer({ min: 1, max: 64 * 1024 }), async (route, extra) => {
        const response = await request(route.method, concrete(route.path), { token: owner, rawBody: JSON.stringify({ name: 'x'.repeat(MAX_BODY_BYTES + extra) }) });
        expect(response.status, `${route.method} ${route.path}`).toBe(413);
      }),
      { numRuns: 40 },
    );
  });

  it('the unauthenticated telemetry call refuses NUL bytes without touching the database', async () => {
    const before = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM telemetry_event_counts');
    const response = await api.request('POST', 'telemetry', { body: { events: [{ type: `page${NUL}view`, name: 'x' }] } });
    expect(response.status).toBe(400);
    const after = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM telemetry_event_counts');
    expect(after).toEqual(before);
  });
});

describe('the error log', () => {
  it('names a database error without its statement or parameters', () => {
    const error = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      code: '23505',
      constraint: 'users_email_key',
      query: 'INSERT INTO users (email) VALUES ($1)',
      params: ['secret-person@example.com', 'invitation-code-abc'],
      detail: 'Key (lower(email))=(secret-person@example.com) already exists.',
    });
    const logged = describeErrorForLog(error);
    expect(logged).toContain('code=23505');
    expect(logged).toContain('users_email_key');
    expect(logged).not.toContain('secret-person@example.com');
    expect(logged).not.toContain('invitation-code-abc');
    expect(logged).not.toContain('INSERT INTO');
  });
});
