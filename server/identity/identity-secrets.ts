import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database';

/**
 * Cookie signing keys shared by every instance and kept across restarts (in memory they would sign everyone out
 * on each deploy and break sessions between instances). The first instance creates them; ON CONFLICT makes two
 * simultaneous first starts agree on whichever row landed.
 */
export async function loadOrCreateCookieKeys(db: Queryable): Promise<string[]> {
  const name = 'cookie_keys';
  await db.query('INSERT INTO identity_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    JSON.stringify([randomBytes(32).toString('base64url')]),
  ]);
  const rows = await db.query<{ value: string }>('SELECT value FROM identity_secrets WHERE name = $1', [name]);
  return JSON.parse(rows[0].value) as string[];
}
