import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Schema } from 'effect';
import type { ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import type { EnabledQryn } from '../support/qryn';
import { startQrynInAcme, stopQrynInAcme, type QrynInAcme } from '../support/qryn-in-acme';
import { QrynCosts } from '../../contract/qryn';
import { findInstanceOfProject } from '../../server/products/qryn/instances/qryn-repository';
import { monthCosts } from '../../server/products/qryn/costs';
import { RETENTION_POLICIES } from '../../server/products/qryn/storage/storage-resolver';

// GET integrations/qryn/costs against the real database and the real store (docs/qryn.md "Costs"): the stored
// bytes are the store's own (system.parts), priced by the plan's tiers, plus the fingerprints limit's spend.

const policy = (id: string) => RETENTION_POLICIES.find((p) => p.id === id)!;

describe('the month cost formula', () => {
  it('prices stored GB by the plan tiers (10^9 bytes a GB) and adds limit × 5/1000 USD', () => {
    const costs = monthCosts({ bytes: { logs: 120e9, metrics: 30e9, traces: 0, index: 0 }, policy: policy('retention-30d'), fingerprintLimit: 2000, nowMs: Date.UTC(2026, 10, 23, 12) });
    // 150 GB: 100 at 50 cents, 50 at 40 cents.
    expect(costs.tiers.map((t) => [t.gb, t.cents])).toEqual([[100, 5000], [50, 2000], [0, 0]]);
    expect(costs.storage_cents).toBe(7000);
    expect(costs.storage.find((l) => l.type === 'logs')!.cents).toBeCloseTo(5600);
    expect(costs.fingerprint_cents).toBe(1000);
    expect(costs.total_cents).toBe(8000);
    expect([costs.period_start, costs.period_end]).toEqual([Date.UTC(2026, 10, 1) / 1000, Date.UTC(2026, 11, 1) / 1000]);
  });

  it('the parts add up and more data never costs less (any volume, any plan)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 2e12 }), { minLength: 4, maxLength: 4 }), fc.constantFrom(...RETENTION_POLICIES), fc.nat({ max: 1000 }), ([a, b, c, d], plan, k) => {
        const bytes = { logs: a, metrics: b, traces: c, index: d };
        const costs = monthCosts({ bytes, policy: plan, fingerprintLimit: k * 1000, nowMs: 0 });
        const more = monthCosts({ bytes: { ...bytes, logs: a + 1e9 }, policy: plan, fingerprintLimit: k * 1000, nowMs: 0 });
        expect(costs.storage.reduce((s, l) => s + l.cents, 0)).toBeCloseTo(costs.storage_cents, 6);
        expect(costs.total_cents).toBeCloseTo(costs.storage_cents + costs.fingerprint_cents, 6);
        expect(more.storage_cents).toBeGreaterThan(costs.storage_cents);
        expect(costs.tiers.reduce((s, t) => s + t.gb, 0)).toBeCloseTo((a + b + c + d) / 1e9, 6);
      }),
      { numRuns: 200 },
    );
  });
});

describe.each(databaseTargets())('GET integrations/qryn/costs ($kind)', (target) => {
  let api: ApiHarness;
  let owner: string;
  let qryn: EnabledQryn;
  let productionId: number;
  let gateway: QrynInAcme['gateway'];
  let gatewayUrl: string;

  let setup: QrynInAcme | undefined;

  beforeAll(async () => {
    setup = await startQrynInAcme(target);
    ({ api, owner, qryn, productionId, gateway } = setup);
    gatewayUrl = gateway.url;
  }, 180_000);
  afterAll(() => stopQrynInAcme(setup));

  const costs = async () => {
    const answer = await api.request('GET', 'integrations/qryn/costs', { token: owner, query: { project_id: productionId } });
    expect(answer.status).toBe(200);
    return Schema.decodeUnknownSync(QrynCosts)(answer.body);
  };

  it('counts what the store holds: pushed data raises the stored bytes; the cents follow the plan and the limit', async () => {
    const before = await costs();
    const now = `${Date.now()}000000`;
    const push = await fetch(`${gatewayUrl}/loki/api/v1/push`, {
      method: 'POST',
      headers: { authorization: qryn.basic, 'content-type': 'application/json' },
      body: JSON.stringify({ streams: [{ stream: { job: 'costs-test' }, values: Array.from({ length: 500 }, (_, i) => [now, `a line to pay for ${i} ${'x'.repeat(200)}`]) }] }),
    });
    expect(push.status).toBe(204);
    const after = await costs();
    const logs = (c: typeof after) => c.storage.find((l) => l.type === 'logs')!.bytes;
    expect(logs(after)).toBeGreaterThan(logs(before));

    // The same bytes read from the store directly.
    const instance = (await findInstanceOfProject(api.db, productionId))!;
    const client = await qryn.backend.storageOf(instance);
    const parts = await client.query<{ bytes: string }>(`SELECT sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = '${instance.database_name}' AND active`);
    expect(after.stored_bytes).toBe(Number(parts[0].bytes));
    expect(after.plan_name).toBe(policy(instance.ttl_addon_id).name);
    expect(after.storage_cents).toBeCloseTo((after.stored_bytes / 1e9) * policy(instance.ttl_addon_id).tiers[0].price, 9);

    // The fingerprints limit's spend: 3000 × 5/1000 USD = 15 USD.
    expect((await api.request('PATCH', 'integrations/qryn/fingerprints/limit', { token: owner, query: { project_id: productionId }, body: { limit: 3000 } })).status).toBe(200);
    const limited = await costs();
    expect(limited.fingerprint_cents).toBe(1500);
    expect(limited.total_cents).toBeCloseTo(limited.storage_cents + 1500, 9);
    await api.request('PATCH', 'integrations/qryn/fingerprints/limit', { token: owner, query: { project_id: productionId }, body: { limit: 0 } });
  });

  it('names the project: missing or malformed project_id is refused, a project without qryn is a 400', async () => {
    const missing = await api.request('GET', 'integrations/qryn/costs', { token: owner });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual({ project_id: ['The project id is missing'] });
    const malformed = await api.request('GET', 'integrations/qryn/costs', { token: owner, query: { project_id: 'abc' } });
    expect(malformed.status).toBe(400);
    expect(Object.keys(malformed.body.details)).toEqual(['project_id']);
    const staging = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
    expect(await findInstanceOfProject(api.db, staging)).toBeUndefined();
    expect((await api.request('GET', 'integrations/qryn/costs', { token: owner, query: { project_id: staging } })).status).toBe(400);
  });
});
