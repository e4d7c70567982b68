import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegration } from '../../server/db/repositories/integrations-repository';
import { createProject } from '../../server/db/repositories/projects-repository';
import { createUser, findUserByEmail } from '../../server/db/repositories/users-repository';
import { clickhouseExec, ClickhouseError, type ClickhouseEndpoint } from '../../server/products/clickhouse/clickhouse-http';
import { isolationModeFrom } from '../../server/products/clickhouse/cluster-network';
import { createTokenMinter } from '../support/mint-token';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';

// Two tenants' managed clusters, real clickhouse-server processes started by the platform, and the queries a cluster
// admin can run to reach out: url() and remote(). From inside the outsider's cluster neither the platform (its
// developer outbox, even with the right key) nor Acme's cluster answers; the outsider's own servers still do, so
// the refusals are the isolation and not a broken server (docs/clickhouse.md "Network isolation").

interface Cluster {
  id: number;
  http_port: number;
  tcp_port: number;
  status: string;
}

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out, last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
};

/** The query's error text (the whole test expects refusals), or 'answered: …' when it succeeded. */
async function attempt(endpoint: ClickhouseEndpoint, sql: string): Promise<string> {
  try {
    return `answered: ${await clickhouseExec(endpoint, sql, { timeoutMs: 20_000 })}`;
  } catch (error) {
    if (error instanceof ClickhouseError) return error.message;
    throw error;
  }
}

describe.runIf(isolationModeFrom(undefined) === 'netns')('a managed cluster reaches nothing but itself (real servers, network namespaces)', () => {
  let platform: TestPlatform;
  let acme: Cluster;
  let outsider: Cluster;
  const acmePassword = 'Payroll-Secret-1';
  const outsiderPassword = 'Outsider-Secret-1';

  const call = async (token: string, method: string, route: string, query: Record<string, string | number>, body?: unknown) => {
    const url = new URL(`/api/${route}`, platform.url);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    const response = await fetch(url, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const create = async (token: string, projectId: number, name: string, admin: string, password: string): Promise<Cluster> => {
    const created = await call(token, 'POST', 'integrations/clickhouse/clusters', { project_id: projectId }, {
      name, provider: 'aws', region_code: 'eu-central-1', machine: 'm5_large', version: '18.16', shards: 1, replicas: 1,
      disks: [{ name: 'default', type: 'gp3', size: 150, unit_type: 'Decimal' }], ip_safe_list: '', admin_user: admin, admin_password: password, confirm_password: password,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const list = await until(async () => (await call(token, 'GET', 'integrations/clickhouse/clusters', { project_id: projectId })).body as Cluster[], (l) => l[0]?.status !== 'creating');
    expect(list[0].status).toBe('active');
    return list[0];
  };

  beforeAll(async () => {
    platform = await startTestPlatform();
    const mint = await createTokenMinter(platform.db, platform.config);
    const demo = (await findUserByEmail(platform.db, 'demo@example.com'))!;
    const acmeOrg = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    const owner = await mint(demo, { organizationId: acmeOrg, expiresIn: 3600 });
    const staging = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
    await createIntegration(platform.db, { projectId: staging, productSlug: 'clickhouse', status: 'active', creatorUserId: demo.id });
    const stranger = await createUser(platform.db, { email: 'outsider@example.com', givenName: 'Out', familyName: 'Sider', emailVerified: true });
    const strangerProject = (await createProject(platform.db, { name: 'Outsider', organizationId: null, userId: stranger.id, billingAccountId: null })).id;
    await createIntegration(platform.db, { projectId: strangerProject, productSlug: 'clickhouse', status: 'trial', creatorUserId: stranger.id });
    const strangerToken = await mint(stranger, { expiresIn: 3600 });
    acme = await create(owner, staging, 'payroll', 'acme_admin', acmePassword);
    outsider = await create(strangerToken, strangerProject, 'default', 'outsider', outsiderPassword);
    const acmeAdmin = { host: '127.0.0.1', port: acme.http_port, user: 'acme_admin', password: acmePassword };
    await clickhouseExec(acmeAdmin, 'CREATE TABLE default.payroll (name String, salary UInt32) ENGINE = MergeTree ORDER BY name');
    await clickhouseExec(acmeAdmin, "INSERT INTO default.payroll VALUES ('alice', 123456)");
  }, 180_000);
  afterAll(async () => platform?.stop());

  const outsiderAdmin = () => ({ host: '127.0.0.1', port: outsider.http_port, user: 'outsider', password: outsiderPassword });

  it('its own servers answer, also through remote() to its own loopback', async () => {
    expect(await attempt(outsiderAdmin(), 'SELECT 1')).toBe('answered: 1\n');
    expect(await attempt(outsiderAdmin(), `SELECT dummy FROM remote('127.0.0.1:${outsider.tcp_port}', system.one, 'outsider', '${outsiderPassword}')`)).toBe('answered: 0\n');
  });

  it('url() does not reach the platform: not its developer outbox, even with the key, not its API', async () => {
    const outbox = `http://127.0.0.1:${platform.port}/dev/outbox?key=${platform.config.devPagesKey}`;
    // The key really opens the page from the host: only the cluster's network stops the query below.
    expect((await fetch(outbox)).status).toBe(200);
    for (const target of [outbox, `http://127.0.0.1:${platform.port}/healthz`, `http://localhost:${platform.port}/api/projects`]) {
      const answer = await attempt(outsiderAdmin(), `SELECT * FROM url('${target}', 'TSV', 'l String')`);
      expect(answer, target).not.toMatch(/^answered/);
      expect(answer).not.toContain('Mail outbox');
    }
  });

  it("remote() and url() do not reach another tenant's cluster, with the right credentials", async () => {
    const acmeAdmin = { host: '127.0.0.1', port: acme.http_port, user: 'acme_admin', password: acmePassword };
    expect(await attempt(acmeAdmin, 'SELECT name FROM default.payroll')).toBe('answered: alice\n');
    const viaRemote = await attempt(outsiderAdmin(), `SELECT * FROM remote('127.0.0.1:${acme.tcp_port}', default.payroll, 'acme_admin', '${acmePassword}')`);
    expect(viaRemote).not.toMatch(/^answered/);
    expect(viaRemote).not.toContain('alice');
    const viaUrl = await attempt(outsiderAdmin(), `SELECT * FROM url('http://127.0.0.1:${acme.http_port}/?user=acme_admin&password=${acmePassword}&query=SELECT%20name%20FROM%20default.payroll', 'TSV', 'name String')`);
    expect(viaUrl).not.toMatch(/^answered/);
    expect(viaUrl).not.toContain('alice');
  });
});
