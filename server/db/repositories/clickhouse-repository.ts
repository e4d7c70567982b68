import type { Queryable } from '../database';
import type { ClusterDisk, ClusterStatus } from '../../../contract/clickhouse';

export interface ClusterRow {
  id: number;
  project_id: number;
  integration_id: number | null;
  name: string;
  status: ClusterStatus;
  status_reason: string | null;
  is_external: boolean;
  provider: string;
  region_code: string | null;
  machine: string | null;
  shards: number;
  replicas: number;
  disks: ClusterDisk[];
  version: string;
  zonal: boolean;
  zones: string[];
  control_plane_zone: string | null;
  ip_safe_list: string[];
  admin_user: string;
  admin_password_sha256: string | null;
  pending_admin_secret: string | null;
  host: string;
  http_port: number;
  tcp_port: number;
  secure: boolean;
  external_credentials: string | null;
  created_at: Date;
}

export interface ProcessRow {
  cluster_id: number;
  idx: number;
  http_port: number;
  tcp_port: number;
  data_dir: string;
  pid: number | null;
}

export interface NodeRow {
  cluster_id: number;
  shard: number;
  replica: number;
  process_idx: number;
  database: string | null;
}

export type NewCluster = Omit<ClusterRow, 'id' | 'created_at' | 'status_reason' | 'integration_id'> & { integration_id: number | null; created_by: string | null };

export async function insertCluster(db: Queryable, c: NewCluster): Promise<ClusterRow> {
  const rows = await db.query<ClusterRow>(
    `INSERT INTO clickhouse_clusters (project_id, integration_id, name, status, is_external, provider, region_code, machine, shards, replicas,
       disks, version, zonal, zones, control_plane_zone, ip_safe_list, admin_user, admin_password_sha256, pending_admin_secret, host,
       http_port, tcp_port, secure, external_credentials, created_by)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11::jsonb,$12,$13,$14::text[],$15,$16::text[],$17,$18,$19,$20,$21,$22,$23,$24,$25)
     RETURNING *`,
    [
      c.project_id,
      c.integration_id,
      c.name,
      c.status,
      c.is_external,
      c.provider,
      c.region_code,
      c.machine,
      c.shards,
      c.replicas,
      JSON.stringify(c.disks),
      c.version,
      c.zonal,
      c.zones,
      c.control_plane_zone,
      c.ip_safe_list,
      c.admin_user,
      c.admin_password_sha256,
      c.pending_admin_secret,
      c.host,
      c.http_port,
      c.tcp_port,
      c.secure,
      c.external_credentials,
      c.created_by,
    ],
  );
  return rows[0];
}

export async function findCluster(db: Queryable, id: number): Promise<ClusterRow | undefined> {
  return (await db.query<ClusterRow>('SELECT * FROM clickhouse_clusters WHERE id = $1', [id]))[0];
}

export async function findProjectCluster(db: Queryable, projectId: number, idOrName: { id?: number; name?: string }): Promise<ClusterRow | undefined> {
  const rows = await db.query<ClusterRow>('SELECT * FROM clickhouse_clusters WHERE project_id = $1 AND (id = $2 OR name = $3)', [
    projectId,
    idOrName.id ?? null,
    idOrName.name ?? null,
  ]);
  return rows[0];
}

export async function listProjectClusters(db: Queryable, projectId: number): Promise<ClusterRow[]> {
  return db.query<ClusterRow>('SELECT * FROM clickhouse_clusters WHERE project_id = $1 ORDER BY id', [projectId]);
}

export async function listClustersWithStatus(db: Queryable, statuses: readonly ClusterStatus[]): Promise<ClusterRow[]> {
  return db.query<ClusterRow>('SELECT * FROM clickhouse_clusters WHERE status = ANY($1::text[]) AND NOT is_external ORDER BY id', [statuses]);
}

/** Locks the project's cluster rows, so two creations at once cannot both see "no cluster yet". */
export async function lockProjectClusters(db: Queryable, projectId: number): Promise<ClusterRow[]> {
  await db.query('SELECT id FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
  return listProjectClusters(db, projectId);
}

/**
 * The managed clusters that hold (or are about to hold) servers in the whole account that owns this project: its
 * organization's projects, or the personal account's. The account's row is locked first, so two creates in two
 * projects of one account cannot both pass the cap.
 */
export async function lockAccountManagedClusters(db: Queryable, project: { organization_id: number | null; user_id: string }): Promise<number> {
  if (project.organization_id !== null) await db.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [project.organization_id]);
  else await db.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [project.user_id]);
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM clickhouse_clusters c JOIN projects p ON p.id = c.project_id
      WHERE NOT c.is_external AND c.status IN ('creating', 'active', 'stopped')
        AND (CASE WHEN $1::bigint IS NULL THEN p.organization_id IS NULL AND p.user_id = $2 ELSE p.organization_id = $1::bigint END)`,
    [project.organization_id, project.user_id],
  );
  return rows[0]?.n ?? 0;
}

export async function setClusterStatus(db: Queryable, id: number, status: ClusterStatus, reason: string | null, extra: { host?: string; http_port?: number; tcp_port?: number; clearSecret?: boolean } = {}): Promise<void> {
  await db.query(
    `UPDATE clickhouse_clusters SET status = $2, status_reason = $3, host = COALESCE($4, host), http_port = COALESCE($5, http_port), tcp_port = COALESCE($6, tcp_port),
       pending_admin_secret = CASE WHEN $7 THEN NULL ELSE pending_admin_secret END WHERE id = $1`,
    [id, status, reason, extra.host ?? null, extra.http_port ?? null, extra.tcp_port ?? null, extra.clearSecret ?? false],
  );
}

export async function setIpSafeList(db: Queryable, id: number, list: readonly string[]): Promise<void> {
  await db.query('UPDATE clickhouse_clusters SET ip_safe_list = $2::text[] WHERE id = $1', [id, list]);
}

export async function deleteClusterRow(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM clickhouse_clusters WHERE id = $1', [id]);
}

export async function replaceProcesses(db: Queryable, clusterId: number, processes: readonly Omit<ProcessRow, 'cluster_id'>[], nodes: readonly Omit<NodeRow, 'cluster_id'>[]): Promise<void> {
  await db.query('DELETE FROM clickhouse_nodes WHERE cluster_id = $1', [clusterId]);
  await db.query('DELETE FROM clickhouse_processes WHERE cluster_id = $1', [clusterId]);
  for (const p of processes) {
    await db.query('INSERT INTO clickhouse_processes (cluster_id, idx, http_port, tcp_port, data_dir, pid) VALUES ($1,$2,$3,$4,$5,$6)', [clusterId, p.idx, p.http_port, p.tcp_port, p.data_dir, p.pid]);
  }
  for (const n of nodes) {
    await db.query('INSERT INTO clickhouse_nodes (cluster_id, shard, replica, process_idx, database) VALUES ($1,$2,$3,$4,$5)', [clusterId, n.shard, n.replica, n.process_idx, n.database]);
  }
}

export async function setProcessPid(db: Queryable, clusterId: number, idx: number, pid: number | null): Promise<void> {
  await db.query('UPDATE clickhouse_processes SET pid = $3 WHERE cluster_id = $1 AND idx = $2', [clusterId, idx, pid]);
}

export async function listProcesses(db: Queryable, clusterId: number): Promise<ProcessRow[]> {
  return db.query<ProcessRow>('SELECT * FROM clickhouse_processes WHERE cluster_id = $1 ORDER BY idx', [clusterId]);
}

export async function countAllProcesses(db: Queryable, exceptClusterId: number): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM clickhouse_processes WHERE cluster_id <> $1', [exceptClusterId]);
  return rows[0].n;
}

export async function listNodes(db: Queryable, clusterId: number): Promise<NodeRow[]> {
  return db.query<NodeRow>('SELECT * FROM clickhouse_nodes WHERE cluster_id = $1 ORDER BY shard, replica', [clusterId]);
}

/** Whether the project's payer has a card on file: the project's billing account, else its organization's, else the owner's personal one. */
export async function projectHasPaymentMethod(db: Queryable, projectId: number): Promise<boolean> {
  const rows = await db.query<{ has: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM projects p
         LEFT JOIN organizations o ON o.id = p.organization_id
         JOIN billing_accounts b ON b.id = COALESCE(p.billing_account_id, o.billing_account_id,
           (SELECT id FROM billing_accounts x WHERE x.owner_user_id = p.user_id ORDER BY x.is_default DESC, x.created_at DESC, x.id DESC LIMIT 1))
        WHERE p.id = $1 AND b.payment_method_id IS NOT NULL) AS has`,
    [projectId],
  );
  return rows[0]?.has ?? false;
}
