import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import { enableQryn, type EnabledQryn } from '../support/qryn';
import { createIntegration } from '../../server/db/repositories/integrations-repository';
import { createProject } from '../../server/db/repositories/projects-repository';
import type { QrynBackend } from '../../server/products/qryn/qryn-backend';
import { findInstanceOfProject } from '../../server/products/qryn/instances/qryn-repository';
import { ValidationError } from '../../server/route-kit/http';
import { TOKEN_NAME_REQUIRED_MESSAGE, QrynConfig, QrynMetrics, QrynTokenList, ToggleBody, UpdateFingerprintLimitBody } from '../../contract/qryn';
import { decodeInput } from '../../contract/common';
import { CloudResourceList, RetentionPolicyList, WriterRegionList } from '../../contract/stack';
import { Schema } from 'effect';

// qryn's API calls against the real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set): shapes, field
// messages, bad input (property-based), enable's validation and release.

describe.each(databaseTargets())('qryn API ($kind)', (target) => {
  let api: ApiHarness;
  let owner: string;
  let qryn: EnabledQryn;
  let productionId: number;
  let acmeId: number;

  beforeAll(async () => {
    api = await startApi(target, { products: true });
    acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    productionId = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
    owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    qryn = await enableQryn(api, productionId, (await api.user('demo@example.com')).id, acmeId);
  });
  afterAll(async () => api?.close());

  const q = (extra: Record<string, string | number> = {}) => ({ project_id: productionId, ...extra });

  it('answers the show-config reads in the contract shapes', async () => {
    const resources = await api.request('GET', 'integrations/qryn/cloud/resources', { token: owner, query: q() });
    expect(Schema.decodeUnknownSync(CloudResourceList)(resources.body)[0]).toMatchObject({ kind: 'shared', clickhouse_cluster_id: 'shared-local' });
    const regions = await api.request('GET', 'integrations/qryn/writer-regions', { token: owner });
    expect(Schema.decodeUnknownSync(WriterRegionList)(regions.body)).toHaveLength(1);
    const policies = await api.request('GET', 'integrations/qryn/retention/policies', { token: owner });
    const list = Schema.decodeUnknownSync(RetentionPolicyList)(policies.body);
    expect(list.map((p) => p.name.slice(p.name.indexOf('-') + 1))).toEqual(['7 days', '30 days', '90 days', '365 days']);
  });

  it('config, metrics and tokens decode with the contract; the secret is never returned again', async () => {
    const config = Schema.decodeUnknownSync(QrynConfig)((await api.request('GET', 'integrations/qryn/config', { token: owner, query: q() })).body);
    expect(config).toMatchObject({ api_key: qryn.apiKey, api_secret: null, ttl_days: 30, ttl_addon_id: 'retention-30d', url: `${api.config.publicUrl}/qryn/${qryn.instanceId}` });
    const metrics = Schema.decodeUnknownSync(QrynMetrics)((await api.request('GET', 'integrations/qryn/metrics', { token: owner, query: q({ start: 0, end: 1 }) })).body);
    expect(metrics).toMatchObject({ bytes_count: 0, logs_rows: 0, fingerprints: 0, size_limit: 10_000_000_000, size_limit_reached: false, rotation_point: null });
    Schema.decodeUnknownSync(QrynTokenList)((await api.request('GET', 'integrations/qryn/tokens', { token: owner, query: q() })).body);
    // A read-only member sees the config without the key (they see only the Overview).
    const viewer = await api.tokenFor('viewer@example.com', { organizationId: acmeId });
    expect((await api.request('GET', 'integrations/qryn/config', { token: viewer, query: q() })).body.api_key).toBeNull();
  });

  it('token names are required with the spec message; the scope defaults to read', async () => {
    const missing = await api.request('POST', 'integrations/qryn/tokens', { token: owner, query: q(), body: { scope: 'read' } });
    expect(missing.status).toBe(400);
    expect(missing.body.details.name).toEqual([TOKEN_NAME_REQUIRED_MESSAGE]);
    const blank = await api.request('POST', 'integrations/qryn/tokens', { token: owner, query: q(), body: { name: '' } });
    expect(blank.body.details.name).toEqual([TOKEN_NAME_REQUIRED_MESSAGE]);
    const created = await api.request('POST', 'integrations/qryn/tokens', { token: owner, body: { name: 'Grafana', project_id: productionId } });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatchObject({ name: 'Grafana', scope: 'read' });
    expect(created.body.token.token).toMatch(/^qt_/);
    expect((await api.request('DELETE', 'integrations/qryn/tokens/999999', { token: owner, query: q() })).status).toBe(404);
    const badId = await api.request('DELETE', 'integrations/qryn/tokens/abc', { token: owner, query: q() });
    expect(badId.status).toBe(400);
    expect(Object.keys(badId.body.details)).toEqual(['id']);
  });

  it('settings are persisted and answer the spec texts', async () => {
    expect((await api.request('PATCH', 'integrations/qryn/drilldown', { token: owner, query: q(), body: { enabled: true } })).body.message).toBe('Drilldown enabled');
    expect((await api.request('PATCH', 'integrations/qryn/drilldown', { token: owner, query: q(), body: { enabled: false } })).body.message).toBe('Drilldown disabled');
    await api.request('PATCH', 'integrations/qryn/cache', { token: owner, query: q(), body: { enabled: true } });
    await api.request('PATCH', 'integrations/qryn/retention/policies', { token: owner, query: q(), body: { ttl_addon_id: 'retention-90d' } });
    await api.request('PATCH', 'integrations/qryn/fingerprints/limit', { token: owner, query: q(), body: { limit: 5000 } });
    const config = (await api.request('GET', 'integrations/qryn/config', { token: owner, query: q() })).body;
    expect(config).toMatchObject({ cache_enabled: true, use_drilldown: false, ttl_days: 90, ttl_addon_id: 'retention-90d', fingerprint_limit: 5000 });
    const unknownPlan = await api.request('PATCH', 'integrations/qryn/retention/policies', { token: owner, query: q(), body: { ttl_addon_id: 'retention-2d' } });
    expect(unknownPlan.status).toBe(400);
    expect(unknownPlan.body.details).toEqual({ ttl_addon_id: ['Please select a retention plan.'] });
  });

  it('bad bodies and queries are 400, never 5xx, and change nothing', async () => {
    const before = (await api.request('GET', 'integrations/qryn/config', { token: owner, query: q() })).body;
    // Bodies the contract accepts are left out: "change nothing" is about bad input (fast-check's doubles and
    // anything() do produce a valid {limit: 0} now and then).
    const bad = (schema: Schema.Top & { readonly DecodingServices: never }, arbitrary: fc.Arbitrary<unknown>) =>
      arbitrary.filter((body) => !decodeInput(schema, body).ok);
    const calls: [string, string, fc.Arbitrary<unknown>][] = [
      ['PATCH', 'integrations/qryn/fingerprints/limit', bad(UpdateFingerprintLimitBody, fc.oneof(fc.anything(), fc.record({ limit: fc.oneof(fc.integer().filter((n) => n % 1000 !== 0 || n < 0), fc.double(), fc.string()) })))],
      ['PATCH', 'integrations/qryn/cache', bad(ToggleBody, fc.oneof(fc.anything(), fc.record({ enabled: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) })))],
      ['PATCH', 'integrations/qryn/drilldown', bad(ToggleBody, fc.record({ enabled: fc.oneof(fc.string(), fc.integer()) }))],
      ['PATCH', 'integrations/qryn/retention/policies', fc.oneof(fc.anything(), fc.record({ ttl_addon_id: fc.oneof(fc.string(), fc.integer()) }))],
      ['POST', 'integrations/qryn/tokens', fc.oneof(fc.anything(), fc.record({ name: fc.oneof(fc.constant(''), fc.integer(), fc.string({ minLength: 101 })), scope: fc.string().filter((s) => !['read', 'write', 'read write'].includes(s)) }))],
    ];
    for (const [method, path, bodies] of calls) {
      await fc.assert(
        fc.asyncProperty(bodies, async (body) => {
          const response = await api.request(method, path, { token: owner, query: q(), rawBody: JSON.stringify(body) ?? '' });
          if (response.status < 300) return; // fast-check found a valid body (e.g. a known plan id): fine.
          expect([400, 413], `${method} ${path} ${JSON.stringify(body)} → ${response.status}`).toContain(response.status);
        }),
        { numRuns: 25 },
      );
    }
    await fc.assert(
      fc.asyncProperty(fc.record({ start: fc.string(), end: fc.string() }), async (query) => {
        const response = await api.request('GET', 'integrations/qryn/metrics', { token: owner, query: q(query) });
        if (/^\d+$/.test(query.start) && /^\d+$/.test(query.end)) return;
        expect([400]).toContain(response.status);
      }),
      { numRuns: 25 },
    );
    const after = (await api.request('GET', 'integrations/qryn/config', { token: owner, query: q() })).body;
    expect({ ...after, fingerprint_limit_reached: undefined }).toEqual({ ...before, fingerprint_limit_reached: undefined });
  });

  it('a project without qryn answers the spec error', async () => {
    const staging = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
    const response = await api.request('GET', 'integrations/qryn/config', { token: owner, query: { project_id: staging } });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(`We had some issues loading the configuration of the qryn integration for project ${staging}`);
  });

  it('enable validates the show-config input per field, and release refuses the keys and drops the database', async () => {
    const backend = api.products.get('qryn') as QrynBackend;
    const demo = await api.user('demo@example.com');
    const project = await createProject(api.db, { name: `qryn release ${Date.now()}`, organizationId: acmeId, userId: demo.id, billingAccountId: null });
    const attempt = (input: Record<string, unknown>) =>
      api.db.transaction(async (tx) => {
        const integrationId = await createIntegration(tx, { projectId: project.id, productSlug: 'qryn', status: 'active', creatorUserId: demo.id });
        return backend.enable(tx, { integrationId, projectId: project.id, userId: demo.id, organizationId: acmeId, input });
      });
    const empty = await attempt({}).catch((error: unknown) => error);
    expect(empty).toBeInstanceOf(ValidationError);
    expect((empty as ValidationError).details).toEqual({
      cluster_id: ['Please select where the data will be stored.'],
      writer_region_code: ['Please select from where qryn data will be ingested'],
    });
    const unknown = await attempt({ cluster_id: 'shared-mars', writer_region_code: 'mars', ttl_addon_id: 'retention-1d' }).catch((error: unknown) => error);
    expect(Object.keys((unknown as ValidationError).details).sort()).toEqual(['cluster_id', 'ttl_addon_id', 'writer_region_code']);
    // Nothing was left behind by the failed attempts.
    expect(await findInstanceOfProject(api.db, project.id)).toBeUndefined();

    const enabled = await enableQryn(api, project.id, demo.id, acmeId);
    const instance = (await findInstanceOfProject(api.db, project.id))!;
    const client = await backend.storageOf(instance);
    expect(await client.query(`SELECT name FROM system.databases WHERE name = '${instance.database_name}'`)).toHaveLength(1);
    const integrationId = instance.integration_id;
    await api.db.transaction((tx) => backend.release(tx, { integrationId, projectId: project.id }));
    await api.db.transaction((tx) => backend.release(tx, { integrationId, projectId: project.id }));
    expect(await findInstanceOfProject(api.db, project.id)).toBeUndefined();
    expect(enabled.instanceId).toBe(instance.id);
    // The database is dropped by a job (tests/qryn/gateway.test.ts runs it and checks the keys are refused).
    const job = (await api.db.query<{ id: number; payload: Record<string, unknown> }>("SELECT id, payload FROM jobs WHERE kind = 'qryn.drop-database'"))[0];
    expect(job.payload).toMatchObject({ database: instance.database_name });
  });
});
