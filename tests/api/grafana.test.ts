import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'yaml';
import {
  DATASOURCE_NAME_MESSAGE,
  NAME_TAKEN_MESSAGE,
  SELECT_CLUSTER_MESSAGE,
  SELECT_CLUSTERS_MESSAGE,
  SELECT_USER_MESSAGE,
  clickhouseDatasourceName,
  qrynDatasourceName,
} from '../../contract/grafana';
import { insertCluster } from '../../server/db/repositories/clickhouse-repository';
import { createUser, findUserByEmail } from '../../server/db/repositories/users-repository';
import { datasourceUidsOf } from '../../server/products/grafana/grafana-models';
import { createTokenMinter } from '../support/mint-token';
import { databaseTargets } from '../support/postgres';
import { enableQryn, type EnabledQryn } from '../support/qryn';
import { pushLogLines, readLikeGrafana, unzipText } from '../support/grafana';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';

// Grafana's calls against the real platform in local mode (no GRAFANA_URL): what the project gives Grafana is kept
// in the database and comes out as Grafana's provisioning files; the Loki datasource in them reads the project's
// logs from its qryn instance the way Grafana would.

describe.each(databaseTargets())('Grafana API, local mode ($kind)', (target) => {
  let platform: TestPlatform;
  let qryn: EnabledQryn;
  let owner: string;
  let dev: string;
  let viewer: string;
  let personal: string;
  let projectId: number;
  let clusterId: number;
  let otherClusterId: number;
  let devId: string;
  let viewerId: string;

  const call = async (method: string, path: string, options: { token?: string; body?: unknown; query?: Record<string, string | number> } = {}) => {
    const url = new URL(`/api/integrations/grafana/${path}`, platform.url);
    for (const [k, v] of Object.entries(options.query ?? { project_id: projectId })) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const bytes = await response.arrayBuffer();
    const text = new TextDecoder().decode(bytes);
    return { status: response.status, headers: response.headers, bytes, json: () => JSON.parse(text) };
  };
  const countRows = async () =>
    (await platform.db.query<{ n: string }>('SELECT (SELECT count(*) FROM grafana_datasources) + (SELECT count(*) FROM grafana_dashboards) + (SELECT count(*) FROM integration_users) AS n'))[0].n;

  beforeAll(async () => {
    platform = await startTestPlatform({ embedded: target.kind === 'pglite' });
    const mint = await createTokenMinter(platform.db, platform.config);
    const acme = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    projectId = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
    const demo = (await findUserByEmail(platform.db, 'demo@example.com'))!;
    const devUser = (await findUserByEmail(platform.db, 'dev@example.com'))!;
    const viewerUser = (await findUserByEmail(platform.db, 'viewer@example.com'))!;
    devId = devUser.id;
    viewerId = viewerUser.id;
    owner = await mint(demo, { organizationId: acme });
    dev = await mint(devUser, { organizationId: acme });
    viewer = await mint(viewerUser, { organizationId: acme });
    personal = await mint(demo);
    qryn = await enableQryn(platform, projectId, demo.id, acme);
    await pushLogLines(qryn.url, qryn.basic, { app: 'shop', env: 'staging' }, ['order 1 paid', 'order 2 shipped', 'order 3 refunded']);
    const cluster = (name: string) =>
      insertCluster(platform.db, {
        project_id: projectId, integration_id: null, name, status: 'active', is_external: false, provider: 'aws', region_code: 'eu-central-1',
        machine: 'm5_large', shards: 1, replicas: 1, disks: [], version: '18.16', zonal: false, zones: [], control_plane_zone: null, ip_safe_list: [],
        admin_user: 'admin_one', admin_password_sha256: null, pending_admin_secret: null, host: '127.0.0.1', http_port: 18123, tcp_port: 19000, secure: false,
        external_credentials: null, created_by: demo.id,
      });
    clusterId = (await cluster('main')).id;
    otherClusterId = (await cluster('spare')).id;
  });
  afterAll(async () => platform?.stop());

  it('is enabled directly; the enabler is its first user; config says local mode', async () => {
    expect((await call('GET', 'config', { token: owner })).status).toBe(400); // not enabled yet
    const enabled = await fetch(`${platform.url}/api/integrations/grafana?project_id=${projectId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(enabled.status).toBe(201);
    const config = await call('GET', 'config', { token: owner });
    expect(config.json()).toEqual({ id: expect.any(Number), project_id: projectId, auto_add_users: false, grafana_url: null, mode: 'local' });
    expect((await call('GET', 'users', { token: owner })).json().map((u: { email: string }) => u.email)).toEqual(['demo@example.com']);
    expect((await call('GET', 'qryn-datasources', { token: owner })).json()).toBeNull();
    expect((await call('GET', 'config')).status).toBe(401);
  });

  it('creates the qryn datasources: names required, read-only refused, then Loki, Prometheus and Tempo at the instance', async () => {
    const blank = await call('POST', 'datasources', { token: owner, body: { type: 'qryn', loki_name: '', prometheus_name: ' ', tempo_name: 'x' } });
    expect(blank.status).toBe(400);
    expect(blank.json().details).toEqual({ loki_name: [DATASOURCE_NAME_MESSAGE], prometheus_name: [DATASOURCE_NAME_MESSAGE] });
    const names = { loki_name: qrynDatasourceName('loki', 'Acme Staging'), prometheus_name: qrynDatasourceName('prometheus', 'Acme Staging'), tempo_name: qrynDatasourceName('tempo', 'Acme Staging') };
    expect(names.loki_name).toBe('qryn Loki (Acme Staging)');
    expect((await call('POST', 'datasources', { token: viewer, body: { type: 'qryn', ...names } })).status).toBe(403);
    expect((await call('GET', 'datasources', { token: owner })).json()).toEqual([]);
    const created = await call('POST', 'datasources', { token: dev, body: { type: 'qryn', ...names } });
    expect(created.status).toBe(201);
    const list = (await call('GET', 'datasources', { token: viewer })).json();
    expect(list.map((d: { type: string; name: string; url: string }) => [d.type, d.name, d.url])).toEqual([
      ['loki', 'qryn Loki (Acme Staging)', qryn.url],
      ['prometheus', 'qryn Prometheus (Acme Staging)', qryn.url],
      ['tempo', 'qryn Tempo (Acme Staging)', qryn.url],
    ]);
    expect(list.every((d: { org_id: number; id: number }) => d.org_id === 1 && d.id > 0)).toBe(true);
    const qrynSet = (await call('GET', 'qryn-datasources', { token: owner })).json();
    expect(qrynSet).toEqual({
      prom_uid: list[1].uid,
      prom_name: 'qryn Prometheus (Acme Staging)',
      tempo_uid: list[2].uid,
      tempo_name: 'qryn Tempo (Acme Staging)',
      cloki_uid: list[0].uid,
      qryn_loki_name: 'qryn Loki (Acme Staging)',
    });
    expect((await call('POST', 'datasources', { token: owner, body: { type: 'qryn', ...names } })).status).toBe(409);
  });

  it("the provisioned Loki datasource's URL and credentials read the project's log lines like Grafana (labels, query_range)", async () => {
    expect((await call('GET', 'provisioning', { token: viewer })).status).toBe(403); // it carries credentials
    const zip = await call('GET', 'provisioning', { token: owner });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const files = unzipText(zip.bytes);
    const slug = Object.keys(files).find((f) => f.startsWith('provisioning/datasources/'))!;
    const doc = parse(files[slug]);
    expect(doc.apiVersion).toBe(1);
    const loki = doc.datasources.find((d: { type: string }) => d.type === 'loki');
    expect(loki).toMatchObject({ url: qryn.url, basicAuth: true, basicAuthUser: qryn.apiKey, secureJsonData: { basicAuthPassword: expect.stringMatching(/^qt_/) } });
    const read = await readLikeGrafana(loki, '{app="shop"}');
    expect(read.statuses).toEqual([200, 200]);
    expect(read.labels).toEqual(expect.arrayContaining(['app', 'env']));
    expect(read.lines.sort()).toEqual(['order 1 paid', 'order 2 shipped', 'order 3 refunded']);
    // The token is read-scoped and listed in qryn's Auth Tokens as Grafana's.
    const push = await fetch(`${loki.url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${loki.basicAuthUser}:${loki.secureJsonData.basicAuthPassword}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ streams: [] }),
    });
    expect(push.status).toBe(403);
    const tokens = await fetch(`${platform.url}/api/integrations/qryn/tokens?project_id=${projectId}`, { headers: { authorization: `Bearer ${owner}` } });
    expect(((await tokens.json()) as { name: string; scope: string }[]).filter((t) => t.name === 'Grafana')).toEqual([expect.objectContaining({ scope: 'read' })]);
    // Prometheus reads through the same instance.
    const prom = doc.datasources.find((d: { type: string }) => d.type === 'prometheus');
    const now = Math.floor(Date.now() / 1000);
    const range = await fetch(`${prom.url}/api/v1/query_range?query=up&start=${now - 600}&end=${now}&step=60`, {
      headers: { authorization: `Basic ${Buffer.from(`${prom.basicAuthUser}:${prom.secureJsonData.basicAuthPassword}`).toString('base64')}` },
    });
    expect(range.status).toBe(200);
    expect(((await range.json()) as { status: string }).status).toBe('success');
  });

  it('creates a ClickHouse datasource for a cluster: cluster and name required, names unique', async () => {
    const missing = await call('POST', 'datasources', { token: owner, body: { type: 'clickhouse', name: '' } });
    expect(missing.status).toBe(400);
    expect(missing.json().details).toEqual({ cluster_id: [SELECT_CLUSTER_MESSAGE], name: [DATASOURCE_NAME_MESSAGE] });
    const unknownCluster = await call('POST', 'datasources', { token: owner, body: { type: 'clickhouse', cluster_id: 999_999, name: 'x' } });
    expect(unknownCluster.status).toBe(400);
    expect(unknownCluster.json()).toMatchObject({ message: 'Validation error', details: { cluster_id: ['This cluster is not available: choose an active cluster of this project.'] } });
    const name = clickhouseDatasourceName('Acme Staging', 'main');
    expect(name).toBe('ClickHouse (Acme Staging - main)');
    expect((await call('POST', 'datasources', { token: owner, body: { type: 'clickhouse', cluster_id: clusterId, name } })).status).toBe(201);
    const taken = await call('POST', 'datasources', { token: owner, body: { type: 'clickhouse', cluster_id: otherClusterId, name: 'qryn Loki (Acme Staging)' } });
    expect(taken.status).toBe(400);
    expect(taken.json().details).toEqual({ name: [NAME_TAKEN_MESSAGE] });
    const ch = (await call('GET', 'datasources', { token: owner })).json().find((d: { type: string }) => d.type === 'grafana-clickhouse-datasource');
    expect(ch).toMatchObject({ name, cluster_id: clusterId, url: 'http://127.0.0.1:18123' });
  });

  it('creates dashboards for the chosen clusters; again replaces them (same uid, next version)', async () => {
    const none = await call('POST', 'dashboards', { token: owner, body: { product_clickhouse_clusters: [] } });
    expect(none.json().details).toEqual({ product_clickhouse_clusters: [SELECT_CLUSTERS_MESSAGE] });
    const noDatasource = await call('POST', 'dashboards', { token: owner, body: { product_clickhouse_clusters: [otherClusterId] } });
    expect(noDatasource.status).toBe(400);
    expect(noDatasource.json().details.product_clickhouse_clusters[0]).toMatch(/Add a ClickHouse datasource for spare first/);
    expect((await call('POST', 'dashboards', { token: viewer, body: { product_clickhouse_clusters: [clusterId] } })).status).toBe(403);
    const first = await call('POST', 'dashboards', { token: owner, body: { product_clickhouse_clusters: [clusterId] } });
    expect(first.status).toBe(201);
    const again = await call('POST', 'dashboards', { token: owner, body: { product_clickhouse_clusters: [clusterId] } });
    expect(again.json().uids).toEqual(first.json().uids);
    const list = (await call('GET', 'dashboards', { token: viewer })).json();
    expect(list).toEqual([{ uid: first.json().uids[0], title: 'ClickHouse overview (Acme Staging - main)', cluster_id: clusterId, version: 2, url: null }]);
  });

  it('exports the dashboards as a zip of Grafana JSON whose datasource uids are the created datasources', async () => {
    expect((await call('GET', 'export-dashboards')).status).toBe(401);
    const zip = await call('GET', 'export-dashboards', { token: viewer });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-disposition')).toBe(`attachment; filename="grafana-dashboards-acme-staging-${projectId}.zip"`);
    const files = Object.values(unzipText(zip.bytes)).map((text) => JSON.parse(text));
    expect(files).toHaveLength(1);
    const datasources = new Set((await call('GET', 'datasources', { token: owner })).json().map((d: { uid: string }) => d.uid));
    const uids = datasourceUidsOf(files[0]);
    expect(uids.length).toBeGreaterThan(0);
    for (const uid of uids) expect(datasources.has(uid)).toBe(true);
    expect(files[0]).toMatchObject({ title: 'ClickHouse overview (Acme Staging - main)', version: 2, schemaVersion: 39 });
  });

  it('adds users: organization mode only, at least one, project members only', async () => {
    const personalCall = await call('POST', 'users', { token: personal, body: { users: [{ name: 'Dev', email: 'dev@example.com', id: devId }], project_id: projectId } });
    expect(personalCall.status).toBe(403);
    expect(personalCall.json().description).toMatch(/organization mode/);
    const empty = await call('POST', 'users', { token: owner, body: { users: [], project_id: projectId }, query: {} });
    expect(empty.status).toBe(400);
    expect(empty.json().details).toEqual({ users: [SELECT_USER_MESSAGE] });
    const stranger = await createUser(platform.db, { email: 'stranger@example.com', givenName: 'S', familyName: 'T', emailVerified: true });
    const strangerAdded = await call('POST', 'users', { token: owner, body: { users: [{ name: 'S', email: 'stranger@example.com', id: stranger.id }], project_id: projectId } });
    expect(strangerAdded.status).toBe(400);
    expect(strangerAdded.json().details).toEqual({ users: ['Only members of this project can be added to Grafana.'] });
    expect((await call('POST', 'users', { token: viewer, body: { users: [{ name: 'Dev', email: 'dev@example.com', id: devId }], project_id: projectId } })).status).toBe(403);
    const added = await call('POST', 'users', { token: owner, body: { users: [{ name: 'Dev Eloper', email: 'dev@example.com', id: devId }], project_id: projectId }, query: {} });
    expect(added.status).toBe(201);
    const users = (await call('GET', 'users', { token: owner })).json();
    expect(users.map((u: { email: string }) => u.email)).toEqual(['demo@example.com', 'dev@example.com']);
    // Listed now: the integration is available to dev, not to viewer.
    const integrations = async (token: string) =>
      (await (await fetch(`${platform.url}/api/integrations?project_id=${projectId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { product: { slug: string }; is_user_active: boolean }[];
    expect((await integrations(dev)).find((i) => i.product.slug === 'grafana')?.is_user_active).toBe(true);
    expect((await integrations(viewer)).find((i) => i.product.slug === 'grafana')?.is_user_active).toBe(false);
  });

  it('auto-add puts every project member on the list (read-only members refused the switch)', async () => {
    expect((await call('POST', 'auto-add', { token: viewer, body: { enabled: true } })).status).toBe(403);
    const on = await call('POST', 'auto-add', { token: owner, body: { enabled: true } });
    expect(on.json()).toEqual({ message: expect.any(String), enabled: true });
    expect((await call('GET', 'config', { token: owner })).json().auto_add_users).toBe(true);
    const users = (await call('GET', 'users', { token: owner })).json() as { user_id: string }[];
    expect(users.map((u) => u.user_id)).toContain(viewerId);
    expect((await call('POST', 'auto-add', { token: owner, body: { enabled: false } })).json().enabled).toBe(false);
  });

  it('bad bodies are 400 (or 409) and change nothing', async () => {
    const before = await countRows();
    for (const path of ['datasources', 'dashboards', 'users', 'auto-add']) {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.anything(),
            fc.record({ type: fc.constantFrom('qryn', 'clickhouse', 'loki', 1), cluster_id: fc.oneof(fc.integer(), fc.string()), name: fc.oneof(fc.string(), fc.constant('')) }, { requiredKeys: [] }),
            fc.record({ product_clickhouse_clusters: fc.oneof(fc.constant([]), fc.array(fc.oneof(fc.integer({ min: -5, max: 0 }), fc.string()))) }),
            fc.record({ users: fc.oneof(fc.constant([]), fc.array(fc.record({ name: fc.string(), id: fc.string() }))) }),
          ),
          async (body) => {
            // A valid auto-add body ({enabled: boolean}) is not bad input.
            if (path === 'auto-add' && typeof (body as { enabled?: unknown } | null)?.enabled === 'boolean') return;
            const response = await call('POST', path, { token: owner, body });
            expect([400, 409]).toContain(response.status);
          },
        ),
        { numRuns: Number(process.env.FC_RUNS ?? 25) },
      );
    }
    expect(await countRows()).toBe(before);
  });

  it('cancelling Grafana cancels it in every project of the organization', async () => {
    expect((await fetch(`${platform.url}/api/integrations/grafana/cancel?project_id=${projectId}`, { method: 'POST', headers: { authorization: `Bearer ${viewer}` } })).status).toBe(403);
    const response = await fetch(`${platform.url}/api/integrations/grafana/cancel?project_id=${projectId}`, { method: 'POST', headers: { authorization: `Bearer ${owner}` } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { cancelled: { project_id: number }[] };
    const production = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
    expect(body.cancelled.map((c) => c.project_id).sort()).toEqual([production, projectId].sort());
    // Scheduled: it stays usable until the end of the period; released at the end, its state is gone.
    expect((await call('GET', 'datasources', { token: owner })).status).toBe(200);
    const integrationId = (await call('GET', 'config', { token: owner })).json().id;
    await platform.db.transaction((tx) => platform.products.get('grafana')!.release(tx, { integrationId, projectId }));
    expect((await call('GET', 'datasources', { token: owner })).json()).toEqual([]);
    expect((await call('GET', 'dashboards', { token: owner })).json()).toEqual([]);
  });
});
