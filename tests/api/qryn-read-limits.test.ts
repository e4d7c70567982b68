import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Schema } from 'effect';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import { enableQryn } from '../support/qryn';
import { QrynReadLimits, UpdateReadLimitsBody, readLimitOverPlatform } from '../../contract/qryn-read-limits';
import { decodeInput } from '../../contract/common';
import { findInstanceOfProject } from '../../server/products/qryn/instances/qryn-repository';
import { clickhouseReadParams, instanceReadSettings } from '../../server/products/qryn/query/read-settings';

// An instance's own ClickHouse read bounds through the platform API (PGlite, and PostgreSQL when TEST_DATABASE_URL
// is set): members read them, only an owner changes them, bad values are refused at the field and change nothing,
// and what is stored is what the instance's reads carry.

const NONE = { max_execution_time: null, max_rows_to_read: null, max_bytes_to_read: null, max_memory_usage: null, max_threads: null, max_result_rows: null };

describe.each(databaseTargets())('qryn read limits ($kind)', (target) => {
  let api: ApiHarness;
  let owner: string;
  let developer: string;
  let viewer: string;
  let productionId: number;

  beforeAll(async () => {
    api = await startApi(target, { products: true });
    const acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    productionId = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
    owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    developer = await api.tokenFor('dev@example.com', { organizationId: acmeId });
    viewer = await api.tokenFor('viewer@example.com', { organizationId: acmeId });
    await enableQryn(api, productionId, (await api.user('demo@example.com')).id, acmeId);
  });
  afterAll(async () => api?.close());

  const q = () => ({ project_id: productionId });
  const read = async (token: string) => Schema.decodeUnknownSync(QrynReadLimits)((await api.request('GET', 'integrations/qryn/read-limits', { token, query: q() })).body);

  it('starts with the platform defaults; an owner lowers two, and the reads carry them', async () => {
    const before = await read(owner);
    expect(before.limits).toEqual(NONE);
    expect(before.effective).toEqual(before.defaults);
    expect(before.can_edit).toBe(true);

    const body = { ...NONE, max_threads: 1, max_rows_to_read: before.defaults.max_rows_to_read / 2 };
    const put = await api.request('PUT', 'integrations/qryn/read-limits', { token: owner, query: q(), body });
    expect(put.status).toBe(200);
    expect(put.body.message).toBe('The read limits have been updated.');
    const after = await read(viewer);
    expect(after.limits).toEqual(body);
    expect(after.effective).toEqual({ ...before.defaults, max_threads: 1, max_rows_to_read: before.defaults.max_rows_to_read / 2 });
    expect(after.can_edit).toBe(false);

    const instance = (await findInstanceOfProject(api.db, productionId))!;
    const params = clickhouseReadParams(instanceReadSettings(instance.read_limits));
    expect(params).toContain('max_threads=1');
    expect(params).toContain(`max_rows_to_read=${before.defaults.max_rows_to_read / 2}`);

    // Back to the defaults.
    await api.request('PUT', 'integrations/qryn/read-limits', { token: owner, query: q(), body: NONE });
    expect((await read(owner)).limits).toEqual(NONE);
  });

  it('refuses members who are not owners (403), read-only or not, and changes nothing', async () => {
    const body = { ...NONE, max_threads: 64 };
    for (const token of [developer, viewer]) {
      const response = await api.request('PUT', 'integrations/qryn/read-limits', { token, query: q(), body });
      expect(response.status).toBe(403);
    }
    expect((await read(owner)).limits).toEqual(NONE);
    expect((await read(developer)).can_edit).toBe(false);
  });

  it("refuses limits looser than the platform's (400 naming the field), since the storage is shared, and keeps what was stored", async () => {
    const { defaults } = await read(owner);
    await api.request('PUT', 'integrations/qryn/read-limits', { token: owner, query: q(), body: { ...NONE, max_threads: 2 } });
    for (const [field, value] of [
      ['max_rows_to_read', defaults.max_rows_to_read + 1],
      ['max_memory_usage', 0],
      ['max_execution_time', defaults.max_execution_time * 10],
    ] as const) {
      const response = await api.request('PUT', 'integrations/qryn/read-limits', { token: owner, query: q(), body: { ...NONE, [field]: value } });
      expect(response.status, field).toBe(400);
      expect(response.body.details).toEqual({ [field]: [readLimitOverPlatform(defaults[field])] });
    }
    expect((await read(owner)).limits).toEqual({ ...NONE, max_threads: 2 });
    // Where the platform sets no bound (0), the instance may set any.
    expect(defaults.max_threads).toBe(0);
    await api.request('PUT', 'integrations/qryn/read-limits', { token: owner, query: q(), body: NONE });
  });

  it('names the field of a bad value (400) and keeps what was stored', async () => {
    await api.request('PUT', 'integrations/qryn/read-limits', { token: owner, query: q(), body: { ...NONE, max_threads: 2 } });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ max_execution_time: 0 }, 'max_execution_time', 'Must be at least 1.'],
      [{ max_threads: -1 }, 'max_threads', 'Must not be negative (0: no bound).'],
      [{ max_memory_usage: 1.5 }, 'max_memory_usage', 'Must be a whole number.'],
      [{ max_threads: 1000 }, 'max_threads', 'Must be at most 256.'],
    ];
    for (const [change, field, message] of cases) {
      const response = await api.request('PUT', 'integrations/qryn/read-limits', { token: owner, query: q(), body: { ...NONE, ...change } });
      expect(response.status, field).toBe(400);
      expect(response.body.details).toEqual({ [field]: [message] });
    }
    // Bad input of any shape: 400 or 422, never 5xx, never a change.
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.anything(), fc.record({ max_threads: fc.oneof(fc.string(), fc.double(), fc.integer({ max: -1 })) })).filter((b) => !decodeInput(UpdateReadLimitsBody, b).ok),
        async (body) => {
          const response = await api.request('PUT', 'integrations/qryn/read-limits', { token: owner, query: q(), rawBody: JSON.stringify(body) ?? '' });
          expect([400, 413, 422]).toContain(response.status);
        },
      ),
      { numRuns: 40 },
    );
    expect((await read(owner)).limits).toEqual({ ...NONE, max_threads: 2 });
  });
});
