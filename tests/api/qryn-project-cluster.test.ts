import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../server/db/repositories/projects-repository';
import { findUserByEmail } from '../../server/db/repositories/users-repository';
import { clickhouseQuery } from '../../server/products/clickhouse/clickhouse-http';
import { createTokenMinter } from '../support/mint-token';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';

// qryn stored on the project's own ClickHouse cluster, all through the platform's API and gateway with a real
// clickhouse-server: a managed cluster is created and becomes active, GET integrations/qryn/cloud/resources offers it
// next to the shared storage, enabling qryn with it creates the instance's database on that cluster, a log line
// pushed through the gateway is read back straight from the cluster with its admin credentials (and through the
// gateway's Loki API), and a cluster of another project or one that is not running is refused.

describe('qryn on a project ClickHouse cluster (real servers)', () => {
  let platform: TestPlatform;
  let token: string;
  let projectId: number;
  let otherProjectId: number;
  const password = 'Secret123!';

  const call = async (method: string, route: string, options: { query?: Record<string, string | number>; body?: unknown } = {}) => {
    const url = new URL(`/api/${route}`, platform.url);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    const response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(options.body ? { 'content-type': 'application/json' } : {}) },
      body: options.body ? JSON.stringify(options.body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    platform = await startTestPlatform();
    const demo = (await findUserByEmail(platform.db, 'demo@example.com'))!;
    const acme = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    const billing = (await platform.db.query<{ id: number }>("SELECT id FROM billing_accounts WHERE name = 'Acme billing'"))[0].id;
    token = await (await createTokenMinter(platform.db, platform.config))(demo, { organizationId: acme, expiresIn: 3600 });
    projectId = (await createProject(platform.db, { name: 'Own storage', organizationId: acme, userId: demo.id, billingAccountId: billing })).id;
    otherProjectId = (await createProject(platform.db, { name: 'Neighbour', organizationId: acme, userId: demo.id, billingAccountId: billing })).id;
  }, 180_000);
  afterAll(async () => {
    const dataDir = platform?.dataDir;
    await platform?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('offers the running cluster, stores the instance there, and a pushed line is read back from the cluster', async () => {
    expect((await call('POST', 'integrations/clickhouse/', { query: { project_id: projectId } })).status).toBe(201);
    const created = await call('POST', 'integrations/clickhouse/clusters', {
      query: { project_id: projectId },
      body: {
        name: 'logs',
        provider: 'aws',
        region_code: 'eu-central-1',
        machine: 'm5_large',
        version: '18.16',
        shards: 1,
        replicas: 1,
        disks: [{ name: 'default', type: 'gp3', size: 150, unit_type: 'Decimal' }],
        ip_safe_list: '',
        admin_user: 'admin_one',
        admin_password: password,
        confirm_password: password,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const clusterId = String(created.body.cluster.id);

    // Not offered while it is being created.
    const whileCreating = await call('GET', 'integrations/qryn/cloud/resources', { query: { project_id: projectId } });
    expect(whileCreating.status).toBe(200);
    if (created.body.cluster.status === 'creating') {
      expect(whileCreating.body.map((r: { clickhouse_cluster_id: string }) => r.clickhouse_cluster_id)).not.toContain(clusterId);
    }
    const deadline = Date.now() + 60_000;
    let cluster: { status: string; host: string; http_port: number } | undefined;
    while (Date.now() < deadline) {
      cluster = (await call('GET', 'integrations/clickhouse/clusters', { query: { project_id: projectId } })).body.find((c: { id: number }) => String(c.id) === clusterId);
      if (cluster?.status === 'active' || cluster?.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(cluster?.status).toBe('active');

    const resources = await call('GET', 'integrations/qryn/cloud/resources', { query: { project_id: projectId } });
    expect(resources.body).toEqual([
      expect.objectContaining({ kind: 'shared' }),
      { clickhouse_cluster_id: clusterId, name: 'logs', region_code: 'eu-central-1', region_name: expect.any(String), continent: 'Europe', kind: 'project' },
    ]);
    // Another project does not see it, and cannot store on it.
    const neighbour = await call('GET', 'integrations/qryn/cloud/resources', { query: { project_id: otherProjectId } });
    expect(neighbour.body.map((r: { kind: string }) => r.kind)).toEqual(['shared']);
    const refused = await call('POST', 'integrations/qryn/', { query: { project_id: otherProjectId }, body: { cluster_id: clusterId, writer_region_code: 'local' } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Please select where the data will be stored.');

    const enabled = await call('POST', 'integrations/qryn/', { query: { project_id: projectId }, body: { cluster_id: clusterId, writer_region_code: 'local' } });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(201);
    const item = (label: string) => enabled.body.items.find((i: { label: string }) => i.label === label).value as string;
    const basic = `Basic ${Buffer.from(`${item('API KEY')}:${item('API SECRET')}`).toString('base64')}`;
    const instance = (await platform.db.query<{ id: string; database_name: string; cluster_id: string }>('SELECT id, database_name, cluster_id FROM qryn_instances WHERE project_id = $1', [projectId]))[0];
    expect(instance.cluster_id).toBe(clusterId);

    const line = `stored on my own cluster ${Date.now()}`;
    const push = await fetch(`${platform.url}/qryn/${instance.id}/loki/api/v1/push`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify({ streams: [{ stream: { job: 'own-cluster' }, values: [[String(Date.now() * 1_000_000), line]] }] }),
    });
    expect(push.status, await push.clone().text()).toBe(204);

    // Straight from the cluster, as its admin: the instance's database is there and holds the line.
    const admin = { host: cluster!.host, port: cluster!.http_port, user: 'admin_one', password };
    const deadlineRead = Date.now() + 15_000;
    let rows: { line: string }[] = [];
    while (Date.now() < deadlineRead) {
      rows = await clickhouseQuery<{ line: string }>(admin, `SELECT line FROM ${instance.database_name}.log_samples`).catch(() => []);
      if (rows.length > 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(rows).toEqual([{ line }]);
    // The shared storage has no such database.
    const shared = (platform.products.get('qryn') as unknown as { storageServer(): { url: string; user: string; password: string } }).storageServer();
    const sharedDbs = await fetch(`${shared.url}/?query=${encodeURIComponent('SELECT name FROM system.databases')}`, { headers: { 'X-ClickHouse-User': shared.user, 'X-ClickHouse-Key': shared.password } });
    expect(await sharedDbs.text()).not.toContain(instance.database_name);

    // And through qryn's own read API.
    const read = await fetch(`${platform.url}/qryn/${instance.id}/loki/api/v1/query_range?query=${encodeURIComponent('{job="own-cluster"}')}`, { headers: { authorization: basic } });
    const body = (await read.json()) as { data: { result: { values: string[][] }[] } };
    expect(body.data.result.flatMap((s) => s.values.map((v) => v[1]))).toEqual([line]);
  }, 180_000);
});
