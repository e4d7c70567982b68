// Pure helpers around the identity server's tokens; the auth machine's guards are built on these.
import { camelizeKeys } from '../lib/case';

/** Access-token claims the console relies on (spec section 3). organization_id is absent in personal mode. */
export interface TokenClaims {
  sub: string;
  exp: number;
  iat?: number;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
  organization_id?: number | null;
  connection?: string;
  sid?: string;
  /** When the password was last typed (seconds since 1970). */
  auth_time?: number;
}

/** The signed-in user as the console uses it: profile claims converted to camelCase. */
export interface UserProfile {
  id: string;
  email: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
  name: string;
  connection: string;
  organizationId: number | null;
}

export interface TokenSet {
  accessToken: string;
  idToken?: string;
  refreshToken?: string;
}

/** The id token stays usable for 20 s past expiry: the spec compares its expiry with now minus 20 s. */
export const ID_TOKEN_GRACE_SECONDS = 20;
/** Tokens are refreshed when they expire within this many seconds (keycloak-js updateToken(5)). */
export const TOKEN_MIN_VALIDITY_SECONDS = 5;

export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const binary = atob(padded);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function decodeTokenClaims(token: string): TokenClaims | null {
  const payload = decodeJwtPayload(token);
  if (!payload || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
  return payload as unknown as TokenClaims;
}

/** The organization a token is scoped to; null for the personal account. */
export function tokenOrganizationId(claims: TokenClaims | null | undefined): number | null {
  const value = claims?.organization_id;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return null;
}

/** localStorage orgId: a decimal id, or empty for the personal account. Anything else counts as personal. */
export function parseStoredOrganizationId(value: string | null | undefined): number | null {
  if (!value || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}

export function isIdTokenCurrent(idClaims: { exp?: number } | null | undefined, nowMs: number): boolean {
  if (!idClaims || typeof idClaims.exp !== 'number') return false;
  return idClaims.exp >= Math.floor(nowMs / 1000) - ID_TOKEN_GRACE_SECONDS;
}

export function isAccessTokenExpiring(claims: TokenClaims | null | undefined, nowMs: number, minValiditySeconds = TOKEN_MIN_VALIDITY_SECONDS): boolean {
  if (!claims) return true;
  return claims.exp - minValiditySeconds <= Math.floor(nowMs / 1000);
}

/**
 * The console may continue only when it is authenticated, holds a token, and the stored organization is empty
 * (personal) or the one the token is scoped to.
 */
export function isSessionReady(input: {
  isAuthenticated: boolean;
  token: string | null | undefined;
  claims: TokenClaims | null | undefined;
  selectedOrganizationId: number | null;
}): boolean {
  if (!input.isAuthenticated || !input.token || !input.claims) return false;
  return input.selectedOrganizationId === null || input.selectedOrganizationId === tokenOrganizationId(input.claims);
}

export function toUserProfile(claims: TokenClaims, idClaims?: Record<string, unknown> | null): UserProfile {
  // Profile claims arrive snake_case; the id token may carry more of them than the access token.
  const merged = camelizeKeys({ ...(idClaims ?? {}), ...claims }) as Record<string, unknown>;
  const text = (key: string): string => (typeof merged[key] === 'string' ? (merged[key] as string) : '');
  const givenName = text('givenName');
  const familyName = text('familyName');
  return {
    id: claims.sub,
    email: text('email'),
    emailVerified: merged.emailVerified === true,
    givenName,
    familyName,
    name: text('name') || [givenName, familyName].filter(Boolean).join(' ') || text('email'),
    connection: text('connection'),
    organizationId: tokenOrganizationId(claims),
  };
}
