import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { Schema } from 'effect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterList, ClusterMessage, ClusterMetadata, ClusterMetrics, ClusterResponse, MachineList, RegionList } from '../../contract/clickhouse';
import { createIntegration } from '../../server/db/repositories/integrations-repository';
import { createProject } from '../../server/db/repositories/projects-repository';
import { createUser, findUserByEmail } from '../../server/db/repositories/users-repository';
import { clickhouseExec, clickhouseQuery } from '../../server/products/clickhouse/clickhouse-http';
import { createTokenMinter } from '../support/mint-token';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';

// The whole life of a managed cluster through the API, with real clickhouse-server processes started by the
// platform's job worker: trial cluster created → active, used with the admin credentials, metrics read from its
// system tables, IP safe list applied to the running servers, an external cluster connected, the platform
// restarted, the cluster deleted (ports closed, folder gone), and no server left when the platform stops.

const conforms = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, value: unknown) =>
  expect(() => Schema.decodeUnknownSync(schema as never)(value)).not.toThrow();
const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out, last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};
const serversOf = (dataDir: string) => {
  try {
    return execFileSync('pgrep', ['-f', path.join(dataDir, 'clickhouse')], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

describe('ClickHouse clusters through the API (real servers)', () => {
  let platform: TestPlatform;
  let trialToken: string;
  let ownerToken: string;
  let trialProject: number;
  let paidProject: number;
  const password = 'Secret123!';

  const call = async (method: string, route: string, options: { token?: string; query?: Record<string, string | number>; body?: unknown } = {}) => {
    const url = new URL(`/api/${route}`, platform.url);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    const response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${options.token ?? trialToken}`, ...(options.body ? { 'content-type': 'application/json' } : {}) },
      body: options.body ? JSON.stringify(options.body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  const clusters = async (projectId = trialProject, token = trialToken) => (await call('GET', 'integrations/clickhouse/clusters', { token, query: { project_id: projectId } })).body;

  const trialBody = {
    name: 'default',
    provider: 'aws',
    region_code: 'eu-central-1',
    machine: 'm5_large',
    version: '18.16',
    shards: 1,
    replicas: 2,
    disks: [{ name: 'default', type: 'gp3', size: 150, unit_type: 'Decimal' }],
    ip_safe_list: '',
    admin_user: 'admin_one',
    admin_password: password,
    confirm_password: password,
  };

  beforeAll(async () => {
    // The "external" cluster below is a managed one on this machine: 127.0.0.1 allowed by the operator's setting.
    platform = await startTestPlatform({ env: { OUTBOUND_ALLOWED_NETWORKS: '127.0.0.1' } });
    const user = await createUser(platform.db, { email: 'trial@example.com', givenName: 'Tria', familyName: 'L', emailVerified: true });
    trialProject = (await createProject(platform.db, { name: 'Trial', organizationId: null, userId: user.id, billingAccountId: null })).id;
    await createIntegration(platform.db, { projectId: trialProject, productSlug: 'clickhouse', status: 'trial', creatorUserId: user.id });
    const mint = await createTokenMinter(platform.db, platform.config);
    trialToken = await mint(user, { expiresIn: 3600 });
    const demo = (await findUserByEmail(platform.db, 'demo@example.com'))!;
    const acme = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    ownerToken = await mint(demo, { organizationId: acme, expiresIn: 3600 });
    paidProject = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
    await createIntegration(platform.db, { projectId: paidProject, productSlug: 'clickhouse', status: 'active', creatorUserId: demo.id });
  });
  afterAll(async () => {
    const dataDir = platform?.dataDir;
    await platform?.stop();
    // Nothing the platform started outlives it.
    if (dataDir) {
      expect(serversOf(dataDir)).toEqual([]);
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('serves the reference data, cached for an hour', async () => {
    const regions = await call('GET', 'regions');
    expect(regions.status).toBe(200);
    conforms(RegionList, regions.body);
    expect(regions.headers.get('cache-control')).toBe('private, max-age=3600');
    const machines = await call('GET', 'machines');
    conforms(MachineList, machines.body);
    const zones = await call('GET', 'zones', { query: { project_id: trialProject, provider_name: 'gcp', region_code: 'europe-west1' } });
    expect(zones.body).toEqual([{ name: 'europe-west1-b' }, { name: 'europe-west1-c' }, { name: 'europe-west1-d' }]);
    const disks = await call('GET', 'disk-types', { query: { project_id: trialProject, provider_slug: 'aws' } });
    expect(disks.body.map((d: { name: string }) => d.name)).toContain('st1');
  });

  it('refuses a bad trial body with a message per field, and leaves nothing behind', async () => {
    const response = await call('POST', 'integrations/clickhouse/clusters', {
      query: { project_id: trialProject },
      body: { ...trialBody, name: 'Bad_Name', shards: 2, admin_user: 'grafana', confirm_password: 'other', machine: 'm5_xlarge' },
    });
    expect(response.status).toBe(400);
    expect(response.body.details).toMatchObject({
      name: [ClusterMessage.namePattern],
      shards: [ClusterMessage.shardsMax(1)],
      admin_user: [ClusterMessage.adminUserNotAllowed],
      confirm_password: [ClusterMessage.passwordMismatch],
      machine: [ClusterMessage.trialDefaultOnly],
    });
    expect(await clusters()).toEqual([]);
  });

  let cluster: { id: number; http_port: number; tcp_port: number; host: string };

  it('creates the trial cluster: creating, then active once both nodes answer; a second one is not allowed', async () => {
    const created = await call('POST', 'integrations/clickhouse/clusters', { query: { project_id: trialProject }, body: trialBody });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    conforms(ClusterResponse, created.body.cluster);
    expect(created.body.cluster.status).toBe('creating');
    expect((await call('GET', 'integrations/clickhouse/clusters/creation', { query: { project_id: trialProject } })).body).toEqual({ allowed: false, has_payment_method: false });
    const again = await call('POST', 'integrations/clickhouse/clusters', { query: { project_id: trialProject }, body: { ...trialBody, name: 'second' } });
    expect(again.status).toBe(409);
    const list = await until(clusters, (l) => l[0]?.status !== 'creating');
    conforms(ClusterList, list);
    expect(list[0]).toMatchObject({ status: 'active', status_reason: null, host: '127.0.0.1', shards: 1, replicas: 2 });
    cluster = list[0];
    expect(await portOpen(cluster.tcp_port)).toBe(true);
  });

  it('the admin credentials work; totals, disks and time series come from the servers', async () => {
    const admin = { host: cluster.host, port: cluster.http_port, user: 'admin_one', password };
    await clickhouseExec(admin, 'CREATE TABLE default.visits (day Date, n UInt32) ENGINE = MergeTree PARTITION BY day ORDER BY n');
    await clickhouseExec(admin, "INSERT INTO default.visits VALUES ('2026-11-01', 1), ('2026-11-01', 2), ('2026-11-02', 3)");
    await clickhouseQuery(admin, 'SELECT sum(n) FROM default.visits');
    const metadata = await call('GET', 'clusters/default/metadata', { query: { project_id: trialProject } });
    expect(metadata.status).toBe(200);
    conforms(ClusterMetadata, metadata.body);
    expect(metadata.body.nodes).toHaveLength(2);
    expect(metadata.body.databases).toContain('default');
    const start = Math.floor(Date.now() / 1000) - 600;
    const metrics = await until(
      async () => (await call('GET', 'clusters/default/metrics', { query: { project_id: trialProject, start_time: start, end_time: start + 900, databases: 'default' } })).body,
      (m) => m.time_series_metrics?.some((p: { written_rows_per_second: number }) => p.written_rows_per_second > 0),
      10_000,
    );
    conforms(ClusterMetrics, metrics);
    expect(metrics.total_rows).toBe(3);
    expect(metrics.total_tables).toBe(1);
    expect(metrics.disks).toHaveLength(2);
    for (const disk of metrics.disks) expect(disk.total_space).toBeGreaterThan(disk.free_space);
  });

  it('an IP safe list without 127.0.0.1 shuts the admin out within seconds; clearing it lets them in', async () => {
    const admin = { host: cluster.host, port: cluster.http_port, user: 'admin_one', password };
    const bad = await call('PATCH', 'integrations/clickhouse/clusters', { query: { project_id: trialProject, cluster_id: cluster.id }, body: { replace: true, ip_list: ['nope'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual({ ip_list: [ClusterMessage.ipSafeList] });
    const fenced = await call('PATCH', 'integrations/clickhouse/clusters', { query: { project_id: trialProject, cluster_id: cluster.id }, body: { replace: true, ip_list: ['10.0.0.0/8'] } });
    expect(fenced.status).toBe(200);
    expect(fenced.body.cluster.ip_safe_list).toEqual(['10.0.0.0/8']);
    // ClickHouse re-reads users.xml by itself (1-4 s measured on a quiet machine; allowed 20 s under load).
    await until(() => clickhouseExec(admin, 'SELECT 1').then(() => 'in', (e) => String(e.code)), (v) => v === '195', 20_000);
    const cleared = await call('PATCH', 'integrations/clickhouse/clusters', { query: { project_id: trialProject, cluster_id: cluster.id }, body: { replace: true, ip_list: [] } });
    expect(cleared.body.cluster.ip_safe_list).toEqual([]);
    await until(() => clickhouseExec(admin, 'SELECT 1').then(() => 'in', () => 'out'), (v) => v === 'in', 20_000);
  });

  it('connects an external cluster after SELECT version(), with one answer for every way it cannot', async () => {
    const external = { is_external: true, name: 'ext', host: '127.0.0.1', http_port: cluster.http_port, tcp_port: cluster.tcp_port, secure: false, username: 'admin_one', password };
    // A wrong password, an unknown user, a closed port and a port where something else answers look the same:
    // the connect must not tell an attacker which ports are open or which users exist.
    const platformPort = Number(new URL(platform.url).port);
    for (const wrong of [{ password: 'wrong-one' }, { username: 'nobody_here' }, { http_port: 1 }, { http_port: platformPort }]) {
      const answer = await call('POST', 'integrations/clickhouse/clusters', { token: ownerToken, query: { project_id: paidProject }, body: { ...external, ...wrong } });
      expect(answer.status, JSON.stringify(wrong)).toBe(400);
      expect(answer.body.details, JSON.stringify(wrong)).toEqual({ host: [ClusterMessage.couldNotConnect] });
    }
    const connected = await call('POST', 'integrations/clickhouse/clusters', { token: ownerToken, query: { project_id: paidProject }, body: external });
    expect(connected.status).toBe(201);
    expect(connected.body.cluster).toMatchObject({ status: 'external', is_external: true, version: expect.stringMatching(/^18\.16/) });
    // Encrypted at rest: the password is nowhere in the row.
    const [row] = await platform.db.query<Record<string, unknown>>('SELECT * FROM clickhouse_clusters WHERE id = $1', [connected.body.cluster.id]);
    expect(JSON.stringify(row)).not.toContain(password);
    const metrics = await call('GET', 'clusters/ext/metrics', { token: ownerToken, query: { project_id: paidProject } });
    expect(metrics.status).toBe(200);
    expect(metrics.body.total_rows).toBe(3);
    const disconnected = await call('DELETE', 'integrations/clickhouse/clusters', { token: ownerToken, query: { project_id: paidProject, cluster_id: connected.body.cluster.id } });
    expect(disconnected.status).toBe(200);
  });

  it('a platform restart keeps the cluster active with its data', async () => {
    const { dataDir, port } = platform;
    await platform.stopKeepingData();
    expect(serversOf(dataDir)).toEqual([]);
    expect(await portOpen(cluster.http_port)).toBe(false);
    platform = await startTestPlatform({ dataDir, port, databaseUrl: platform.databaseUrl });
    const list = await clusters();
    expect(list[0]).toMatchObject({ id: cluster.id, status: 'active', http_port: cluster.http_port });
    // The servers start again in the background (requests are served meanwhile), on the same ports.
    const admin = { host: cluster.host, port: cluster.http_port, user: 'admin_one', password };
    // The servers are started again in the background after the platform's start (and, with network isolation, their
    // namespace's forwarder first): wait until they answer.
    const count = await until(() => clickhouseQuery<{ c: string }>(admin, 'SELECT count() AS c FROM default.visits').then(([row]) => Number(row.c), () => -1), (c) => c >= 0);
    expect(count).toBe(3);
  });

  it('deletes the cluster: deleting, then gone; ports closed and the folder removed', async () => {
    const deleted = await call('DELETE', 'integrations/clickhouse/clusters', { query: { project_id: trialProject, cluster_id: cluster.id } });
    expect(deleted.status).toBe(202);
    await until(clusters, (l) => l.length === 0);
    expect(await portOpen(cluster.http_port)).toBe(false);
    expect(await portOpen(cluster.tcp_port)).toBe(false);
    expect(existsSync(path.join(platform.dataDir, 'clickhouse', String(cluster.id)))).toBe(false);
  });
});
