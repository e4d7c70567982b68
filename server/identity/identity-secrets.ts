import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database';
import { isSealedSecret, openStoredSecret, type SecretBox } from './secret-box';

/**
 * Cookie signing keys shared by every instance and kept across restarts (in memory they would sign everyone out
 * on each deploy and break sessions between instances). The first instance creates them; ON CONFLICT makes two
 * simultaneous first starts agree on whichever row landed.
 */
export async function loadOrCreateCookieKeys(db: Queryable, box?: SecretBox): Promise<string[]> {
  const name = 'cookie_keys';
  const keys = [randomBytes(32).toString('base64url')];
  await db.query('INSERT INTO identity_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    JSON.stringify(box ? box.seal(keys) : keys),
  ]);
  const rows = await db.query<{ value: string }>('SELECT value FROM identity_secrets WHERE name = $1', [name]);
  const stored = JSON.parse(rows[0].value) as unknown;
  // Keys written before a key was given are encrypted now.
  if (box && !isSealedSecret(stored)) {
    await db.query('UPDATE identity_secrets SET value = $2 WHERE name = $1', [name, JSON.stringify(box.seal(stored))]);
  }
  return openStoredSecret<string[]>(stored, box);
}
