import type { Queryable } from '../db/database';

// Ends a user's identity-server sessions by removing them from oidc-provider's storage (oidc_models): the browser
// sessions, the grants and everything issued under those grants (refresh tokens, codes). A refresh with a removed
// token is then refused (invalid_grant) and keycloak-js signs the tab out; a new sign-in starts from the login page.
// Access tokens are JWTs that are not stored: they stay valid until they expire (ACCESS_TOKEN_TTL, 5 minutes).

interface SessionPayload {
  accountId?: string;
  authorizations?: Record<string, { sid?: string; grantId?: string }>;
}

/**
 * Removes every session and grant of the account except those of the session named by `keepSid` (the `sid` claim of
 * the caller's token), so a password change signs the other browsers out and keeps the current one. `keepSid` null
 * ends them all (account deletion). Returns how many sessions were ended.
 */
export async function endSessionsOfAccount(db: Queryable, accountId: string, keepSid: string | null): Promise<number> {
  const sessions = await db.query<{ id: string; payload: SessionPayload }>(
    "SELECT id, payload FROM oidc_models WHERE model = 'Session' AND payload->>'accountId' = $1",
    [accountId],
  );
  const kept = sessions.find((session) => keepSid !== null && Object.values(session.payload.authorizations ?? {}).some((a) => a.sid === keepSid));
  const keptGrants = Object.values(kept?.payload.authorizations ?? {})
    .map((authorization) => authorization.grantId)
    .filter((grantId): grantId is string => typeof grantId === 'string');
  const ended = sessions.filter((session) => session !== kept).map((session) => session.id);
  if (ended.length > 0) await db.query("DELETE FROM oidc_models WHERE model = 'Session' AND id = ANY($1::text[])", [ended]);
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
