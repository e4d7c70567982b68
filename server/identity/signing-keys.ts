import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import { isSealedSecret, openStoredSecret, type SecretBox } from './secret-box';

export interface SigningKeys {
  /** Private keys for the identity server, newest first (the first one signs). */
  privateJwks: JWK[];
  /** Public keys for anyone who verifies tokens (the API, the JWKS endpoint). */
  publicJwks: JWK[];
}

/**
 * Keys live in the database so that every instance signs and verifies with the same ones and a restart signs
 * nobody out. The first instance to start creates the key under an advisory lock, so two instances starting on an
 * empty database at the same moment end up with the same single key rather than one each.
 */
export async function loadOrCreateSigningKeys(db: Database, box?: SecretBox): Promise<SigningKeys> {
  let rows = await readKeys(db);
  if (rows.length === 0) {
    rows = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(7312)');
      const existing = await readKeys(tx);
      if (existing.length > 0) return existing;
      const kid = randomUUID();
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
      const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
      const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
      await tx.query('INSERT INTO signing_keys (kid, private_jwk, public_jwk) VALUES ($1, $2, $3)', [
        kid,
        JSON.stringify(box ? box.seal(privateJwk) : privateJwk),
        JSON.stringify(publicJwk),
      ]);
      return readKeys(tx);
    });
  }
  // Keys written before a key was given are encrypted now (the public half stays readable: it is public).
  if (box) {
    for (const row of rows) {
      if (!isSealedSecret(row.private_jwk)) {
        await db.query('UPDATE signing_keys SET private_jwk = $2 WHERE kid = $1', [row.kid, JSON.stringify(box.seal(row.private_jwk))]);
      }
    }
  }
  return { privateJwks: rows.map((r) => openStoredSecret<JWK>(r.private_jwk, box)), publicJwks: rows.map((r) => r.public_jwk) };
}

async function readKeys(db: Queryable) {
  return db.query<{ kid: string; private_jwk: unknown; public_jwk: JWK }>(
    'SELECT kid, private_jwk, public_jwk FROM signing_keys ORDER BY created_at DESC',
  );
}
