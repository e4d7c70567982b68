import type { Queryable } from '../../db/database';
import type { DashboardModel, DatasourceModel } from './grafana-api';

export interface DatasourceRow {
  id: number;
  integration_id: number;
  project_id: number;
  kind: 'loki' | 'prometheus' | 'tempo' | 'clickhouse';
  cluster_id: number | null;
  uid: string;
  name: string;
  type: string;
  url: string;
  remote_id: number;
  org_id: number;
  model: Omit<DatasourceModel, 'secureJsonData'>;
  secure_sealed: string | null;
}

export interface DashboardRow {
  id: number;
  integration_id: number;
  project_id: number;
  cluster_id: number | null;
  uid: string;
  title: string;
  version: number;
  remote_id: number;
  url: string | null;
  model: DashboardModel;
}

export async function findConfig(db: Queryable, integrationId: number): Promise<{ auto_add_users: boolean }> {
  const rows = await db.query<{ auto_add_users: boolean }>('SELECT auto_add_users FROM grafana_configs WHERE integration_id = $1', [integrationId]);
  return rows[0] ?? { auto_add_users: false };
}

export async function saveAutoAdd(db: Queryable, integrationId: number, enabled: boolean): Promise<void> {
  await db.query(
    `INSERT INTO grafana_configs (integration_id, auto_add_users) VALUES ($1, $2)
     ON CONFLICT (integration_id) DO UPDATE SET auto_add_users = EXCLUDED.auto_add_users, updated_at = now()`,
    [integrationId, enabled],
  );
}

export async function listDatasources(db: Queryable, integrationId: number): Promise<DatasourceRow[]> {
  return db.query<DatasourceRow>('SELECT * FROM grafana_datasources WHERE integration_id = $1 ORDER BY id', [integrationId]);
}

export async function insertDatasource(db: Queryable, row: Omit<DatasourceRow, 'id'>): Promise<DatasourceRow> {
  return (
    await db.query<DatasourceRow>(
      `INSERT INTO grafana_datasources (integration_id, project_id, kind, cluster_id, uid, name, type, url, remote_id, org_id, model, secure_sealed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::json, $12) RETURNING *`,
      [row.integration_id, row.project_id, row.kind, row.cluster_id, row.uid, row.name, row.type, row.url, row.remote_id, row.org_id, JSON.stringify(row.model), row.secure_sealed],
    )
  )[0];
}

export async function isNameTaken(db: Queryable, orgId: number, name: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM grafana_datasources WHERE org_id = $1 AND name = $2', [orgId, name])).length > 0;
}

export async function listDashboards(db: Queryable, integrationId: number): Promise<DashboardRow[]> {
  return db.query<DashboardRow>('SELECT * FROM grafana_dashboards WHERE integration_id = $1 ORDER BY id', [integrationId]);
}

export async function upsertDashboard(db: Queryable, row: Omit<DashboardRow, 'id'>): Promise<void> {
  await db.query(
    `INSERT INTO grafana_dashboards (integration_id, project_id, cluster_id, uid, title, version, remote_id, url, model)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::json)
     ON CONFLICT (integration_id, cluster_id) DO UPDATE SET title = EXCLUDED.title, version = EXCLUDED.version, remote_id = EXCLUDED.remote_id,
       url = EXCLUDED.url, model = EXCLUDED.model, updated_at = now()`,
    [row.integration_id, row.project_id, row.cluster_id, row.uid, row.title, row.version, row.remote_id, row.url, JSON.stringify(row.model)],
  );
}

/** Removes what the project gave Grafana; answers the uids, so HTTP mode can delete them in Grafana too. */
export async function deleteIntegrationState(db: Queryable, integrationId: number): Promise<{ datasources: string[]; dashboards: string[] }> {
  const datasources = await db.query<{ uid: string }>('DELETE FROM grafana_datasources WHERE integration_id = $1 RETURNING uid', [integrationId]);
  const dashboards = await db.query<{ uid: string }>('DELETE FROM grafana_dashboards WHERE integration_id = $1 RETURNING uid', [integrationId]);
  await db.query('DELETE FROM grafana_configs WHERE integration_id = $1', [integrationId]);
  return { datasources: datasources.map((r) => r.uid), dashboards: dashboards.map((r) => r.uid) };
}

export interface GrafanaUserRow {
  user_id: string;
  given_name: string;
  family_name: string;
  email: string;
  role: string;
}

export async function listGrafanaUsers(db: Queryable, integrationId: number): Promise<GrafanaUserRow[]> {
  return db.query<GrafanaUserRow>(
    `SELECT u.id AS user_id, u.given_name, u.family_name, u.email, iu.role FROM integration_users iu JOIN users u ON u.id = iu.user_id
      WHERE iu.integration_id = $1 ORDER BY u.email`,
    [integrationId],
  );
}
