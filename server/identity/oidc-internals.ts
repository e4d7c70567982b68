import Provider from 'oidc-provider';
import * as refreshTokenGrant from 'oidc-provider/lib/actions/grants/refresh_token.js';
import * as grantHelpers from 'oidc-provider/lib/helpers/grants.js';

// Every use of oidc-provider's undocumented internals lives in this file: two deep imports (the built-in
// refresh_token grant and the helpers it is bound to), prototype overrides on its models, the request context it
// keeps in async local storage, and a few fields of `ctx.oidc` that its configuration documentation does not list.
// tests/identity/oidc-internals.test.ts checks each of them against the installed version, so an upgrade that
// changes one fails there, by name, instead of somewhere in a sign-in.

/** The koa context oidc-provider hands to its hooks; only the fields used here are named. */
export type OidcContext = {
  oidc: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  state: Record<string | symbol, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  type: string;
  status: number;
};

/** The request context of the call in progress (the provider keeps it in async local storage), if any. */
export function currentContext(): OidcContext | undefined {
  return (Provider as unknown as { ctx?: OidcContext }).ctx;
}

/** The raw parsed form body of a token request: unlike `ctx.oidc.params` it keeps empty values. */
export function rawRequestBody(ctx: OidcContext): Record<string, unknown> {
  return (ctx.oidc.body ?? {}) as Record<string, unknown>;
}

/** During a refresh_token grant with rotation: the refresh token being replaced (undefined otherwise). */
export function rotatedRefreshToken(ctx: OidcContext | undefined): { remainingTTL: number } | undefined {
  return ctx?.oidc?.entities?.RotatedRefreshToken;
}

/** The token a new access token is derived from (authorization code or refresh token), with its `authTime`. */
export function sourceOfTokenRequest(ctx: OidcContext | undefined): { authTime?: number } | undefined {
  const entities = ctx?.oidc?.entities;
  return entities?.RefreshToken ?? entities?.AuthorizationCode;
}

/** The provider's logout confirmation form carries this id (lib/actions/end_session.js). */
export const LOGOUT_FORM_ID = 'op.logoutForm';

/** Replaces the function that makes the value (and storage key) of every new refresh token. */
export function setRefreshTokenValueGenerator(
  provider: Provider,
  generate: (token: { expiration: number; accountId?: string; sid?: string; clientId?: string; scope?: string }) => string,
): void {
  provider.RefreshToken.prototype.generateTokenId = function generateTokenId(this: Parameters<typeof generate>[0]) {
    return generate(this);
  };
}

/**
 * Adds a field to what a refresh token stores, set on every save from the request in progress (`valueFrom` returns
 * undefined to leave the field as it is). Rotation copies only listed fields, so callers copy it themselves.
 */
export function addRefreshTokenField(provider: Provider, field: string, valueFrom: (ctx: OidcContext) => { value: unknown } | undefined): void {
  const RefreshToken = provider.RefreshToken;
  const basePayload: string[] = RefreshToken.IN_PAYLOAD;
  Object.defineProperty(RefreshToken, 'IN_PAYLOAD', { get: () => [...basePayload, field] });
  const originalSave = RefreshToken.prototype.save;
  RefreshToken.prototype.save = function save(this: Record<string, unknown>, ...args: unknown[]) {
    const ctx = currentContext();
    const found = ctx ? valueFrom(ctx) : undefined;
    if (found) this[field] = found.value;
    return originalSave.apply(this, args);
  };
}

/** Which return addresses the client accepts (the provider's own check is an exact match against its metadata). */
export function setRedirectUriChecks(
  provider: Provider,
  checks: { redirectUriAllowed: (uri: string) => boolean; postLogoutRedirectUriAllowed: (uri: string) => boolean },
): void {
  provider.Client.prototype.redirectUriAllowed = checks.redirectUriAllowed;
  provider.Client.prototype.postLogoutRedirectUriAllowed = checks.postLogoutRedirectUriAllowed;
}

/** Puts `sid` into every token (by default only clients with back-channel logout get it). */
export function alwaysIncludeSid(provider: Provider): void {
  provider.Client.prototype.includeSid = () => true;
}

/**
 * Re-registers the refresh_token grant with `before` running first, then the provider's built-in handler, bound to
 * the provider exactly as the provider binds it. `extraParameters` are accepted on the token request.
 */
export function wrapRefreshTokenGrant(
  provider: Provider,
  before: (ctx: OidcContext) => Promise<void>,
  extraParameters: readonly string[],
): void {
  const boundHelpers = Object.fromEntries(
    Object.entries(grantHelpers).map(([name, helper]) => [name, (helper as (...a: unknown[]) => unknown).bind(undefined, provider)]),
  );
  const parameters = new Set([...refreshTokenGrant.parameters, 'resource', ...extraParameters]);
  provider.registerGrantType(
    'refresh_token',
    async (ctx: OidcContext) => {
      await before(ctx);
      await refreshTokenGrant.handler(provider, boundHelpers, ctx);
    },
    parameters,
    ['resource'],
  );
}
