import { describe, expect, it } from 'vitest';
import {
  decodeJwtPayload,
  decodeTokenClaims,
  isAccessTokenExpiring,
  isIdTokenCurrent,
  isSessionReady,
  parseStoredOrganizationId,
  tokenOrganizationId,
  toUserProfile,
  type TokenClaims,
} from '../../src/services/token';

function jwt(payload: object): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'RS256', typ: 'at+jwt' })}.${encode(payload)}.signature`;
}

const claims: TokenClaims = { sub: 'u1', exp: 2_000_000_000, email: 'demo@example.com', given_name: 'Dana', family_name: 'Émile', organization_id: 7, connection: 'Username-Password-Authentication' };

describe('token helpers', () => {
  it('decodes a JWT payload, including non-ASCII text', () => {
    expect(decodeJwtPayload(jwt(claims))).toMatchObject({ sub: 'u1', family_name: 'Émile' });
    expect(decodeTokenClaims(jwt(claims))?.organization_id).toBe(7);
  });
  it('rejects tokens that are not JWTs or lack sub/exp', () => {
    expect(decodeJwtPayload('opaque')).toBeNull();
    expect(decodeJwtPayload('a.%%%.c')).toBeNull();
    expect(decodeTokenClaims(jwt({ sub: 'x' }))).toBeNull();
  });
  it('reads the organization of a token, null when personal', () => {
    expect(tokenOrganizationId(claims)).toBe(7);
    expect(tokenOrganizationId({ ...claims, organization_id: undefined })).toBeNull();
    expect(tokenOrganizationId(null)).toBeNull();
  });
  it('reads the stored orgId, empty meaning personal', () => {
    expect(parseStoredOrganizationId('12')).toBe(12);
    expect(parseStoredOrganizationId('')).toBeNull();
    expect(parseStoredOrganizationId(null)).toBeNull();
    expect(parseStoredOrganizationId('abc')).toBeNull();
  });
  it('accepts an id token until 20 s after its expiry', () => {
    const now = 1_000_000_000_000;
    const nowSeconds = now / 1000;
    expect(isIdTokenCurrent({ exp: nowSeconds - 20 }, now)).toBe(true);
    expect(isIdTokenCurrent({ exp: nowSeconds - 21 }, now)).toBe(false);
    expect(isIdTokenCurrent({ exp: nowSeconds + 60 }, now)).toBe(true);
    expect(isIdTokenCurrent(null, now)).toBe(false);
  });
  it('treats an access token expiring within 5 s as due for refresh', () => {
    const now = 1_000_000_000_000;
    expect(isAccessTokenExpiring({ ...claims, exp: now / 1000 + 5 }, now)).toBe(true);
    expect(isAccessTokenExpiring({ ...claims, exp: now / 1000 + 6 }, now)).toBe(false);
  });
  it('is ready only when authenticated, holding a token, and the stored org is empty or the token org', () => {
    const base = { isAuthenticated: true, token: 't', claims };
    expect(isSessionReady({ ...base, selectedOrganizationId: null })).toBe(true);
    expect(isSessionReady({ ...base, selectedOrganizationId: 7 })).toBe(true);
    expect(isSessionReady({ ...base, selectedOrganizationId: 8 })).toBe(false);
    expect(isSessionReady({ ...base, token: null, selectedOrganizationId: null })).toBe(false);
    expect(isSessionReady({ ...base, isAuthenticated: false, selectedOrganizationId: null })).toBe(false);
    expect(isSessionReady({ ...base, claims: { ...claims, organization_id: undefined }, selectedOrganizationId: 7 })).toBe(false);
  });
  it('turns snake_case profile claims into a camelCase user', () => {
    expect(toUserProfile(claims, { email_verified: true, name: 'Dana Émile' })).toEqual({
      id: 'u1',
      email: 'demo@example.com',
      emailVerified: true,
      givenName: 'Dana',
      familyName: 'Émile',
      name: 'Dana Émile',
      connection: 'Username-Password-Authentication',
      organizationId: 7,
    });
  });
});
