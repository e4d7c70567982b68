import type { Queryable } from '../db/database';

// The shape oidc-provider stores: a JSON object whose optional fields grantId, userCode and uid it also looks up by.
type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string };

/**
 * oidc-provider's storage over the oidc_models table (one row per grant, session, interaction, code, token...). The
 * database is the only state, so a restart signs nobody out and several instances behind a load balancer agree.
 * Expired rows are invisible to find* at once and deleted later by sweepExpiredModels.
 */
export function createOidcAdapterClass(db: Queryable) {
  return class DatabaseOidcAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn: number | undefined): Promise<void> {
      await db.query(
        `INSERT INTO oidc_models (model, id, payload, grant_id, user_code, uid, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
           user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [
          this.model,
          id,
          JSON.stringify(payload),
          payload.grantId ?? null,
          payload.userCode ?? null,
          payload.uid ?? null,
          expiresIn ? Math.ceil(expiresIn) : null,
        ],
      );
    }

    async find(id: string): Promise<Payload | undefined> {
      return this.findWhere('id = $2', id);
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      return this.findWhere('user_code = $2', userCode);
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      return this.findWhere('uid = $2', uid);
    }

    // consumed is kept in its own column so that marking a code or refresh token used never rewrites the payload.
    async consume(id: string): Promise<void> {
      await db.query('UPDATE oidc_models SET consumed_at = now() WHERE model = $1 AND id = $2', [this.model, id]);
    }

    async destroy(id: string): Promise<void> {
      await db.query('DELETE FROM oidc_models WHERE model = $1 AND id = $2', [this.model, id]);
    }

    // A revoked grant takes every artifact issued under it with it, whatever the model (codes, refresh tokens...).
    async revokeByGrantId(grantId: string): Promise<void> {
      await db.query('DELETE FROM oidc_models WHERE grant_id = $1', [grantId]);
    }

    private async findWhere(condition: string, value: string): Promise<Payload | undefined> {
      const rows = await db.query<{ payload: Payload; consumed_at: Date | null }>(
        `SELECT payload, consumed_at FROM oidc_models
          WHERE model = $1 AND ${condition} AND (expires_at IS NULL OR expires_at > now()) LIMIT 1`,
        [this.model, value],
      );
      const row = rows[0];
      if (!row) return undefined;
      return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
    }
  };
}

export async function sweepExpiredModels(db: Queryable): Promise<void> {
  await db.query('DELETE FROM oidc_models WHERE expires_at < now()');
}
