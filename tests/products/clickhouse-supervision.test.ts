import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { insertCluster } from '../../server/db/repositories/clickhouse-repository';
import { clickhouseExec } from '../../server/products/clickhouse/clickhouse-http';
import { createLocalProvisioner, type LocalProvisioner } from '../../server/products/clickhouse/local-provisioner';
import { isAlive } from '../../server/processes/server-supervisor';
import type { ClusterPlan } from '../../server/products/clickhouse/provisioner';
import type { ExitReport } from '../../server/processes/server-supervisor';

// The managed servers under the supervisor, with real clickhouse-server processes and injected faults: a customer's
// SYSTEM SHUTDOWN / SYSTEM KILL (ClickHouse 18.16 signals its whole process group), a killed server, a killed
// platform, and an IP safe list that shuts out 127.0.0.1 at creation.

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const password = 'Secret123!';
const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
};
const answers = (port: number, user = 'admin_one', pass = password) =>
  clickhouseExec({ host: '127.0.0.1', port, user, password: pass }, 'SELECT 1', { timeoutMs: 1_000 }).then(
    () => true,
    () => false,
  );

describe('a platform process whose tenants run SYSTEM SHUTDOWN and SYSTEM KILL', () => {
  let dir: string;
  let child: ChildProcess;
  let exited = false;
  const events: { event: string; clusterId: number }[] = [];
  let ready: { clusters: { id: number; httpPort: number }[]; pids: number[] };
  const ping = () =>
    new Promise<number[]>((resolve, reject) => {
      const onMessage = (m: unknown) => {
        if ((m as { pong?: boolean }).pong) {
          child.off('message', onMessage);
          resolve((m as { pids: number[] }).pids);
        }
      };
      child.on('message', onMessage);
      child.send('ping');
      setTimeout(() => reject(new Error('the platform process did not answer')), 5_000);
    });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ch-supervision-'));
    child = fork(path.join(import.meta.dirname, '../support/clickhouse-platform-child.ts'), [dir, password], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.once('exit', () => (exited = true));
    ready = await new Promise((resolve, reject) => {
      child.on('message', (m) => {
        const message = m as { ready?: boolean; event?: string; clusterId: number };
        if (message.ready) resolve(m as typeof ready);
        if (message.event) events.push(message as { event: string; clusterId: number });
      });
      child.once('exit', (code) => reject(new Error(`the platform process exited ${code}`)));
    });
  }, 60_000);
  afterAll(async () => {
    if (!exited) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('SYSTEM SHUTDOWN from one tenant stops only that server: the platform and the other tenant stay up, and the server comes back', async () => {
    const [a, b] = ready.clusters;
    const [pidA, pidB] = ready.pids;
    await clickhouseExec({ host: '127.0.0.1', port: a.httpPort, user: 'admin_one', password }, 'SYSTEM SHUTDOWN').catch(() => undefined);
    expect(await waitFor(() => !isAlive(pidA))).toBe(true);
    expect(exited).toBe(false);
    expect((await ping())[1]).toBe(pidB);
    expect(isAlive(pidB)).toBe(true);
    expect(await answers(b.httpPort)).toBe(true);
    expect(await waitFor(() => answers(a.httpPort))).toBe(true);
    expect(await waitFor(() => events.some((e) => e.event === 'recovered' && e.clusterId === a.id))).toBe(true);
    expect(events.find((e) => e.event === 'down')).toMatchObject({ clusterId: a.id, report: { restarting: true } });
  }, 60_000);

  it('SYSTEM KILL (SIGKILL to the group) likewise: the platform survives and the server is started again', async () => {
    const [a, b] = ready.clusters;
    const [pidA] = await ping();
    await clickhouseExec({ host: '127.0.0.1', port: a.httpPort, user: 'admin_one', password }, 'SYSTEM KILL').catch(() => undefined);
    expect(await waitFor(() => !isAlive(pidA))).toBe(true);
    expect(exited).toBe(false);
    expect(await answers(b.httpPort)).toBe(true);
    expect(await waitFor(async () => (await ping())[0] !== pidA && (await answers(a.httpPort)))).toBe(true);
  }, 60_000);

  it('a platform killed with SIGKILL leaves no managed server running', async () => {
    const pids = await ping();
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
    for (const pid of pids) expect(await waitFor(() => !isAlive(pid), 25_000)).toBe(true);
  }, 60_000);
});

describe('supervised managed servers in this process', () => {
  let dir: string;
  let db: Database;
  let provisioner: LocalProvisioner;
  let projectId: number;
  let userId: string;
  const reports: { clusterId: number; report: ExitReport }[] = [];
  const recovered: number[] = [];
  const unwanted = new Set<number>();

  const newCluster = async (name: string, ipSafeList: string[] = []): Promise<ClusterPlan> => {
    const row = await insertCluster(db, {
      project_id: projectId, integration_id: null, name, status: 'creating', is_external: false, provider: 'aws', region_code: 'eu-central-1',
      machine: 'm5_large', shards: 1, replicas: 1, disks: [], version: '18.16', zonal: false, zones: [], control_plane_zone: null, ip_safe_list: ipSafeList,
      admin_user: 'admin_one', admin_password_sha256: sha256(password), pending_admin_secret: null, host: '', http_port: 0, tcp_port: 0, secure: false,
      external_credentials: null, created_by: userId,
    });
    return { clusterId: row.id, name, shards: 1, replicas: 1, adminUser: 'admin_one', adminPasswordSha256: sha256(password), ipSafeList, version: '18.16' };
  };
  const pidOf = async (clusterId: number) => (await db.query<{ pid: number }>('SELECT pid FROM clickhouse_processes WHERE cluster_id = $1', [clusterId]))[0].pid;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ch-supervised-'));
    db = await openDatabase({});
    userId = (await db.query<{ id: string }>("INSERT INTO users (email) VALUES ('s@example.com') RETURNING id"))[0].id;
    projectId = (await db.query<{ id: number }>('INSERT INTO projects (name, user_id) VALUES ($1, $2) RETURNING id', ['S', userId]))[0].id;
    provisioner = createLocalProvisioner({
      db,
      root: path.join(dir, 'clickhouse'),
      startTimeoutMs: 15_000,
      restart: { initialDelayMs: 200 },
      events: {
        down: async (clusterId, _node, report) => void reports.push({ clusterId, report }),
        recovered: async (clusterId) => void recovered.push(clusterId),
        shouldRun: async (clusterId) => !unwanted.has(clusterId),
      },
    });
  });
  afterAll(async () => {
    await provisioner?.close();
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a cluster whose IP safe list shuts out 127.0.0.1 is created: readiness is checked as the platform\'s own user', async () => {
    const plan = await newCluster('fenced', ['10.0.0.0/8']);
    const [node] = await provisioner.provision(plan, { adminPassword: password });
    // The admin is refused from here (code 195), as the customer asked; the platform's user still reaches it.
    await expect(clickhouseExec({ host: node.host, port: node.httpPort, user: 'admin_one', password }, 'SELECT 1')).rejects.toMatchObject({ code: 195 });
    expect(await provisioner.healthy(plan.clusterId)).toBe(true);
    await provisioner.destroy(plan.clusterId);
  }, 40_000);

  it('a wrong admin password still fails the creation, with a reason that says so', async () => {
    const plan = await newCluster('wrongpass');
    await expect(provisioner.provision(plan, { adminPassword: 'not-the-password' })).rejects.toThrow(/does not accept the admin user's credentials/);
    await provisioner.destroy(plan.clusterId);
  }, 40_000);

  it('a managed server killed with SIGKILL is reported down, started again with a new pid, and reported back', async () => {
    const plan = await newCluster('killed');
    const [node] = await provisioner.provision(plan, { adminPassword: password });
    const before = await pidOf(plan.clusterId);
    process.kill(before, 'SIGKILL');
    expect(await waitFor(() => recovered.includes(plan.clusterId))).toBe(true);
    expect(reports.find((r) => r.clusterId === plan.clusterId)?.report).toMatchObject({ restarting: true, attempt: 1 });
    expect(await pidOf(plan.clusterId)).not.toBe(before);
    expect(await answers(node.httpPort)).toBe(true);
    expect(await provisioner.running(plan.clusterId)).toBe(true);
  }, 40_000);

  it('a server whose cluster should no longer run (row deleted) is not started again', async () => {
    const plan = await newCluster('orphan');
    const [node] = await provisioner.provision(plan, { adminPassword: password });
    unwanted.add(plan.clusterId);
    const before = await pidOf(plan.clusterId);
    process.kill(before, 'SIGKILL');
    expect(await waitFor(() => reports.some((r) => r.clusterId === plan.clusterId))).toBe(true);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await answers(node.httpPort)).toBe(false);
    expect(await provisioner.running(plan.clusterId)).toBe(false);
  }, 40_000);
});
