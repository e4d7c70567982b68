import type { Queryable } from '../database';

export async function findLoggenConfig(db: Queryable, integrationId: number): Promise<Record<string, unknown> | undefined> {
  const rows = await db.query<{ config: Record<string, unknown> }>('SELECT config FROM loggen_configs WHERE integration_id = $1', [integrationId]);
  return rows[0]?.config;
}

export async function saveLoggenConfig(db: Queryable, integrationId: number, config: unknown, userId: string): Promise<void> {
  await db.query(
    `INSERT INTO loggen_configs (integration_id, config, updated_by) VALUES ($1, $2::json, $3)
     ON CONFLICT (integration_id) DO UPDATE SET config = EXCLUDED.config, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [integrationId, JSON.stringify(config), userId],
  );
}

export async function deleteLoggenConfig(db: Queryable, integrationId: number): Promise<void> {
  await db.query('DELETE FROM loggen_configs WHERE integration_id = $1', [integrationId]);
}
