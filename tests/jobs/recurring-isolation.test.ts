import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcmeApi, type ApiHarness } from '../support/api-client';
import type { HepicBackend } from '../../server/products/hepic/hepic-backend';
import { findInstanceOfProject as findHepicInstance } from '../../server/products/hepic/hepic-repository';
import type { QrynBackend } from '../../server/products/qryn/qryn-backend';
import { findInstanceOfProject as findQrynInstance } from '../../server/products/qryn/instances/qryn-repository';
import { createProject } from '../../server/db/repositories/projects-repository';

// Retention (qryn) and rotation (Hepic) against the real shared storage (a clickhouse-server the platform starts):
// one instance whose storage errors must not keep the next instance's old data on the disk.

describe('recurring storage work: one failing instance does not stop the others', () => {
  let api: ApiHarness;
  let owner: string;
  let productionId: number;
  let stagingId: number;

  beforeAll(async () => {
    ({ api, owner, productionId, stagingId } = await startAcmeApi());
  }, 120_000);
  afterAll(async () => api?.close());

  const enable = async (slug: string, projectId: number, body: Record<string, unknown>) => {
    const response = await api.request('POST', `integrations/${slug}/`, { token: owner, query: { project_id: projectId }, body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  };

  it('Hepic rotation drops the old days of the instances after one whose storage errors', async () => {
    const hepic = api.products.get('hepic') as HepicBackend;
    // Enabled in this order: the broken instance is listed (and rotated) first.
    await enable('hepic', productionId, { price_id: 'hepic-starter', cluster_id: 'shared-local' });
    await enable('hepic', stagingId, { price_id: 'hepic-starter', cluster_id: 'shared-local' });
    const broken = (await findHepicInstance(api.db, productionId))!;
    const healthy = (await findHepicInstance(api.db, stagingId))!;
    const storage = await hepic.storageOf(broken);
    // A table the storage cannot answer the rotation's question about (its partitions are not days): the query errors.
    await storage.client.command(`DROP TABLE ${broken.database_name}.hep_packets`);
    await storage.client.command(`CREATE TABLE ${broken.database_name}.hep_packets (s String) ENGINE = MergeTree PARTITION BY s ORDER BY s`);
    await storage.client.command(`INSERT INTO ${broken.database_name}.hep_packets (s) VALUES ('not-a-day')`);
    await storage.client.command(`INSERT INTO ${healthy.database_name}.hep_packets (date) VALUES ('2020-01-01')`);

    const dropped = await hepic.runRotation();
    expect(dropped.some((d) => d.startsWith(`${healthy.id}:`))).toBe(true);
    const left = await storage.client.query<{ n: number }>(`SELECT count() AS n FROM ${healthy.database_name}.hep_packets`);
    expect(Number(left[0].n)).toBe(0);
  });

  it('qryn retention drops the old partitions of the instances after one whose storage errors', async () => {
    const qryn = api.products.get('qryn') as QrynBackend;
    // Two more projects of the organization (Hepic took the observability slot of the first two).
    const acme = (await api.db.query<{ organization_id: number; user_id: string; billing_account_id: number }>('SELECT organization_id, user_id, billing_account_id FROM projects WHERE id = $1', [productionId]))[0];
    const logsA = (await createProject(api.db, { name: 'Acme Logs A', organizationId: acme.organization_id, userId: acme.user_id, billingAccountId: acme.billing_account_id })).id;
    const logsB = (await createProject(api.db, { name: 'Acme Logs B', organizationId: acme.organization_id, userId: acme.user_id, billingAccountId: acme.billing_account_id })).id;
    const input = await qryn.defaultInput!(logsA);
    await enable('qryn', logsA, input);
    await enable('qryn', logsB, input);
    const broken = (await findQrynInstance(api.db, logsA))!;
    const healthy = (await findQrynInstance(api.db, logsB))!;
    const client = await qryn.storageOf(broken);
    await client.command(`CREATE TABLE ${broken.database_name}.broken (s String) ENGINE = MergeTree PARTITION BY s ORDER BY s`);
    await client.command(`INSERT INTO ${broken.database_name}.broken (s) VALUES ('not-a-day')`);
    await client.command(`CREATE TABLE ${healthy.database_name}.old_days (date Date) ENGINE = MergeTree PARTITION BY date ORDER BY date`);
    await client.command(`INSERT INTO ${healthy.database_name}.old_days (date) VALUES ('2020-01-01')`);

    const dropped = await qryn.runRetention();
    expect(dropped.some((d) => d.startsWith(`${healthy.id}:old_days/`))).toBe(true);
    const left = await client.query<{ n: number }>(`SELECT count() AS n FROM ${healthy.database_name}.old_days`);
    expect(Number(left[0].n)).toBe(0);
  });
});
