import { randomBytes } from 'node:crypto';
import { stringify } from 'yaml';
import { zipSync, strToU8 } from 'fflate';
import { CLICKHOUSE_DATASOURCE_TYPE, type QrynDatasourceKind } from '../../../contract/grafana';
import type { DashboardModel, DatasourceModel } from './grafana-api';

// What the platform gives Grafana: datasource JSON (Grafana's datasource API and provisioning shape), dashboard JSON
// (Grafana's dashboard model) and the provisioning files of local mode.

/** Grafana uids: at most 40 characters of letters, digits, '-' and '_'. */
export const newUid = (prefix: string) => `${prefix}-${randomBytes(8).toString('hex')}`;

const QRYN_TYPES: Record<QrynDatasourceKind, string> = { loki: 'loki', prometheus: 'prometheus', tempo: 'tempo' };

/**
 * A qryn datasource: the instance's URL (Loki, Prometheus and Tempo paths follow it) with basic auth, the instance's
 * API key as user and a read-scoped token made for Grafana as password (docs/grafana.md).
 */
export function qrynDatasource(kind: QrynDatasourceKind, input: { name: string; url: string; user: string; password: string; related: { lokiUid: string; promUid: string; tempoUid: string } }): DatasourceModel {
  const jsonData: Record<string, unknown> =
    kind === 'loki'
      ? { maxLines: 1000, derivedFields: [{ name: 'TraceID', matcherRegex: 'traceID=(\\w+)', url: '${__value.raw}', datasourceUid: input.related.tempoUid }] }
      : kind === 'prometheus'
        ? { httpMethod: 'POST', prometheusType: 'Prometheus', timeInterval: '15s' }
        : { tracesToLogsV2: { datasourceUid: input.related.lokiUid }, serviceMap: { datasourceUid: input.related.promUid }, nodeGraph: { enabled: true } };
  return {
    uid: kind === 'loki' ? input.related.lokiUid : kind === 'prometheus' ? input.related.promUid : input.related.tempoUid,
    name: input.name,
    type: QRYN_TYPES[kind],
    access: 'proxy',
    url: input.url,
    basicAuth: true,
    basicAuthUser: input.user,
    isDefault: false,
    jsonData,
    secureJsonData: { basicAuthPassword: input.password },
  };
}

/** A ClickHouse cluster through the grafana-clickhouse-datasource plugin, over HTTP. */
export function clickhouseDatasource(input: { uid: string; name: string; host: string; port: number; secure: boolean; username: string; password?: string }): DatasourceModel {
  return {
    uid: input.uid,
    name: input.name,
    type: CLICKHOUSE_DATASOURCE_TYPE,
    access: 'proxy',
    url: `${input.secure ? 'https' : 'http'}://${input.host}:${input.port}`,
    basicAuth: false,
    isDefault: false,
    jsonData: { host: input.host, port: input.port, protocol: 'http', secure: input.secure, username: input.username, defaultDatabase: 'default' },
    ...(input.password !== undefined ? { secureJsonData: { password: input.password } } : {}),
  };
}

function sqlTarget(datasource: { type: string; uid: string }, rawSql: string, format: number) {
  // format: 0 time series, 1 table (the plugin's Format enum); queryType and editorType as its SQL editor saves them.
  return { refId: 'A', datasource, editorType: 'sql', queryType: format === 0 ? 'timeseries' : 'table', format, rawSql };
}

/** A cluster's overview dashboard: size, parts and queries, read from ClickHouse's system tables. */
export function clusterDashboard(input: { uid: string; title: string; project: string; cluster: string; datasourceUid: string; version?: number }): DashboardModel {
  const datasource = { type: CLICKHOUSE_DATASOURCE_TYPE, uid: input.datasourceUid };
  const panel = (id: number, type: string, title: string, gridPos: { x: number; y: number; w: number; h: number }, rawSql: string, format: number) => ({
    id,
    type,
    title,
    gridPos,
    datasource,
    targets: [sqlTarget(datasource, rawSql, format)],
  });
  return {
    id: null,
    uid: input.uid,
    title: input.title,
    tags: ['clickhouse', input.project, input.cluster],
    timezone: 'browser',
    editable: true,
    graphTooltip: 0,
    schemaVersion: 39,
    version: input.version ?? 1,
    refresh: '1m',
    time: { from: 'now-6h', to: 'now' },
    annotations: { list: [] },
    templating: { list: [] },
    panels: [
      panel(1, 'stat', 'Rows', { x: 0, y: 0, w: 8, h: 5 }, 'SELECT sum(rows) AS rows FROM system.parts WHERE active', 1),
      panel(2, 'stat', 'Size on disk', { x: 8, y: 0, w: 8, h: 5 }, 'SELECT sum(bytes_on_disk) AS bytes FROM system.parts WHERE active', 1),
      panel(3, 'stat', 'Tables', { x: 16, y: 0, w: 8, h: 5 }, "SELECT count() AS tables FROM system.tables WHERE database NOT IN ('system')", 1),
      panel(
        4,
        'table',
        'Largest tables',
        { x: 0, y: 5, w: 24, h: 9 },
        'SELECT database, table, sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts WHERE active GROUP BY database, table ORDER BY bytes DESC LIMIT 20',
        1,
      ),
      panel(5, 'table', 'Running queries', { x: 0, y: 14, w: 24, h: 8 }, 'SELECT query_id, user, elapsed, read_rows, memory_usage, query FROM system.processes', 1),
    ],
  };
}

/** Every uid of a datasource a dashboard's panels and targets use. */
export function datasourceUidsOf(dashboard: Record<string, unknown>): string[] {
  const uids = new Set<string>();
  for (const panel of (dashboard.panels as { datasource?: { uid?: string }; targets?: { datasource?: { uid?: string } }[] }[] | undefined) ?? []) {
    if (panel.datasource?.uid) uids.add(panel.datasource.uid);
    for (const target of panel.targets ?? []) if (target.datasource?.uid) uids.add(target.datasource.uid);
  }
  return [...uids];
}

const fileName = (title: string, uid: string) => `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-${uid}.json`;

/** The export: one JSON file per dashboard. */
export function dashboardsZip(dashboards: readonly DashboardModel[]): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const dashboard of dashboards) files[fileName(dashboard.title, dashboard.uid)] = strToU8(`${JSON.stringify(dashboard, null, 2)}\n`);
  return zipSync(files, { level: 6 });
}

/**
 * Local mode's provisioning files for a project (Grafana's provisioning format, apiVersion 1): the datasources YAML,
 * a dashboard provider YAML reading files from a folder, and the dashboard JSON files in that folder.
 */
export function provisioningFiles(input: {
  projectSlug: string;
  projectName: string;
  orgId: number;
  datasources: readonly DatasourceModel[];
  dashboards: readonly DashboardModel[];
  dashboardsPath?: string;
}): Record<string, string> {
  const folder = input.dashboardsPath ?? `/var/lib/grafana/dashboards/${input.projectSlug}`;
  const files: Record<string, string> = {};
  files[`provisioning/datasources/${input.projectSlug}.yaml`] = stringify({
    apiVersion: 1,
    datasources: input.datasources.map((ds) => ({
      name: ds.name,
      type: ds.type,
      uid: ds.uid,
      orgId: input.orgId,
      access: ds.access,
      url: ds.url,
      basicAuth: ds.basicAuth,
      ...(ds.basicAuthUser !== undefined ? { basicAuthUser: ds.basicAuthUser } : {}),
      isDefault: ds.isDefault,
      jsonData: ds.jsonData,
      ...(ds.secureJsonData ? { secureJsonData: ds.secureJsonData } : {}),
      version: 1,
      editable: false,
    })),
  });
  files[`provisioning/dashboards/${input.projectSlug}.yaml`] = stringify({
    apiVersion: 1,
    providers: [
      {
        name: input.projectSlug,
        orgId: input.orgId,
        folder: input.projectName,
        type: 'file',
        disableDeletion: false,
        allowUiUpdates: true,
        updateIntervalSeconds: 30,
        options: { path: folder, foldersFromFilesStructure: false },
      },
    ],
  });
  for (const dashboard of input.dashboards) files[`dashboards/${input.projectSlug}/${fileName(dashboard.title, dashboard.uid)}`] = `${JSON.stringify(dashboard, null, 2)}\n`;
  return files;
}

export function zipFiles(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])), { level: 6 });
}
