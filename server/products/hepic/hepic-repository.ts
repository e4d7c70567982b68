import type { Queryable } from '../../db/database';

// Hepic's rows: the instance (hepic_instances), its scoped tokens (hepic_tokens) and its users, which are the
// integration's user list (integration_users, shared with Grafana; role holds the Hepic group).

export interface HepicInstanceRow {
  id: string;
  integration_id: number;
  project_id: number;
  organization_id: number | null;
  cluster_id: string;
  price_id: string;
  /** bigint arrives as text from PostgreSQL; read it with Number(). */
  storage_quota_bytes: string | number | null;
  rotation_days: number;
  database_name: string;
  /** SHA-256 (hex) of the instance's ingestion key: the plain key is never stored (ingest-key.ts). */
  api_key_hash: string;
  api_key_hint: string;
  subdomain_prefix: string;
  hepic_metrics_enabled: boolean;
  auto_add: boolean;
  created_at: Date;
}

export interface HepicTokenRow {
  id: number;
  instance_id: string;
  name: string;
  scope: string;
  /** SHA-256 (hex) of the token; the plain token is only in the creation answer. */
  token_hash: string;
  token_hint: string;
  creator_user_id: string | null;
  created_at: Date;
  expires_at: Date;
}

export interface HepicUserRow {
  user_id: string;
  email: string;
  given_name: string;
  family_name: string;
  role: string;
}

export async function insertInstance(db: Queryable, row: Omit<HepicInstanceRow, 'created_at' | 'hepic_metrics_enabled' | 'auto_add'>): Promise<HepicInstanceRow> {
  return (
    await db.query<HepicInstanceRow>(
      `INSERT INTO hepic_instances (id, integration_id, project_id, organization_id, cluster_id, price_id, storage_quota_bytes, rotation_days,
         database_name, api_key_hash, api_key_hint, subdomain_prefix)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
      [row.id, row.integration_id, row.project_id, row.organization_id, row.cluster_id, row.price_id, row.storage_quota_bytes, row.rotation_days,
        row.database_name, row.api_key_hash, row.api_key_hint, row.subdomain_prefix],
    )
  )[0];
}

export async function findInstance(db: Queryable, id: string): Promise<HepicInstanceRow | undefined> {
  return (await db.query<HepicInstanceRow>('SELECT * FROM hepic_instances WHERE id = $1', [id]))[0];
}

export async function findInstanceOfProject(db: Queryable, projectId: number): Promise<HepicInstanceRow | undefined> {
  return (await db.query<HepicInstanceRow>('SELECT * FROM hepic_instances WHERE project_id = $1', [projectId]))[0];
}

export async function findInstanceOfIntegration(db: Queryable, integrationId: number): Promise<HepicInstanceRow | undefined> {
  return (await db.query<HepicInstanceRow>('SELECT * FROM hepic_instances WHERE integration_id = $1', [integrationId]))[0];
}

export async function listInstances(db: Queryable): Promise<HepicInstanceRow[]> {
  return db.query<HepicInstanceRow>('SELECT * FROM hepic_instances ORDER BY created_at');
}

export async function deleteInstance(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM hepic_instances WHERE id = $1', [id]);
}

export async function updateSwitch(db: Queryable, id: string, column: 'hepic_metrics_enabled' | 'auto_add', value: boolean): Promise<void> {
  await db.query(`UPDATE hepic_instances SET ${column} = $2 WHERE id = $1`, [id, value]);
}

/**
 * The instance a HEP auth key opens, and until when, by the key's hash (ingest-key.ts): the instance's own key (no
 * expiry) or a scoped token (its expiry). Undefined for an unknown key.
 */
export async function findIngestKey(db: Queryable, keyHash: string): Promise<{ instance_id: string; expires_at: Date | null } | undefined> {
  const own = await db.query<{ id: string }>('SELECT id FROM hepic_instances WHERE api_key_hash = $1', [keyHash]);
  if (own[0]) return { instance_id: own[0].id, expires_at: null };
  return (await db.query<{ instance_id: string; expires_at: Date }>('SELECT instance_id, expires_at FROM hepic_tokens WHERE token_hash = $1', [keyHash]))[0];
}

/** Replaces the instance's ingestion key (rotation): the old key's hash is gone, so it is refused at once. */
export async function updateApiKey(db: Queryable, id: string, key: { hash: string; hint: string }): Promise<boolean> {
  return (await db.query('UPDATE hepic_instances SET api_key_hash = $2, api_key_hint = $3 WHERE id = $1 RETURNING id', [id, key.hash, key.hint])).length > 0;
}

export async function insertToken(
  db: Queryable,
  token: { instanceId: string; name: string; tokenHash: string; tokenHint: string; creatorUserId: string | null; createdAt: Date; expiresAt: Date },
): Promise<HepicTokenRow> {
  return (
    await db.query<HepicTokenRow>(
      `INSERT INTO hepic_tokens (instance_id, name, scope, token_hash, token_hint, creator_user_id, created_at, expires_at)
       VALUES ($1, $2, 'read', $3, $4, $5, $6, $7) RETURNING *`,
      [token.instanceId, token.name, token.tokenHash, token.tokenHint, token.creatorUserId, token.createdAt, token.expiresAt],
    )
  )[0];
}

/** The instance's tokens; `activeAt` keeps only those that have not expired at that time. */
export async function listTokens(db: Queryable, instanceId: string, activeAt?: Date): Promise<HepicTokenRow[]> {
  return activeAt
    ? db.query<HepicTokenRow>('SELECT * FROM hepic_tokens WHERE instance_id = $1 AND expires_at > $2 ORDER BY id', [instanceId, activeAt])
    : db.query<HepicTokenRow>('SELECT * FROM hepic_tokens WHERE instance_id = $1 ORDER BY id', [instanceId]);
}

export async function listUsers(db: Queryable, integrationId: number): Promise<HepicUserRow[]> {
  return db.query<HepicUserRow>(
    `SELECT u.id AS user_id, u.email, u.given_name, u.family_name, iu.role FROM integration_users iu JOIN users u ON u.id = iu.user_id
      WHERE iu.integration_id = $1 ORDER BY iu.created_at, u.email`,
    [integrationId],
  );
}

export async function findUserRole(db: Queryable, integrationId: number, userId: string): Promise<string | undefined> {
  return (await db.query<{ role: string }>('SELECT role FROM integration_users WHERE integration_id = $1 AND user_id = $2', [integrationId, userId]))[0]?.role;
}

/** Adds users (those already listed keep their group); answers how many were added. */
export async function addUsers(db: Queryable, integrationId: number, users: readonly { userId: string; group: string }[]): Promise<number> {
  let added = 0;
  for (const user of users) {
    const rows = await db.query('INSERT INTO integration_users (integration_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING user_id', [
      integrationId,
      user.userId,
      user.group,
    ]);
    added += rows.length;
  }
  return added;
}

export async function setUserRole(db: Queryable, integrationId: number, userId: string, group: string): Promise<boolean> {
  return (await db.query('UPDATE integration_users SET role = $3 WHERE integration_id = $1 AND user_id = $2 RETURNING user_id', [integrationId, userId, group])).length > 0;
}

export async function removeUser(db: Queryable, integrationId: number, userId: string): Promise<boolean> {
  return (await db.query('DELETE FROM integration_users WHERE integration_id = $1 AND user_id = $2 RETURNING user_id', [integrationId, userId])).length > 0;
}

/** Members of the project not yet in the list (the add form's choices, and what auto-add adds). */
export async function listCandidates(db: Queryable, integrationId: number, projectId: number): Promise<{ user_id: string; email: string; given_name: string; family_name: string }[]> {
  return db.query(
    `SELECT u.id AS user_id, u.email, u.given_name, u.family_name FROM project_members pm JOIN users u ON u.id = pm.user_id
      WHERE pm.project_id = $1 AND NOT EXISTS (SELECT 1 FROM integration_users iu WHERE iu.integration_id = $2 AND iu.user_id = pm.user_id)
      ORDER BY pm.created_at, u.email`,
    [projectId, integrationId],
  );
}

export async function isProjectMember(db: Queryable, projectId: number, userId: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM project_members WHERE project_id = $1 AND user_id = $2', [projectId, userId])).length > 0;
}
