import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterMessage } from '../../contract/clickhouse';
import { createIntegration } from '../../server/db/repositories/integrations-repository';
import { createProject } from '../../server/db/repositories/projects-repository';
import { findUserByEmail } from '../../server/db/repositories/users-repository';
import { networkEntry } from '../../server/products/clickhouse/server-config';
import { createTokenMinter } from '../support/mint-token';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';

// The platform's supervision of managed clusters through the API, with real clickhouse-server processes: a server
// that dies is reported on the cluster row and comes back; deleting a project leaves no server or folder behind;
// concurrent IP safe list changes leave the database and users.xml equal; a provisioning job that fails early
// leaves the cluster failed, not creating; the platform's own user name cannot be taken as the admin.

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000, everyMs = 200): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out, last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
};
const serversOf = (folder: string) => {
  try {
    return execFileSync('pgrep', ['-f', folder], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
};
const listen = (port: number) =>
  new Promise<Server | undefined>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

describe('supervised managed clusters through the API (real servers)', () => {
  let platform: TestPlatform;
  let token: string;
  let projectId: number;
  let projectToDelete: number;
  const password = 'Secret123!';
  const body = (name: string) => ({
    name,
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
  });

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
  const clusterRow = async (id: number) => (await platform.db.query<{ status: string; status_reason: string | null; ip_safe_list: string[] }>('SELECT status, status_reason, ip_safe_list FROM clickhouse_clusters WHERE id = $1', [id]))[0];
  const createActive = async (project: number, name: string) => {
    const created = await call('POST', 'integrations/clickhouse/clusters', { query: { project_id: project }, body: body(name) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.cluster.id as number;
    await until(() => clusterRow(id), (r) => r.status !== 'creating');
    expect(await clusterRow(id)).toMatchObject({ status: 'active' });
    const [p] = await platform.db.query<{ http_port: number; data_dir: string; pid: number }>('SELECT http_port, data_dir, pid FROM clickhouse_processes WHERE cluster_id = $1', [id]);
    return { id, ...p };
  };

  beforeAll(async () => {
    // The servers on the host's network: the port-taking case below needs the server's own port on the host (with
    // network isolation the host side of that port is the platform's forwarder, which no test can take away).
    // Isolation itself is tested in cluster-isolation.test.ts.
    process.env.CLICKHOUSE_NETWORK_ISOLATION = 'off';
    platform = await startTestPlatform();
    const demo = (await findUserByEmail(platform.db, 'demo@example.com'))!;
    const acme = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    token = await (await createTokenMinter(platform.db, platform.config))(demo, { organizationId: acme, expiresIn: 3600 });
    projectId = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
    await createIntegration(platform.db, { projectId, productSlug: 'clickhouse', status: 'active', creatorUserId: demo.id });
    projectToDelete = (await createProject(platform.db, { name: 'Short lived', organizationId: acme, userId: demo.id, billingAccountId: null })).id;
    await createIntegration(platform.db, { projectId: projectToDelete, productSlug: 'clickhouse', status: 'active', creatorUserId: demo.id });
  });
  afterAll(async () => {
    const dataDir = platform?.dataDir;
    await platform?.stop();
    delete process.env.CLICKHOUSE_NETWORK_ISOLATION;
    if (dataDir) expect(serversOf(path.join(dataDir, 'clickhouse'))).toEqual([]);
  });

  it('refuses platform_internal as the admin name (it is the platform\'s own user on every server)', async () => {
    const response = await call('POST', 'integrations/clickhouse/clusters', { query: { project_id: projectId }, body: { ...body('internal'), admin_user: 'platform_internal' } });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual({ admin_user: [ClusterMessage.adminUserNotAllowed] });
  });

  let cluster: { id: number; http_port: number; data_dir: string; pid: number };

  it('a server that dies makes the cluster read stopped with the reason while it is started again, then active', async () => {
    cluster = await createActive(projectId, 'supervised');
    // Kill the server and take its HTTP port at once: the restarts fail ("Address already in use") until it is free.
    process.kill(cluster.pid, 'SIGKILL');
    let blocker: Server | undefined;
    await until(async () => (blocker = await listen(cluster.http_port)), (b) => b !== undefined, 10_000, 20);
    const down = await until(() => clusterRow(cluster.id), (r) => r.status === 'stopped', 20_000);
    expect(down.status_reason).toMatch(/^Node 1 .*; the platform is starting it again\.$/);
    const listed = await call('GET', 'integrations/clickhouse/clusters', { query: { project_id: projectId } });
    expect(listed.body.find((c: { id: number }) => c.id === cluster.id)).toMatchObject({ status: 'stopped' });
    await new Promise<void>((resolve) => blocker!.close(() => resolve()));
    await until(() => clusterRow(cluster.id), (r) => r.status === 'active', 60_000);
    expect((await clusterRow(cluster.id)).status_reason).toBeNull();
    const [{ pid }] = await platform.db.query<{ pid: number }>('SELECT pid FROM clickhouse_processes WHERE cluster_id = $1', [cluster.id]);
    expect(pid).not.toBe(cluster.pid);
  }, 120_000);

  it('ten concurrent IP safe list changes all succeed and leave the database and users.xml equal', async () => {
    const entries = Array.from({ length: 10 }, (_, i) => `10.1.${i}.0/24`);
    const answers = await Promise.all(entries.map((entry) => call('PATCH', 'integrations/clickhouse/clusters', { query: { project_id: projectId, cluster_id: cluster.id }, body: { replace: false, ip_list: [entry] } })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const stored = (await clusterRow(cluster.id)).ip_safe_list;
    expect([...stored].sort()).toEqual([...entries].sort());
    const usersXml = await readFile(path.join(cluster.data_dir, 'users.xml'), 'utf8');
    const admin = /<admin_one>([\s\S]*?)<\/admin_one>/.exec(usersXml)![1];
    const ips = [...admin.matchAll(/<ip>([^<]+)<\/ip>/g)].map((m) => m[1]);
    expect([...ips].sort()).toEqual(stored.map(networkEntry).sort());
    expect(serversOf(`${cluster.data_dir}/users.xml.`)).toEqual([]);
  }, 60_000);

  it('a provisioning job that fails before the servers (unreadable sealed password) leaves the cluster failed, and it can be deleted', async () => {
    const [row] = await platform.db.query<{ id: number }>(
      `INSERT INTO clickhouse_clusters (project_id, name, status, admin_user, admin_password_sha256, pending_admin_secret, provider)
       VALUES ($1, 'broken', 'creating', 'admin_one', 'x', 'v1.not.a.sealed-value', 'aws') RETURNING id`,
      [projectId],
    );
    await platform.jobs.enqueue(platform.db, 'clickhouse.provision', { subject: `clickhouse-cluster:${row.id}`, payload: { clusterId: row.id }, maxAttempts: 1 });
    const ended = await until(() => clusterRow(row.id), (r) => r.status !== 'creating', 30_000);
    expect(ended).toMatchObject({ status: 'failed', status_reason: 'The cluster could not be created because of an internal error.' });
    const deleted = await call('DELETE', 'integrations/clickhouse/clusters', { query: { project_id: projectId, cluster_id: row.id } });
    expect(deleted.status).toBe(202);
    await until(() => clusterRow(row.id), (r) => r === undefined);
  }, 60_000);

  it('deleting a project stops its servers and removes their folders', async () => {
    const doomed = await createActive(projectToDelete, 'doomed');
    const folder = path.dirname(doomed.data_dir);
    expect(serversOf(folder)).not.toEqual([]);
    const deleted = await call('DELETE', 'projects', { query: { project_id: projectToDelete } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    await until(async () => serversOf(folder).length === 0 && !existsSync(folder), (done) => done, 30_000);
    expect(await clusterRow(doomed.id)).toBeUndefined();
  }, 90_000);
});
