import { createHash } from 'node:crypto';
import type { Queryable } from '../../../db/database';
import type { InstanceReadLimits } from './read-limits';

export interface QrynInstanceRow {
  id: string;
  integration_id: number;
  project_id: number;
  organization_id: number | null;
  cluster_id: string;
  writer_region_code: string;
  multi_org: boolean;
  ttl_addon_id: string;
  ttl_days: number;
  fingerprint_limit: number;
  cache_enabled: boolean;
  use_drilldown: boolean;
  /** The instance's own ClickHouse read bounds, each replacing the platform's default (read-settings.ts). */
  read_limits: InstanceReadLimits;
  database_name: string;
  api_key: string;
  api_secret_hash: string;
  created_at: Date;
}

export interface QrynTokenRow {
  id: number;
  instance_id: string;
  name: string;
  scope: string;
  token_hint: string;
  created_at: Date;
}

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export async function insertInstance(
  db: Queryable,
  row: Omit<QrynInstanceRow, 'created_at' | 'fingerprint_limit' | 'cache_enabled' | 'use_drilldown' | 'read_limits'>,
): Promise<QrynInstanceRow> {
  const rows = await db.query<QrynInstanceRow>(
    `INSERT INTO qryn_instances (id, integration_id, project_id, organization_id, cluster_id, writer_region_code, multi_org,
       ttl_addon_id, ttl_days, database_name, api_key, api_secret_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
    [row.id, row.integration_id, row.project_id, row.organization_id, row.cluster_id, row.writer_region_code, row.multi_org,
      row.ttl_addon_id, row.ttl_days, row.database_name, row.api_key, row.api_secret_hash],
  );
  return rows[0];
}

export async function findInstance(db: Queryable, id: string): Promise<QrynInstanceRow | undefined> {
  return (await db.query<QrynInstanceRow>('SELECT * FROM qryn_instances WHERE id = $1', [id]))[0];
}

export async function findInstanceOfProject(db: Queryable, projectId: number): Promise<QrynInstanceRow | undefined> {
  return (await db.query<QrynInstanceRow>('SELECT * FROM qryn_instances WHERE project_id = $1', [projectId]))[0];
}

export async function findInstanceOfIntegration(db: Queryable, integrationId: number): Promise<QrynInstanceRow | undefined> {
  return (await db.query<QrynInstanceRow>('SELECT * FROM qryn_instances WHERE integration_id = $1', [integrationId]))[0];
}

export async function listInstances(db: Queryable): Promise<QrynInstanceRow[]> {
  return db.query<QrynInstanceRow>('SELECT * FROM qryn_instances ORDER BY created_at');
}

export async function deleteInstance(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM qryn_instances WHERE id = $1', [id]);
}

export async function updateCredentials(db: Queryable, id: string, apiKey: string, secretHash: string): Promise<void> {
  await db.query('UPDATE qryn_instances SET api_key = $2, api_secret_hash = $3 WHERE id = $1', [id, apiKey, secretHash]);
}

export type InstanceSetting = 'ttl' | 'fingerprint_limit' | 'cache_enabled' | 'use_drilldown';

export async function updateRetention(db: Queryable, id: string, ttlAddonId: string, ttlDays: number): Promise<void> {
  await db.query('UPDATE qryn_instances SET ttl_addon_id = $2, ttl_days = $3 WHERE id = $1', [id, ttlAddonId, ttlDays]);
}

export async function updateFlag(db: Queryable, id: string, column: 'fingerprint_limit' | 'cache_enabled' | 'use_drilldown', value: number | boolean): Promise<void> {
  await db.query(`UPDATE qryn_instances SET ${column} = $2 WHERE id = $1`, [id, value]);
}

export async function updateReadLimits(db: Queryable, id: string, limits: InstanceReadLimits): Promise<void> {
  await db.query('UPDATE qryn_instances SET read_limits = $2 WHERE id = $1', [id, JSON.stringify(limits)]);
}

/** The instance whose key and secret these are (the secret compared by hash). */
export async function findInstanceByCredentials(db: Queryable, apiKey: string, secret: string): Promise<QrynInstanceRow | undefined> {
  return (await db.query<QrynInstanceRow>('SELECT * FROM qryn_instances WHERE api_key = $1 AND api_secret_hash = $2', [apiKey, hashSecret(secret)]))[0];
}

export async function findToken(db: Queryable, token: string): Promise<(QrynTokenRow & { instance: string }) | undefined> {
  return (
    await db.query<QrynTokenRow & { instance: string }>(
      'SELECT id, instance_id, instance_id AS instance, name, scope, token_hint, created_at FROM qryn_tokens WHERE token_hash = $1',
      [hashSecret(token)],
    )
  )[0];
}

export async function insertToken(
  db: Queryable,
  token: { instanceId: string; name: string; scope: string; token: string; creatorUserId: string | null },
): Promise<QrynTokenRow> {
  const hint = `${token.token.slice(0, 8)}…${token.token.slice(-4)}`;
  return (
    await db.query<QrynTokenRow>(
      `INSERT INTO qryn_tokens (instance_id, name, scope, token_hash, token_hint, creator_user_id) VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING id, instance_id, name, scope, token_hint, created_at`,
      [token.instanceId, token.name, token.scope, hashSecret(token.token), hint, token.creatorUserId],
    )
  )[0];
}

export async function listTokens(db: Queryable, instanceId: string): Promise<QrynTokenRow[]> {
  return db.query<QrynTokenRow>('SELECT id, instance_id, name, scope, token_hint, created_at FROM qryn_tokens WHERE instance_id = $1 ORDER BY id', [instanceId]);
}

export async function deleteToken(db: Queryable, instanceId: string, id: number): Promise<boolean> {
  return (await db.query('DELETE FROM qryn_tokens WHERE instance_id = $1 AND id = $2 RETURNING id', [instanceId, id])).length > 0;
}
