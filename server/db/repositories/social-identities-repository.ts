import type { Queryable } from '../database';

// External identities (issuer, subject) linked to console accounts, and the sign-ins started at a provider.

export interface SocialIdentityRow {
  issuer: string;
  subject: string;
  user_id: string;
  email: string;
}

export async function findSocialIdentity(db: Queryable, issuer: string, subject: string): Promise<SocialIdentityRow | undefined> {
  const rows = await db.query<SocialIdentityRow>(
    'SELECT issuer, subject, user_id, email FROM social_identities WHERE issuer = $1 AND subject = $2',
    [issuer, subject],
  );
  return rows[0];
}

/** The identities of one account at one issuer (at most one is allowed to be linked by email). */
export async function listSocialIdentitiesOfUser(db: Queryable, userId: string): Promise<SocialIdentityRow[]> {
  return db.query<SocialIdentityRow>('SELECT issuer, subject, user_id, email FROM social_identities WHERE user_id = $1 ORDER BY created_at', [userId]);
}

export async function linkSocialIdentity(db: Queryable, identity: SocialIdentityRow): Promise<void> {
  await db.query('INSERT INTO social_identities (issuer, subject, user_id, email) VALUES ($1, $2, $3, $4)', [
    identity.issuer,
    identity.subject,
    identity.user_id,
    identity.email,
  ]);
}

export async function touchSocialIdentity(db: Queryable, issuer: string, subject: string, email: string): Promise<void> {
  await db.query('UPDATE social_identities SET last_sign_in_at = now(), email = $3 WHERE issuer = $1 AND subject = $2', [issuer, subject, email]);
}

export interface SocialSignInAttempt {
  interaction_uid: string;
  state: string;
  nonce: string;
  code_verifier: string;
}

/** A new start in the same interaction replaces the previous one (only the latest redirect may come back). */
export async function saveSocialSignInAttempt(db: Queryable, attempt: SocialSignInAttempt, ttlSeconds: number): Promise<void> {
  await db.query(
    `INSERT INTO social_sign_in_attempts (interaction_uid, state, nonce, code_verifier, expires_at)
     VALUES ($1, $2, $3, $4, now() + ($5::int * interval '1 second'))
     ON CONFLICT (interaction_uid) DO UPDATE SET state = $2, nonce = $3, code_verifier = $4, expires_at = now() + ($5::int * interval '1 second')`,
    [attempt.interaction_uid, attempt.state, attempt.nonce, attempt.code_verifier, ttlSeconds],
  );
}

/** Removes and returns the interaction's unexpired attempt: a callback is answered once. */
export async function takeSocialSignInAttempt(db: Queryable, interactionUid: string): Promise<SocialSignInAttempt | undefined> {
  const rows = await db.query<SocialSignInAttempt & { expired: boolean }>(
    `DELETE FROM social_sign_in_attempts WHERE interaction_uid = $1
     RETURNING interaction_uid, state, nonce, code_verifier, expires_at < now() AS expired`,
    [interactionUid],
  );
  const row = rows[0];
  if (!row || row.expired) return undefined;
  const { expired: _expired, ...attempt } = row;
  return attempt;
}

export async function sweepSocialSignInAttempts(db: Queryable): Promise<void> {
  await db.query('DELETE FROM social_sign_in_attempts WHERE expires_at < now()');
}
