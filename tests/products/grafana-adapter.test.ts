import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { strFromU8, unzipSync } from 'fflate';
import { CLICKHOUSE_DATASOURCE_TYPE } from '../../contract/grafana';
import type { Queryable } from '../../server/db/database';
import { GrafanaApiError, NameTakenError, httpGrafana } from '../../server/products/grafana/grafana-api';
import {
  clickhouseDatasource,
  clusterDashboard,
  dashboardsZip,
  datasourceUidsOf,
  provisioningFiles,
  qrynDatasource,
} from '../../server/products/grafana/grafana-models';
import { startFakeGrafana, type FakeGrafana } from '../support/fake-grafana';

// The adapter's HTTP mode, request by request against the fake Grafana (which refuses what Grafana's documented API
// would refuse), and local mode's output checked against Grafana's provisioning formats.

const noDb = {} as Queryable; // HTTP mode keeps no state of its own
const related = { lokiUid: 'qryn-loki-1', promUid: 'qryn-prom-1', tempoUid: 'qryn-tempo-1' };
const loki = qrynDatasource('loki', { name: 'qryn Loki (Shop)', url: 'http://127.0.0.1:8080/qryn/abc', user: 'qk_1', password: 'qt_secret', related });
const clickhouse = clickhouseDatasource({ uid: 'clickhouse-1', name: 'ClickHouse (Shop - main)', host: 'ch.local', port: 8123, secure: false, username: 'admin_one' });

describe('Grafana adapter, HTTP mode against the fake Grafana', () => {
  let grafana: FakeGrafana;
  let adapter: ReturnType<typeof httpGrafana>;

  beforeAll(async () => {
    grafana = await startFakeGrafana({ knownUsers: ['dev@example.com'] });
    adapter = httpGrafana({ url: grafana.url, token: grafana.token, publicUrl: 'https://grafana.example.com/' });
  });
  afterAll(async () => grafana?.close());
  beforeEach(() => {
    grafana.requests.length = 0;
    grafana.failWith(null);
  });

  it('POST /api/datasources with the service-account token and the datasource JSON', async () => {
    const created = await adapter.createDatasource(noDb, loki);
    expect(created).toEqual({ id: expect.any(Number), uid: 'qryn-loki-1', orgId: 3 });
    expect(grafana.requests).toHaveLength(1);
    const [request] = grafana.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/datasources', authorization: `Bearer ${grafana.token}`, contentType: 'application/json' });
    expect(request.body).toEqual({
      uid: 'qryn-loki-1',
      name: 'qryn Loki (Shop)',
      type: 'loki',
      access: 'proxy',
      url: 'http://127.0.0.1:8080/qryn/abc',
      basicAuth: true,
      basicAuthUser: 'qk_1',
      isDefault: false,
      jsonData: expect.objectContaining({ maxLines: 1000 }),
      secureJsonData: { basicAuthPassword: 'qt_secret' },
    });
    expect(grafana.datasources.get('qryn-loki-1')?.secureJsonData).toEqual({ basicAuthPassword: 'qt_secret' });
  });

  it('a taken name is a NameTakenError (Grafana answers 409)', async () => {
    await expect(adapter.createDatasource(noDb, { ...loki, uid: 'other-uid' })).rejects.toBeInstanceOf(NameTakenError);
    expect(grafana.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/datasources']);
  });

  it('the ClickHouse datasource is accepted as the plugin takes it', async () => {
    await adapter.createDatasource(noDb, clickhouse);
    expect(grafana.datasources.get('clickhouse-1')).toMatchObject({
      type: CLICKHOUSE_DATASOURCE_TYPE,
      jsonData: { host: 'ch.local', port: 8123, protocol: 'http', username: 'admin_one', defaultDatabase: 'default', secure: false },
    });
  });

  it('POST /api/dashboards/db with overwrite, then GET and DELETE by uid', async () => {
    const dashboard = clusterDashboard({ uid: 'ch-overview-1', title: 'ClickHouse overview (Shop - main)', project: 'Shop', cluster: 'main', datasourceUid: 'clickhouse-1' });
    const first = await adapter.saveDashboard(noDb, dashboard, 'Created by the console');
    expect(first).toEqual({ id: expect.any(Number), uid: 'ch-overview-1', version: 1, url: 'https://grafana.example.com/d/ch-overview-1/clickhouse-overview-shop-main-' });
    const again = await adapter.saveDashboard(noDb, dashboard, 'Created by the console');
    expect(again.version).toBe(2);
    expect(grafana.requests[0].body).toEqual({ dashboard, overwrite: true, message: 'Created by the console' });
    const read = await adapter.getDashboard('ch-overview-1');
    expect(read?.title).toBe('ClickHouse overview (Shop - main)');
    expect(datasourceUidsOf(read!)).toEqual(['clickhouse-1']);
    await adapter.deleteDashboard('ch-overview-1');
    expect(await adapter.getDashboard('ch-overview-1')).toBeUndefined();
    await adapter.deleteDashboard('ch-overview-1'); // gone already: fine
    expect(grafana.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/dashboards/db',
      'POST /api/dashboards/db',
      'GET /api/dashboards/uid/ch-overview-1',
      'DELETE /api/dashboards/uid/ch-overview-1',
      'GET /api/dashboards/uid/ch-overview-1',
      'DELETE /api/dashboards/uid/ch-overview-1',
    ]);
  });

  it('adds known people to the organization and invites the others', async () => {
    await adapter.addOrgUser({ email: 'dev@example.com', name: 'Dev', role: 'Editor' });
    await adapter.addOrgUser({ email: 'dev@example.com', name: 'Dev', role: 'Editor' }); // already a member (409): fine
    await adapter.addOrgUser({ email: 'new@example.com', name: 'New Person', role: 'Viewer' });
    expect(grafana.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/api/org/users', { loginOrEmail: 'dev@example.com', role: 'Editor' }],
      ['POST', '/api/org/users', { loginOrEmail: 'dev@example.com', role: 'Editor' }],
      ['POST', '/api/org/users', { loginOrEmail: 'new@example.com', role: 'Viewer' }],
      ['POST', '/api/org/invites', { loginOrEmail: 'new@example.com', name: 'New Person', role: 'Viewer', sendEmail: false }],
    ]);
    expect(grafana.orgUsers.get('dev@example.com')?.role).toBe('Editor');
    expect(grafana.invites.get('new@example.com')).toEqual({ role: 'Viewer', name: 'New Person' });
  });

  it('deletes datasources by uid; a Grafana failure is a GrafanaApiError with its message', async () => {
    await adapter.deleteDatasource('clickhouse-1');
    expect(grafana.datasources.has('clickhouse-1')).toBe(false);
    grafana.failWith(500);
    await expect(adapter.createDatasource(noDb, clickhouse)).rejects.toThrow(GrafanaApiError);
    await expect(adapter.createDatasource(noDb, clickhouse)).rejects.toThrow('Grafana is failing on purpose');
    expect(await adapter.healthy()).toBe(true);
  });

  it('a wrong token is refused by Grafana', async () => {
    const wrong = httpGrafana({ url: grafana.url, token: 'glsa_wrong' });
    await expect(wrong.createDatasource(noDb, clickhouse)).rejects.toMatchObject({ status: 401 });
  });

  it('an unreachable Grafana is a 502 GrafanaApiError and not healthy', async () => {
    const gone = httpGrafana({ url: 'http://127.0.0.1:9', token: 't', timeoutMs: 1000 });
    await expect(gone.createDatasource(noDb, clickhouse)).rejects.toMatchObject({ status: 502 });
    expect(await gone.healthy()).toBe(false);
  });
});

describe('local mode output: Grafana provisioning formats', () => {
  const prom = qrynDatasource('prometheus', { name: 'qryn Prometheus (Shop)', url: 'http://h/qryn/abc', user: 'qk_1', password: 'qt_secret', related });
  const tempo = qrynDatasource('tempo', { name: 'qryn Tempo (Shop)', url: 'http://h/qryn/abc', user: 'qk_1', password: 'qt_secret', related });
  const dashboard = clusterDashboard({ uid: 'ch-overview-1', title: 'ClickHouse overview (Shop - main)', project: 'Shop', cluster: 'main', datasourceUid: 'clickhouse-1' });
  const files = provisioningFiles({ projectSlug: 'shop-7', projectName: 'Shop', orgId: 1, datasources: [loki, prom, tempo, clickhouse], dashboards: [dashboard] });

  it('writes the datasources file: apiVersion 1 and one entry per datasource with the documented keys', () => {
    const doc = parse(files['provisioning/datasources/shop-7.yaml']);
    expect(doc.apiVersion).toBe(1);
    expect(doc.datasources.map((d: { type: string }) => d.type)).toEqual(['loki', 'prometheus', 'tempo', CLICKHOUSE_DATASOURCE_TYPE]);
    const allowed = new Set(['name', 'type', 'uid', 'orgId', 'access', 'url', 'basicAuth', 'basicAuthUser', 'isDefault', 'jsonData', 'secureJsonData', 'version', 'editable', 'user', 'database', 'withCredentials']);
    for (const ds of doc.datasources) {
      for (const key of Object.keys(ds)) expect(allowed.has(key), key).toBe(true);
      expect(ds).toMatchObject({ orgId: 1, access: 'proxy', version: 1, editable: false });
      expect(ds.uid).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    }
    expect(doc.datasources[0]).toMatchObject({ name: 'qryn Loki (Shop)', basicAuth: true, basicAuthUser: 'qk_1', secureJsonData: { basicAuthPassword: 'qt_secret' } });
    // Tempo links to Loki and Prometheus by uid; Loki's derived field to Tempo.
    expect(doc.datasources[2].jsonData).toMatchObject({ tracesToLogsV2: { datasourceUid: 'qryn-loki-1' }, serviceMap: { datasourceUid: 'qryn-prom-1' } });
    expect(doc.datasources[0].jsonData.derivedFields[0].datasourceUid).toBe('qryn-tempo-1');
    expect(doc.datasources[3].jsonData).toEqual({ host: 'ch.local', port: 8123, protocol: 'http', secure: false, username: 'admin_one', defaultDatabase: 'default' });
  });

  it('writes a file dashboard provider whose folder holds the dashboard JSON', () => {
    const doc = parse(files['provisioning/dashboards/shop-7.yaml']);
    expect(doc).toEqual({
      apiVersion: 1,
      providers: [
        {
          name: 'shop-7',
          orgId: 1,
          folder: 'Shop',
          type: 'file',
          disableDeletion: false,
          allowUiUpdates: true,
          updateIntervalSeconds: 30,
          options: { path: '/var/lib/grafana/dashboards/shop-7', foldersFromFilesStructure: false },
        },
      ],
    });
    const json = JSON.parse(files['dashboards/shop-7/clickhouse-overview-shop-main-ch-overview-1.json']);
    // Provisioned dashboards carry no numeric id; panels name their datasource by type and uid.
    expect(json).toMatchObject({ id: null, uid: 'ch-overview-1', title: 'ClickHouse overview (Shop - main)', schemaVersion: 39 });
    expect(json.panels.length).toBeGreaterThan(0);
    for (const panel of json.panels) {
      expect(panel).toMatchObject({ id: expect.any(Number), type: expect.any(String), title: expect.any(String), gridPos: expect.any(Object) });
      expect(panel.datasource).toEqual({ type: CLICKHOUSE_DATASOURCE_TYPE, uid: 'clickhouse-1' });
      expect(panel.targets[0]).toMatchObject({ refId: 'A', rawSql: expect.stringMatching(/^SELECT /) });
    }
  });

  it('the export zip holds one parseable dashboard JSON per dashboard', () => {
    const entries = unzipSync(dashboardsZip([dashboard, { ...dashboard, uid: 'ch-overview-2', title: 'Second' }]));
    expect(Object.keys(entries).sort()).toEqual(['clickhouse-overview-shop-main-ch-overview-1.json', 'second-ch-overview-2.json']);
    expect(JSON.parse(strFromU8(entries['second-ch-overview-2.json'])).uid).toBe('ch-overview-2');
  });
});
