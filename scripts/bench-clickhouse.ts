import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { startPlatform } from '../server/platform';
import { createIntegration } from '../server/db/repositories/integrations-repository';
import { findUserByEmail } from '../server/db/repositories/users-repository';
import { clickhouseExec } from '../server/products/clickhouse/clickhouse-http';
import { createTokenMinter } from '../tests/support/mint-token';

// `npm run bench:clickhouse`: the whole platform (embedded database on disk, demo data, the job worker) creates
// managed clusters of a few shapes through POST integrations/clickhouse/clusters and reports, per shape, the time
// from the request to status active (every node answers SELECT 1 with the admin credentials) and from DELETE to
// the cluster being gone (servers stopped, ports closed, folder removed). Real clickhouse-server processes; the
// local cap (4 processes per cluster by default) applies, so larger shapes share processes.
// Then the supervisor's recovery: a 1 x 1 cluster's server is killed (kill -9), shut down by the customer (SYSTEM
// SHUTDOWN) and killed with its group (SYSTEM KILL); reported is the time until it answers the admin again.

// BENCH_SMOKE=1: one 1 x 1 cluster and one fault (kill -9) (tests/bench/bench-smoke.test.ts keeps it working).
const SMOKE = process.env.BENCH_SMOKE === '1';
const SHAPES = (process.env.BENCH_SHAPES ?? (SMOKE ? '1x1' : '1x1,1x2,2x2,3x2'))
  .split(',')
  .map((s) => s.trim().split('x').map(Number) as [number, number]);

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-clickhouse-'));
  const platform = await startPlatform(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'test' }), { quiet: true });
  try {
    const demo = (await findUserByEmail(platform.db, 'demo@example.com'))!;
    const acme = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    const projectId = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
    await createIntegration(platform.db, { projectId, productSlug: 'clickhouse', status: 'active', creatorUserId: demo.id });
    const token = await (await createTokenMinter(platform.db, platform.config))(demo, { organizationId: acme, expiresIn: 3600 });
    const api = async (method: string, query: Record<string, string | number>, body?: unknown) => {
      const url = new URL('/api/integrations/clickhouse/clusters', platform.url);
      for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
      const response = await fetch(url, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
      return { status: response.status, body: await response.json() };
    };
    const list = async () => (await api('GET', { project_id: projectId })).body as { id: number; status: string; status_reason: string | null; http_port: number }[];

    console.log(`shape (shards x replicas)  processes  create → active  delete → gone`);
    for (const [shards, replicas] of SHAPES) {
      const name = `bench-${shards}x${replicas}`;
      const started = performance.now();
      const created = await api('POST', { project_id: projectId }, {
        name, provider: 'aws', region_code: 'eu-central-1', machine: 'm5_large', version: '18.16', shards, replicas,
        disks: [{ name: 'default', type: 'gp3', size: 150, unit_type: 'Decimal' }], ip_safe_list: '', admin_user: 'bench_admin', admin_password: 'Bench1234', confirm_password: 'Bench1234',
      });
      if (created.status !== 201) throw new Error(`create ${name}: ${created.status} ${JSON.stringify(created.body)}`);
      const id = created.body.cluster.id as number;
      let cluster;
      for (;;) {
        cluster = (await list()).find((c) => c.id === id)!;
        if (cluster.status !== 'creating') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const activeMs = performance.now() - started;
      if (cluster.status !== 'active') throw new Error(`${name} ended ${cluster.status}: ${cluster.status_reason}`);
      const processes = (await platform.db.query<{ n: number }>('SELECT count(*)::int AS n FROM clickhouse_processes WHERE cluster_id = $1', [id]))[0].n;
      const deleting = performance.now();
      const deleted = await api('DELETE', { project_id: projectId, cluster_id: id });
      if (deleted.status !== 202) throw new Error(`delete ${name}: ${deleted.status}`);
      while ((await list()).some((c) => c.id === id)) await new Promise((r) => setTimeout(r, 50));
      const goneMs = performance.now() - deleting;
      if (await portOpen(cluster.http_port)) throw new Error(`${name}: port ${cluster.http_port} still open after delete`);
      console.log(`${`${shards} x ${replicas}`.padEnd(27)}${String(processes).padEnd(11)}${`${(activeMs / 1000).toFixed(2)} s`.padEnd(17)}${(goneMs / 1000).toFixed(2)} s`);
    }

    console.log(`\nfault on a 1 x 1 cluster       server answers again`);
    const created = await api('POST', { project_id: projectId }, {
      name: 'bench-faults', provider: 'aws', region_code: 'eu-central-1', machine: 'm5_large', version: '18.16', shards: 1, replicas: 1,
      disks: [{ name: 'default', type: 'gp3', size: 150, unit_type: 'Decimal' }], ip_safe_list: '', admin_user: 'bench_admin', admin_password: 'Bench1234', confirm_password: 'Bench1234',
    });
    const id = created.body.cluster.id as number;
    while ((await list()).find((c) => c.id === id)!.status === 'creating') await new Promise((r) => setTimeout(r, 50));
    const admin = { host: '127.0.0.1', port: (await list()).find((c) => c.id === id)!.http_port, user: 'bench_admin', password: 'Bench1234' };
    const pid = async () => (await platform.db.query<{ pid: number }>('SELECT pid FROM clickhouse_processes WHERE cluster_id = $1', [id]))[0].pid;
    const faults: [string, () => Promise<unknown>][] = [
      ['kill -9 of the server', async () => process.kill(await pid(), 'SIGKILL')],
      ['SYSTEM SHUTDOWN (customer)', () => clickhouseExec(admin, 'SYSTEM SHUTDOWN').catch(() => undefined)],
      ['SYSTEM KILL (customer)', () => clickhouseExec(admin, 'SYSTEM KILL').catch(() => undefined)],
    ];
    for (const [fault, inject] of SMOKE ? faults.slice(0, 1) : faults) {
      const before = await pid();
      const started = performance.now();
      await inject();
      for (;;) {
        if ((await pid()) !== before && (await clickhouseExec(admin, 'SELECT 1', { timeoutMs: 500 }).then(() => true, () => false))) break;
        if (performance.now() - started > 120_000) throw new Error(`${fault}: the server did not come back within 120 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
      console.log(`${fault.padEnd(31)}${((performance.now() - started) / 1000).toFixed(2)} s`);
    }
    await api('DELETE', { project_id: projectId, cluster_id: id });
    while ((await list()).some((c) => c.id === id)) await new Promise((r) => setTimeout(r, 50));
  } finally {
    await platform.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
