import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { insertCluster, replaceProcesses } from '../../server/db/repositories/clickhouse-repository';
import { clickhouseExec, clickhouseQuery, ClickhouseError } from '../../server/products/clickhouse/clickhouse-http';
import { createLocalProvisioner, type LocalProvisioner } from '../../server/products/clickhouse/local-provisioner';
import { isAlive } from '../../server/processes/server-supervisor';
import { ProvisionError, type ClusterPlan } from '../../server/products/clickhouse/provisioner';

// Real clickhouse-server processes (Debian's 18.16): a two-shard cluster is created, used over HTTP with the admin
// credentials, fenced by an IP safe list, re-adopted after its provisioner is dropped without stopping, and deleted.

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
const waitFor = async (check: () => Promise<boolean>, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
};

describe('local provisioner (real clickhouse-server)', () => {
  let dir: string;
  let db: Database;
  let provisioner: LocalProvisioner;
  let plan: ClusterPlan;
  const password = 'Secret123!';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ch-prov-'));
    db = await openDatabase({});
    const user = (await db.query<{ id: string }>("INSERT INTO users (email) VALUES ('p@example.com') RETURNING id"))[0];
    const project = (await db.query<{ id: number }>('INSERT INTO projects (name, user_id) VALUES ($1, $2) RETURNING id', ['P', user.id]))[0];
    const cluster = await insertCluster(db, {
      project_id: project.id,
      integration_id: null,
      name: 'twoshards',
      status: 'creating',
      is_external: false,
      provider: 'aws',
      region_code: 'eu-central-1',
      machine: 'm5_large',
      shards: 2,
      replicas: 1,
      disks: [],
      version: '18.16',
      zonal: false,
      zones: [],
      control_plane_zone: null,
      ip_safe_list: [],
      admin_user: 'admin_one',
      admin_password_sha256: sha256(password),
      pending_admin_secret: null,
      host: '',
      http_port: 0,
      tcp_port: 0,
      secure: false,
      external_credentials: null,
      created_by: user.id,
    });
    plan = { clusterId: cluster.id, name: 'twoshards', shards: 2, replicas: 1, adminUser: 'admin_one', adminPasswordSha256: sha256(password), ipSafeList: [], version: '18.16' };
    provisioner = createLocalProvisioner({ db, root: path.join(dir, 'clickhouse') });
  });
  afterAll(async () => {
    await provisioner?.close();
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates one server per node that answers with the admin credentials; cluster() spans both shards', async () => {
    const progress: number[] = [];
    const nodes = await provisioner.provision(plan, { adminPassword: password, progress: async (c) => void progress.push(c) });
    expect(nodes.map((n) => [n.shard, n.replica])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(progress).toEqual([0, 1, 2]);
    const [a, b] = nodes.map((n) => ({ host: n.host, port: n.httpPort, user: 'admin_one', password }));
    for (const endpoint of [a, b]) await clickhouseExec(endpoint, 'CREATE TABLE IF NOT EXISTS default.events (n UInt32) ENGINE = MergeTree ORDER BY n');
    await clickhouseExec(a, 'INSERT INTO default.events VALUES (1), (2), (3)');
    await clickhouseExec(b, 'INSERT INTO default.events VALUES (4)');
    const rows = await clickhouseQuery<{ c: string }>(a, "SELECT count() AS c FROM cluster('twoshards', default, events)");
    expect(Number(rows[0].c)).toBe(4);
    await expect(clickhouseExec({ ...a, password: 'wrong-password' }, 'SELECT 1')).rejects.toMatchObject({ code: 193 });
  });

  it('an IP safe list without 127.0.0.1 refuses the admin; clearing it lets them in again', async () => {
    const [node] = await provisioner.nodes(plan.clusterId);
    const admin = { host: node.host, port: node.httpPort, user: 'admin_one', password };
    await provisioner.applyIpSafeList({ ...plan, ipSafeList: ['10.0.0.0/8', '192.0.2.1/32'] });
    let refused: unknown;
    await waitFor(async () => {
      try {
        await clickhouseExec(admin, 'SELECT 1');
        return false;
      } catch (error) {
        refused = error;
        return true;
      }
    });
    expect(refused).toBeInstanceOf(ClickhouseError);
    expect((refused as ClickhouseError).code).toBe(195);
    // The platform's own user still reaches the node (health checks, metrics).
    expect(await provisioner.healthy(plan.clusterId)).toBe(true);
    await provisioner.applyIpSafeList({ ...plan, ipSafeList: [] });
    await waitFor(async () => clickhouseExec(admin, 'SELECT 1').then(() => true, () => false));
  });

  it('two changes within one second both reach the server: each rewrite moves users.xml to a later second (18.16 compares whole seconds)', async () => {
    const [node] = await provisioner.nodes(plan.clusterId);
    const usersXml = path.join(node.dataDir, 'users.xml');
    const second = async () => Math.floor((await stat(usersXml)).mtimeMs / 1000);
    const seconds = [await second()];
    for (const list of [['10.0.0.0/8'], ['10.0.0.0/8', '127.0.0.1'], []]) {
      await provisioner.applyIpSafeList({ ...plan, ipSafeList: list });
      seconds.push(await second());
    }
    for (let i = 1; i < seconds.length; i++) expect(seconds[i]).toBeGreaterThan(seconds[i - 1]);
    const admin = { host: node.host, port: node.httpPort, user: 'admin_one', password };
    await waitFor(async () => clickhouseExec(admin, 'SELECT 1').then(() => true, () => false));
  });

  it('a new provisioner (platform restart) replaces the servers left running: stopped, started again on the same ports with the data', async () => {
    const before = await db.query<{ pid: number }>('SELECT pid FROM clickhouse_processes WHERE cluster_id = $1 ORDER BY idx', [plan.clusterId]);
    const second = createLocalProvisioner({ db, root: path.join(dir, 'clickhouse') });
    const failures = await second.restore([plan]);
    expect(failures).toEqual([]);
    const after = await db.query<{ pid: number }>('SELECT pid FROM clickhouse_processes WHERE cluster_id = $1 ORDER BY idx', [plan.clusterId]);
    for (let i = 0; i < before.length; i++) expect(after[i].pid).not.toBe(before[i].pid);
    for (const { pid } of before) await waitFor(async () => !isAlive(pid), 5_000);
    // The data survived: both shards still hold their rows.
    const [node] = await second.nodes(plan.clusterId);
    const rows = await clickhouseQuery<{ c: string }>({ host: node.host, port: node.httpPort, user: 'admin_one', password }, "SELECT count() AS c FROM cluster('twoshards', default, events)");
    expect(Number(rows[0].c)).toBe(4);
    // The first provisioner does not start its servers again on folders the second one runs.
    await new Promise((r) => setTimeout(r, 1_500));
    const still = await db.query<{ pid: number }>('SELECT pid FROM clickhouse_processes WHERE cluster_id = $1 ORDER BY idx', [plan.clusterId]);
    expect(still).toEqual(after);
    // close() of the second provisioner stops them; a restore then starts them again on the same ports.
    await second.close();
    for (const { pid } of after) await waitFor(async () => !isAlive(pid), 5_000);
    expect(await provisioner.restore([plan])).toEqual([]);
    expect(await provisioner.healthy(plan.clusterId)).toBe(true);
  });

  it('a node that cannot start (its port is taken) fails the provisioning with the reason, and nothing keeps running', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const row = (await db.query<{ id: number }>("INSERT INTO clickhouse_clusters (project_id, name, status) SELECT project_id, 'blocked', 'creating' FROM clickhouse_clusters LIMIT 1 RETURNING id"))[0];
      const nodeDir = path.join(dir, 'clickhouse', String(row.id), 'node-1');
      await replaceProcesses(db, row.id, [{ idx: 0, http_port: taken, tcp_port: taken, data_dir: nodeDir, pid: null }], [{ shard: 1, replica: 1, process_idx: 0, database: null }]);
      const blocked = { ...plan, clusterId: row.id, name: 'blocked', shards: 1 };
      await expect(provisioner.provision(blocked, { adminPassword: password })).rejects.toThrow(ProvisionError);
      // Outside a network namespace the server itself fails to bind; inside one, the host's side of its forwarder.
      await expect(provisioner.provision(blocked, { adminPassword: password })).rejects.toThrow(/Address already in use/);
      const [{ pid }] = await db.query<{ pid: number | null }>('SELECT pid FROM clickhouse_processes WHERE cluster_id = $1', [row.id]);
      expect(pid === null || !isAlive(pid)).toBe(true);
      await provisioner.destroy(row.id);
    } finally {
      blocker.close();
    }
  });

  it('destroy stops every server (ports closed) and removes the data folder', async () => {
    const nodes = await provisioner.nodes(plan.clusterId);
    const pids = await db.query<{ pid: number }>('SELECT pid FROM clickhouse_processes WHERE cluster_id = $1', [plan.clusterId]);
    await provisioner.destroy(plan.clusterId);
    for (const n of nodes) {
      expect(await portOpen(n.httpPort)).toBe(false);
      expect(await portOpen(n.tcpPort)).toBe(false);
    }
    // Gone (a zombie waits a moment for init to reap it).
    for (const { pid } of pids) await waitFor(async () => !isAlive(pid), 5_000);
    expect(existsSync(path.join(dir, 'clickhouse', String(plan.clusterId)))).toBe(false);
  });
});
