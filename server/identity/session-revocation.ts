import type { Queryable } from '../db/database';

// Ends identity-server sessions by removing them from oidc-provider's storage (oidc_models): the browser sessions,
// the grants and everything issued under those grants (refresh tokens, codes). A refresh with a removed token is
// then refused (invalid_grant) and keycloak-js signs the tab out; a new sign-in starts from the login page.
// Access tokens are JWTs that are not stored: the ended sessions' `sid`s are listed in ended_sessions until their
// last access token would have expired, and the API refuses tokens carrying a listed sid.

interface SessionPayload {
  accountId?: string;
  authorizations?: Record<string, { sid?: string; grantId?: string }>;
}

const sidsOf = (payload: SessionPayload) =>
  Object.values(payload.authorizations ?? {})
    .map((authorization) => authorization.sid)
    .filter((sid): sid is string => typeof sid === 'string');

/** Lists sids whose access tokens the API must refuse from now on (until `ttlSeconds` from now). */
export async function recordEndedSessions(db: Queryable, sids: readonly string[], ttlSeconds: number): Promise<void> {
  if (sids.length === 0) return;
  await db.query(
    `INSERT INTO ended_sessions (sid, expires_at) SELECT unnest($1::text[]), now() + make_interval(secs => $2)
     ON CONFLICT (sid) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
    [[...sids], ttlSeconds],
  );
}

/** True when the session of this sid was ended (its access tokens are refused). */
export async function isSessionEnded(db: Queryable, sid: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM ended_sessions WHERE sid = $1 AND expires_at > now()', [sid]);
  return rows.length > 0;
}

export async function sweepEndedSessions(db: Queryable): Promise<void> {
  await db.query('DELETE FROM ended_sessions WHERE expires_at < now()');
}

/**
 * Removes every session and grant of the account except those of the session named by `keepSid` (the `sid` claim of
 * the caller's token), so a password change signs the other browsers out and keeps the current one. `keepSid` null
 * ends them all (account deletion). `accessTokenTtlSeconds` bounds how long their sids stay listed. Returns how many
 * sessions were ended.
 */
export async function endSessionsOfAccount(db: Queryable, accountId: string, keepSid: string | null, accessTokenTtlSeconds = 3600): Promise<number> {
  const sessions = await db.query<{ id: string; payload: SessionPayload }>(
    "SELECT id, payload FROM oidc_models WHERE model = 'Session' AND payload->>'accountId' = $1",
    [accountId],
  );
  const kept = sessions.find((session) => keepSid !== null && sidsOf(session.payload).includes(keepSid));
  const keptGrants = Object.values(kept?.payload.authorizations ?? {})
    .map((authorization) => authorization.grantId)
    .filter((grantId): grantId is string => typeof grantId === 'string');
  const endedSessions = sessions.filter((session) => session !== kept);
  const ended = endedSessions.map((session) => session.id);
  if (ended.length > 0) await db.query("DELETE FROM oidc_models WHERE model = 'Session' AND id = ANY($1::text[])", [ended]);
  // Refresh tokens carry their sid too (a session row may be gone while its tokens live on).
  const tokenSids = await db.query<{ sid: string }>(
    "SELECT DISTINCT payload->>'sid' AS sid FROM oidc_models WHERE payload->>'accountId' = $1 AND payload->>'sid' IS NOT NULL",
    [accountId],
  );
  const endedSids = new Set([...endedSessions.flatMap((session) => sidsOf(session.payload)), ...tokenSids.map((row) => row.sid)]);
  if (keepSid !== null) endedSids.delete(keepSid);
  await recordEndedSessions(db, [...endedSids], accessTokenTtlSeconds);
  const grants = await db.query<{ id: string }>(
    "SELECT id FROM oidc_models WHERE model = 'Grant' AND payload->>'accountId' = $1 AND NOT (id = ANY($2::text[]))",
    [accountId, keptGrants],
  );
  const grantIds = grants.map((grant) => grant.id);
  if (grantIds.length > 0) {
    await db.query('DELETE FROM oidc_models WHERE grant_id = ANY($1::text[])', [grantIds]);
    await db.query("DELETE FROM oidc_models WHERE model = 'Grant' AND id = ANY($1::text[])", [grantIds]);
  }
  // Artifacts of the account not tied to a kept grant (a refresh token whose grant row is already gone).
  await db.query("DELETE FROM oidc_models WHERE payload->>'accountId' = $1 AND grant_id IS NOT NULL AND NOT (grant_id = ANY($2::text[]))", [accountId, keptGrants]);
  return ended.length;
}

/**
 * Ends one sign-in: the browser session holding `sid`, its grant and every token issued under it, and lists the
 * sid so its access tokens are refused. Used when the console's refresh token is revoked (RFC 7009).
 */
export async function endSession(db: Queryable, sid: string, grantId: string | undefined, accessTokenTtlSeconds: number): Promise<void> {
  await db.query(
    `DELETE FROM oidc_models WHERE model = 'Session' AND EXISTS (
       SELECT 1 FROM jsonb_each(payload->'authorizations') AS a(client, value) WHERE a.value->>'sid' = $1)`,
    [sid],
  );
  if (grantId) {
    await db.query('DELETE FROM oidc_models WHERE grant_id = $1', [grantId]);
    await db.query("DELETE FROM oidc_models WHERE model = 'Grant' AND id = $1", [grantId]);
  }
  await recordEndedSessions(db, [sid], accessTokenTtlSeconds);
}
