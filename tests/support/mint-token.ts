import { randomUUID } from 'node:crypto';
import { SignJWT, importJWK, type JWK } from 'jose';
import type { PlatformConfig } from '../../server/config';
import type { Database } from '../../server/db/database';
import { loadOrCreateSigningKeys } from '../../server/identity/signing-keys';
import type { UserRow } from '../../server/db/repositories/users-repository';

export interface MintOptions {
  /** Organization mode; omit or null for the personal account. */
  organizationId?: number | null;
  /** Seconds until expiry (negative for an already expired token). Default the config's access token TTL. */
  expiresIn?: number;
  audience?: string;
  issuer?: string;
  typ?: string;
  /** When the user last typed their password, seconds ago. Default 0 (just signed in). */
  authAgeSeconds?: number;
}

/**
 * Signs an access token with the platform's own key, with the same header and claims as the identity server's
 * (RS256, typ at+jwt, iss, aud, sub, given_name, family_name, email, email_verified, organization_id, connection,
 * sid, scope, client_id, auth_time, jti, iat, exp); tests/api/real-sign-in.test.ts checks the claim set against a real token, so an API test can act as any user in any mode without walking the login pages.
 */
export async function createTokenMinter(db: Database, config: PlatformConfig) {
  const { privateJwks } = await loadOrCreateSigningKeys(db);
  const jwk = privateJwks[0] as JWK & { kid: string };
  const key = await importJWK(jwk, 'RS256');
  return async function mint(user: Pick<UserRow, 'id' | 'email' | 'given_name' | 'family_name' | 'connection' | 'email_verified'>, options: MintOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      email: user.email,
      given_name: user.given_name,
      family_name: user.family_name,
      email_verified: user.email_verified,
      connection: user.connection,
      sid: randomUUID(),
      scope: 'openid profile email',
      client_id: config.clientId,
      auth_time: now - (options.authAgeSeconds ?? 0),
    };
    if (options.organizationId !== undefined && options.organizationId !== null) claims.organization_id = options.organizationId;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', typ: options.typ ?? 'at+jwt', kid: jwk.kid })
      .setIssuer(options.issuer ?? config.issuer)
      .setAudience(options.audience ?? config.apiAudience)
      .setSubject(user.id)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + (options.expiresIn ?? config.accessTokenTtlSeconds))
      .sign(key);
  };
}

export type TokenMinter = Awaited<ReturnType<typeof createTokenMinter>>;
