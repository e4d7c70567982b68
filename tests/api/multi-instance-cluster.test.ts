import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import { seedDemoData } from '../../server/db/seed';
import type { HepicBackend } from '../../server/products/hepic/hepic-backend';
import type { QrynBackend } from '../../server/products/qryn/qryn-backend';
import { instanceStats } from '../../server/products/qryn/storage/stats';
import { startLocalClickhouseCluster, queryNode, type LocalClickhouseCluster } from '../support/clickhouse-cluster';
import { createTokenMinter } from '../support/mint-token';
import { createFreshPostgresDatabase, databaseTargets } from '../support/postgres';
import { enableQrynOnSeededProject } from '../support/qryn';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { freePort } from '../support/free-port';

// qryn's storage on an existing ClickHouse cluster (two local clickhouse-server 18.16 processes, one shard each, no
// ZooKeeper) shared by platform instances on one PostgreSQL (docs/qryn.md "Storage on an existing ClickHouse",
// docs/architecture.md "Growing past one machine"). On the embedded database (one instance only) the cluster part
// runs with one platform; with PostgreSQL (TEST_DATABASE_URL, as CI sets it) two instances: A a real child process
// (server/main.ts, so it can be killed with SIGKILL), B in this process.

const clusterEnv = (cluster: LocalClickhouseCluster) => ({
  QRYN_CLICKHOUSE_URL: cluster.url,
  QRYN_CLICKHOUSE_USER: cluster.user,
  QRYN_CLICKHOUSE_PASSWORD: cluster.password,
  QRYN_CLICKHOUSE_CLUSTER: cluster.name,
});

const basicOf = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

async function pushLines(instanceUrl: string, auth: string, job: string, lines: { stream: number; line: string }[]): Promise<number> {
  const now = BigInt(Date.now()) * 1_000_000n;
  const streams = new Map<number, [string, string][]>();
  lines.forEach((l, i) => {
    const values = streams.get(l.stream) ?? [];
    values.push([String(now + BigInt(i)), l.line]);
    streams.set(l.stream, values);
  });
  const response = await fetch(`${instanceUrl}/loki/api/v1/push`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ streams: [...streams].map(([stream, values]) => ({ stream: { job, stream: `s${stream}` }, values })) }),
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel();
  return response.status;
}

async function readLines(instanceUrl: string, auth: string, job: string): Promise<{ status: number; lines: string[] }> {
  const params = new URLSearchParams({
    query: `{job="${job}"}`,
    start: String((Date.now() - 3_600_000) * 1_000_000),
    end: String((Date.now() + 60_000) * 1_000_000),
    limit: '5000',
  });
  const response = await fetch(`${instanceUrl}/loki/api/v1/query_range?${params}`, { headers: { authorization: auth } });
  if (response.status !== 200) {
    await response.body?.cancel();
    return { status: response.status, lines: [] };
  }
  const body = (await response.json()) as { data: { result: { values: [string, string][] }[] } };
  return { status: 200, lines: body.data.result.flatMap((r) => r.values.map(([, line]) => line)) };
}

/** Rows of a table on each node (its local table): the Distributed table spread them by fingerprint. */
async function rowsPerShard(cluster: LocalClickhouseCluster, database: string, table: string): Promise<number[]> {
  return Promise.all(cluster.nodes.map((_, i) => queryNode(cluster, i, `SELECT count() FROM ${database}.${table}_local`).then(Number)));
}

let cluster: LocalClickhouseCluster;
beforeAll(async () => {
  cluster = await startLocalClickhouseCluster({ shards: 2 });
});
afterAll(async () => {
  await cluster?.close();
});

describe.each(databaseTargets())('qryn on a two-shard ClickHouse cluster ($kind)', (target) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  // The embedded database serves one platform process: the cluster part only. With PostgreSQL: two instances.
  if (target.kind === 'pglite') it('creates the schema on every node, spreads a series per shard, reads (Loki and PromQL), counts and drops partitions across the shards', async () => {
    // Seeded beforehand, so the platform does not provision the demo products too.
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cluster-embedded-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const setup = await openDatabase({ dataDir });
    await seedDemoData(setup);
    await setup.close();
    const platform = await startTestPlatform({ embedded: true, dataDir, seed: false, env: clusterEnv(cluster) });
    cleanups.push(() => platform.stop());
    const { qryn } = await enableQrynOnSeededProject(platform, 'Acme Production');
    const database = `qryn_${qryn.instanceId}`;
    for (let node = 0; node < 2; node++) {
      const tables = await queryNode(cluster, node, `SELECT name, engine FROM system.tables WHERE database = '${database}' ORDER BY name FORMAT TSV`);
      expect(tables).toContain('log_samples\tDistributed');
      expect(tables).toContain('log_samples_local\tMergeTree');
      expect(tables).toContain('time_series_local\tReplacingMergeTree');
    }
    const lines = Array.from({ length: 60 }, (_, i) => ({ stream: i % 12, line: `cluster line ${i}` }));
    expect(await pushLines(qryn.url, qryn.basic, 'cluster', lines)).toBe(204);
    const read = await readLines(qryn.url, qryn.basic, 'cluster');
    expect(read.lines.sort()).toEqual(lines.map((l) => l.line).sort());
    // Each series lives on one shard, and both shards hold some: the sharding key is the fingerprint.
    const perShard = await rowsPerShard(cluster, database, 'log_samples');
    expect(perShard.every((n) => n > 0)).toBe(true);
    expect(perShard[0] + perShard[1]).toBe(60);
    // PromQL runs in the worker threads, which get the storage's URL with the cluster's settings.
    const influx = Array.from({ length: 8 }, (_, i) => `cluster_cpu,host=h${i} value=${i}`).join('\n');
    const written = await fetch(`${qryn.url}/write?precision=s`, { method: 'POST', headers: { authorization: qryn.basic }, body: influx });
    expect(written.status).toBe(204);
    const promql = await fetch(`${qryn.url}/api/v1/query?query=${encodeURIComponent('sum(cluster_cpu_value)')}`, { headers: { authorization: qryn.basic } });
    expect(promql.status).toBe(200);
    expect(((await promql.json()) as { data: { result: { value: [number, string] }[] } }).data.result[0].value[1]).toBe('28');
    const backend = platform.products.get('qryn') as QrynBackend;
    const client = await backend.storageOf((await platform.db.query<{ project_id: number; cluster_id: string; id: string }>('SELECT * FROM qryn_instances WHERE id = $1', [qryn.instanceId]))[0] as never);
    const now = Math.floor(Date.now() / 1000);
    const stats = await instanceStats(client, database, { start: now - 3600, end: now + 60 }, { ttlDays: 30, fingerprintLimit: 0, today: new Date().toISOString().slice(0, 10) });
    expect(stats.logs_rows).toBe(60);
    expect(stats.logs_bytes).toBeGreaterThan(0);
    // Retention drops old day partitions on every shard.
    await client.insert(`${database}.log_samples`, ['date', 'fingerprint', 'timestamp_ns', 'line'], [
      ['2001-01-01', '1', '978307200000000000', 'old one'],
      ['2001-01-01', '2', '978307200000000001', 'old two'],
    ]);
    expect(await backend.runRetention()).toEqual(expect.arrayContaining([`${qryn.instanceId}:log_samples/2001-01-01`]));
    expect((await rowsPerShard(cluster, database, 'log_samples')).reduce((a, b) => a + b)).toBe(60);
  }, 90_000);

  if (target.kind === 'postgres') it('two platform instances share it: pushed on A, read on B; a key rotated on A is refused by B at once; A killed in a push burst loses no acknowledged line', async () => {
    if (target.kind !== 'postgres') return;
    const fresh = await createFreshPostgresDatabase(target.serverUrl);
    cleanups.push(fresh.drop);
    const hepPort = await freePort();
    const portA = await freePort();
    const dirA = await mkdtemp(path.join(tmpdir(), 'instance-a-'));
    cleanups.push(() => rm(dirA, { recursive: true, force: true }));
    const envA: Record<string, string> = {
      ...clusterEnv(cluster),
      PORT: String(portA),
      HOST: '127.0.0.1',
      DATA_DIR: dirA,
      DATABASE_URL: fresh.url,
      HEP_PORT: String(hepPort),
      SOCIAL_STAND_IN: 'false',
    };
    const configA = loadConfig({ ...envA, NODE_ENV: 'test' });
    // The data is prepared first (migrations, demo accounts), so neither instance provisions demo products.
    const setup = await openDatabase({ url: fresh.url });
    await seedDemoData(setup);
    await setup.close();

    const childA = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      env: { ...process.env, ...envA, NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let outA = '';
    childA.stdout?.on('data', (chunk) => (outA = (outA + chunk).slice(-20_000)));
    childA.stderr?.on('data', (chunk) => (outA = (outA + chunk).slice(-20_000)));
    const killA = async () => {
      if (childA.exitCode !== null || childA.signalCode !== null) return;
      const exited = new Promise((resolve) => childA.once('exit', resolve));
      childA.kill('SIGKILL');
      await exited;
    };
    cleanups.push(killA);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (childA.exitCode !== null) throw new Error(`instance A exited: ${outA}`);
      const ok = await fetch(`${configA.publicUrl}/healthz`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
      if (ok && outA.includes('is running at')) break;
      if (Date.now() > deadline) throw new Error(`instance A did not start: ${outA}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(outA).toContain(`owns the HEP port ${hepPort}`);

    // B keeps a credential's access for a minute (the gateway reads QRYN_AUTH_CACHE_MS when it starts), so a refusal
    // within seconds of a rotation on A can only come from A's notification, not from B's cache running out.
    process.env.QRYN_AUTH_CACHE_MS = '60000';
    const platformB: TestPlatform = await startTestPlatform({ databaseUrl: fresh.url, seed: false, env: { ...clusterEnv(cluster), HEP_PORT: String(hepPort) } }).finally(() => {
      delete process.env.QRYN_AUTH_CACHE_MS;
    });
    cleanups.push(() => platformB.stopKeepingData());
    // One instance owns the HEP port: B skipped its listener.
    const hepicB = platformB.products.get('hepic') as HepicBackend;
    expect(hepicB.listener()).toBeUndefined();

    const { qryn, projectId } = await enableQrynOnSeededProject(platformB, 'Acme Production');
    const onA = `${configA.publicUrl}/qryn/${qryn.instanceId}`;
    const onB = `${platformB.url}/qryn/${qryn.instanceId}`;

    // Pushed through A, read through B.
    const lines = Array.from({ length: 40 }, (_, i) => ({ stream: i % 8, line: `shared line ${i}` }));
    expect(await pushLines(onA, qryn.basic, 'shared', lines)).toBe(204);
    const read = await readLines(onB, qryn.basic, 'shared');
    expect(read.status).toBe(200);
    expect(read.lines.sort()).toEqual(lines.map((l) => l.line).sort());

    // B has the credentials in its cache now; rotated on A, they are refused by B as soon as A's notification arrives.
    const demo = (await platformB.db.query<{ id: string }>("SELECT id FROM users WHERE email = 'demo@example.com'"))[0];
    const acme = (await platformB.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    const tokenA = await (await createTokenMinter(platformB.db, configA))(demo as never, { organizationId: acme });
    const rotated = await fetch(`${configA.publicUrl}/api/integrations/qryn/config/credentials/rotate?project_id=${projectId}`, { headers: { authorization: `Bearer ${tokenA}` } });
    expect(rotated.status).toBe(200);
    const fresher = (await rotated.json()) as { api_key: string; api_secret: string };
    // PostgreSQL sends the notification when A's change commits, before A answers; B handles it when it arrives on
    // its listening connection, which on a busy machine can be a moment after A's answer reached this test.
    const refusedWithin = Date.now() + 5_000;
    let oldKeyOnB = (await readLines(onB, qryn.basic, 'shared')).status;
    while (oldKeyOnB === 200 && Date.now() < refusedWithin) {
      await new Promise((r) => setTimeout(r, 50));
      oldKeyOnB = (await readLines(onB, qryn.basic, 'shared')).status;
    }
    expect(oldKeyOnB).toBe(401);
    expect(await pushLines(onB, qryn.basic, 'shared', [{ stream: 0, line: 'old key' }])).toBe(401);
    const auth = basicOf(fresher.api_key, fresher.api_secret);
    expect((await readLines(onB, auth, 'shared')).status).toBe(200);

    // A push burst on A, killed with SIGKILL part-way: every push A acknowledged is readable through B.
    const acknowledged: string[] = [];
    let killed = false;
    const worker = async (w: number) => {
      for (let i = 0; i < 200 && !killed; i++) {
        const batch = Array.from({ length: 10 }, (_, j) => ({ stream: (w + j) % 6, line: `burst ${w}-${i}-${j}` }));
        const status = await pushLines(onA, auth, 'burst', batch).catch(() => 0);
        if (status === 204) {
          acknowledged.push(...batch.map((b) => b.line));
          if (acknowledged.length >= 300 && !killed) {
            killed = true;
            childA.kill('SIGKILL');
          }
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
    expect(killed).toBe(true);
    await killA();
    expect(childA.signalCode).toBe('SIGKILL');
    const burst = new Set((await readLines(onB, auth, 'burst')).lines);
    const lost = acknowledged.filter((line) => !burst.has(line));
    expect(lost).toEqual([]);

    // B keeps serving, and takes the HEP port over once A's lease is gone with its connection.
    expect(await pushLines(onB, auth, 'after', [{ stream: 1, line: 'after the kill' }])).toBe(204);
    expect((await readLines(onB, auth, 'after')).lines).toEqual(['after the kill']);
    const until = Date.now() + 15_000;
    while (!hepicB.listener() && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect(hepicB.listener()?.port).toBe(hepPort);
  }, 120_000);
});
