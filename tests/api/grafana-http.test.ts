import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCluster } from '../../server/db/repositories/clickhouse-repository';
import { findUserByEmail } from '../../server/db/repositories/users-repository';
import { datasourceUidsOf } from '../../server/products/grafana/grafana-models';
import { startFakeGrafana, type FakeGrafana } from '../support/fake-grafana';
import { pushLogLines, readLikeGrafana, unzipText } from '../support/grafana';
import { createTokenMinter } from '../support/mint-token';
import { databaseTargets } from '../support/postgres';
import { enableQryn, eventually, type EnabledQryn } from '../support/qryn';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';

// The platform in HTTP mode (GRAFANA_URL and a service-account token) against the fake Grafana: each call of the
// console becomes the documented Grafana API requests, Grafana's ids come back, and what Grafana was given (the Loki
// datasource's URL and credentials) reads the project's logs.

describe.each(databaseTargets())('Grafana API, HTTP mode ($kind)', (target) => {
  let grafana: FakeGrafana;
  let platform: TestPlatform;
  let qryn: EnabledQryn;
  let owner: string;
  let projectId: number;
  let clusterId: number;

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${platform.url}/api/integrations/grafana/${path}?project_id=${projectId}`, {
      method,
      headers: { authorization: `Bearer ${owner}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const bytes = await response.arrayBuffer();
    return { status: response.status, bytes, json: () => JSON.parse(new TextDecoder().decode(bytes)) };
  };
  const grafanaCalls = () => grafana.requests.filter((r) => r.path !== '/api/health').map((r) => `${r.method} ${r.path}`);

  beforeAll(async () => {
    grafana = await startFakeGrafana({ knownUsers: ['dev@example.com'] });
    platform = await startTestPlatform({ embedded: target.kind === 'pglite', env: { GRAFANA_URL: grafana.url, GRAFANA_TOKEN: grafana.token, GRAFANA_PUBLIC_URL: 'https://grafana.example.com' } });
    const acme = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    projectId = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
    const demo = (await findUserByEmail(platform.db, 'demo@example.com'))!;
    owner = await (await createTokenMinter(platform.db, platform.config))(demo, { organizationId: acme });
    qryn = await enableQryn(platform, projectId, demo.id, acme);
    await pushLogLines(qryn.url, qryn.basic, { app: 'billing' }, ['invoice 7 issued', 'invoice 7 paid']);
    clusterId = (
      await insertCluster(platform.db, {
        project_id: projectId, integration_id: null, name: 'analytics', status: 'external', is_external: true, provider: 'unknown', region_code: null,
        machine: null, shards: 1, replicas: 1, disks: [], version: '', zonal: false, zones: [], control_plane_zone: null, ip_safe_list: [],
        admin_user: '', admin_password_sha256: null, pending_admin_secret: null, host: 'ch.example.net', http_port: 8443, tcp_port: 9440, secure: true,
        external_credentials: null, created_by: demo.id,
      })
    ).id;
    const enabled = await fetch(`${platform.url}/api/integrations/grafana?project_id=${projectId}`, { method: 'POST', headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' }, body: '{}' });
    expect(enabled.status).toBe(201);
  });
  afterAll(async () => {
    await platform?.stop();
    await grafana?.close();
  });

  it('config points Launch Grafana at Grafana; system status checks its health', async () => {
    expect((await call('GET', 'config')).json()).toMatchObject({ mode: 'http', grafana_url: 'https://grafana.example.com' });
    const status = (await (await fetch(`${platform.url}/api/integrations/status`, { headers: { authorization: `Bearer ${owner}` } })).json()) as { slug: string; services: { name: string; running: boolean }[] }[];
    expect(status.find((s) => s.slug === 'grafana')?.services).toEqual([{ name: 'Grafana API', running: true }]);
  });

  it("creates the qryn datasources in Grafana (three POST /api/datasources) with Grafana's ids; Grafana's copy reads the logs", async () => {
    grafana.requests.length = 0;
    const created = await call('POST', 'datasources', { type: 'qryn', loki_name: 'Logs', prometheus_name: 'Metrics', tempo_name: 'Traces' });
    expect(created.status).toBe(201);
    expect(grafanaCalls()).toEqual(['POST /api/datasources', 'POST /api/datasources', 'POST /api/datasources']);
    expect(grafana.requests.every((r) => r.authorization === `Bearer ${grafana.token}`)).toBe(true);
    const listed = (await call('GET', 'datasources')).json() as { uid: string; id: number; org_id: number; type: string }[];
    for (const ds of listed) expect(grafana.datasources.get(ds.uid)).toMatchObject({ id: ds.id, orgId: ds.org_id, type: ds.type });
    const loki = [...grafana.datasources.values()].find((d) => d.type === 'loki')!;
    expect(loki.url).toBe(qryn.url);
    const read = await readLikeGrafana(loki, '{app="billing"}');
    expect(read.lines.sort()).toEqual(['invoice 7 issued', 'invoice 7 paid']);
    expect(read.labels).toContain('app');
  });

  it('a name Grafana already has is refused at the field, and nothing is recorded', async () => {
    const taken = await call('POST', 'datasources', { type: 'clickhouse', cluster_id: clusterId, name: 'Logs' });
    expect(taken.status).toBe(400);
    expect(taken.json().details.name).toEqual(['A datasource with this name already exists in Grafana.']);
    expect((await call('GET', 'datasources')).json()).toHaveLength(3);
  });

  it('a failing Grafana is a 502 that leaves nothing behind (the ones made are removed from Grafana again)', async () => {
    grafana.failWith(500);
    const failed = await call('POST', 'datasources', { type: 'clickhouse', cluster_id: clusterId, name: 'ClickHouse (Acme Staging - analytics)' });
    grafana.failWith(null);
    expect(failed.status).toBe(502);
    expect(failed.json().description).toMatch(/failing on purpose/);
    expect((await call('GET', 'datasources')).json()).toHaveLength(3);
  });

  it('the ClickHouse datasource and a dashboard: POST /api/dashboards/db; the export reads the dashboards back from Grafana', async () => {
    expect((await call('POST', 'datasources', { type: 'clickhouse', cluster_id: clusterId, name: 'ClickHouse (Acme Staging - analytics)' })).status).toBe(201);
    const ch = [...grafana.datasources.values()].find((d) => d.type === 'grafana-clickhouse-datasource')!;
    expect(ch).toMatchObject({ url: 'https://ch.example.net:8443', jsonData: { host: 'ch.example.net', port: 8443, protocol: 'http', secure: true } });
    grafana.requests.length = 0;
    const dashboards = await call('POST', 'dashboards', { product_clickhouse_clusters: [clusterId] });
    expect(dashboards.status).toBe(201);
    expect(grafanaCalls()).toEqual(['POST /api/dashboards/db']);
    const [uid] = dashboards.json().uids as string[];
    expect((await call('GET', 'dashboards')).json()[0]).toMatchObject({ uid, version: 1, url: expect.stringMatching(/^https:\/\/grafana\.example\.com\/d\//) });
    // Someone edits the dashboard in Grafana: the export has the edit.
    grafana.dashboards.get(uid)!.dashboard.title = 'Edited in Grafana';
    grafana.requests.length = 0;
    const zip = await call('GET', 'export-dashboards');
    expect(grafanaCalls()).toEqual([`GET /api/dashboards/uid/${uid}`]);
    const [file] = Object.values(unzipText(zip.bytes)).map((t) => JSON.parse(t));
    expect(file.title).toBe('Edited in Grafana');
    expect(datasourceUidsOf(file)).toEqual([ch.uid]);
  });

  it('adds users to the Grafana organization (POST /api/org/users), inviting people Grafana does not know', async () => {
    const users = (await (await fetch(`${platform.url}/api/projects/users?project_id=${projectId}`, { headers: { authorization: `Bearer ${owner}` } })).json()) as { id: string; email: string }[];
    const pick = users.filter((u) => u.email === 'dev@example.com' || u.email === 'viewer@example.com').map((u) => ({ id: u.id, email: u.email, name: u.email }));
    grafana.requests.length = 0;
    expect((await call('POST', 'users', { users: pick, project_id: projectId })).status).toBe(201);
    expect(grafana.orgUsers.get('dev@example.com')).toMatchObject({ role: 'Editor' });
    expect(grafana.invites.get('viewer@example.com')).toMatchObject({ role: 'Viewer' });
    expect(grafanaCalls()).toEqual(['POST /api/org/users', 'POST /api/org/users', 'POST /api/org/invites']);
  });

  it('releasing the integration removes its datasources and dashboards from Grafana (a job)', async () => {
    const integrationId = (await call('GET', 'config')).json().id;
    await platform.db.transaction((tx) => platform.products.get('grafana')!.release(tx, { integrationId, projectId }));
    await eventually(async () => (grafana.datasources.size === 0 && grafana.dashboards.size === 0 ? true : undefined), 15_000);
    expect((await call('GET', 'datasources')).json()).toEqual([]);
  });
});
