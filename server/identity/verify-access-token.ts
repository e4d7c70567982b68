import { createLocalJWKSet, jwtVerify, type JWK } from 'jose';

// The claims the console and the API rely on. organization_id is absent (or null) in personal mode.
export interface AccessTokenClaims {
  sub: string;
  email: string;
  given_name: string;
  family_name: string;
  email_verified: boolean;
  organization_id: number | null;
  connection: string;
  sid: string;
  exp: number;
  scope?: string;
  /** When the user last typed their password (seconds since 1970); absent in tokens made before it was added. */
  auth_time?: number;
}

export class InvalidTokenError extends Error {}

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  publicJwks: JWK[];
}

/**
 * Verifies a bearer access token: RS256 signature by a platform key, issuer, audience, typ at+jwt (so an ID token
 * is refused) and expiry. Anything else is an InvalidTokenError, which the API answers with 401.
 */
export function createAccessTokenVerifier(options: TokenVerifierOptions) {
  const keys = createLocalJWKSet({ keys: options.publicJwks });
  return async function verifyAccessToken(token: string): Promise<AccessTokenClaims> {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ['RS256'],
        typ: 'at+jwt',
        requiredClaims: ['sub', 'exp'],
      });
      const org = payload.organization_id;
      return {
        ...(payload as unknown as AccessTokenClaims),
        organization_id: org === undefined || org === null || org === '' ? null : Number(org),
      };
    } catch (error) {
      throw new InvalidTokenError(error instanceof Error ? error.message : 'Invalid token');
    }
  };
}

export type AccessTokenVerifier = ReturnType<typeof createAccessTokenVerifier>;
