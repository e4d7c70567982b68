import type { IncomingMessage } from 'node:http';
import type { Queryable } from '../db/database';
import { findCallerAccess, type CallerAccess } from '../db/repositories/caller-access-repository';
import { findMembership, type MembershipRow } from '../db/repositories/memberships-repository';
import { InvalidTokenError, type AccessTokenClaims, type AccessTokenVerifier } from '../identity/verify-access-token';
import { unauthorized, type Caller, type CallerResolver } from '../route-kit/caller';

const sessionEndedError = () =>
  unauthorized('This sign-in has ended (the password was changed or the session was revoked). Please sign in again.');

/**
 * Verifying an RS256 signature costs far more than the rest of a typical read, and a console sends the same token
 * many times a minute. A verified token is remembered by its exact string until it expires (at most a minute), so
 * a revoked signing key or a deleted user stops working within that minute. forgetSubject drops a user's entries
 * at once (account deletion in this process).
 */
export function createCallerResolver(
  verify: AccessTokenVerifier,
  options: {
    maxEntries?: number;
    maxAgeMs?: number;
    share?: <T>(key: string, compute: () => Promise<T>) => Promise<T>;
    /**
     * True when the token's sign-in was ended (password change elsewhere, revoked refresh token). Without it, the
     * ended sign-in and the membership are read together in one statement on every request (findCallerAccess).
     */
    sessionEnded?: (sid: string) => Promise<boolean>;
  } = {},
): CallerResolver {
  // Membership is read on nearly every organization-mode call; the read cache (when given) shares it between calls
  // until the next write.
  const share = options.share ?? (<T>(_key: string, compute: () => Promise<T>) => compute());
  const maxEntries = options.maxEntries ?? 10_000;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const cache = new Map<string, { claims: AccessTokenClaims; until: number }>();

  async function claimsFor(token: string): Promise<AccessTokenClaims> {
    const now = Date.now();
    const hit = cache.get(token);
    if (hit && hit.until > now) return hit.claims;
    if (hit) cache.delete(token);
    let claims: AccessTokenClaims;
    try {
      claims = await verify(token);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw unauthorized('The access token is invalid or has expired. Please sign in again.');
      throw error;
    }
    if (cache.size >= maxEntries) cache.clear();
    cache.set(token, { claims, until: Math.min(claims.exp * 1000, now + maxAgeMs) });
    return claims;
  }

  return {
    async resolve(req: IncomingMessage, db: Queryable): Promise<Caller | null> {
      const header = req.headers.authorization;
      if (!header) return null;
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) throw unauthorized('The Authorization header must be "Bearer <access token>".');
      const claims = await claimsFor(match[1]);
      const organizationId = claims.organization_id;
      let membership: Promise<MembershipRow | undefined> | undefined;
      if (options.sessionEnded) {
        if (claims.sid && (await options.sessionEnded(claims.sid))) throw sessionEndedError();
      } else if (claims.sid || organizationId !== null) {
        const sid = claims.sid || null;
        const access = await share<CallerAccess>(`access|${sid}|${organizationId}|${claims.sub}`, () =>
          findCallerAccess(db, { sid, organizationId, userId: claims.sub }),
        );
        if (access.sessionEnded) throw sessionEndedError();
        membership = Promise.resolve(access.membership);
      }
      return {
        claims,
        userId: claims.sub,
        organizationId,
        membership: () =>
          (membership ??=
            organizationId === null
              ? Promise.resolve(undefined)
              : share(`membership|${organizationId}|${claims.sub}`, () => findMembership(db, organizationId, claims.sub))),
      };
    },
    forgetSubject(sub: string): void {
      for (const [token, entry] of cache) if (entry.claims.sub === sub) cache.delete(token);
    },
  };
}
