// The one wrapper around keycloak-js. Machines call these functions; nothing else touches the keycloak instance.
import Keycloak from 'keycloak-js';
import { resolveIdentityServerUrl, settings } from '../config/settings';
import { readStorage, removeStorage, STORAGE_KEYS, writeStorage } from './browser-storage';
import {
  decodeJwtPayload,
  decodeTokenClaims,
  isAccessTokenExpiring,
  isIdTokenCurrent,
  TOKEN_MIN_VALIDITY_SECONDS,
  type TokenClaims,
  type TokenSet,
} from './token';

export interface AuthSession {
  token: string;
  claims: TokenClaims;
  idClaims: Record<string, unknown> | null;
  hasRefreshToken: boolean;
}

export type AuthSessionEvent = { type: 'refreshed'; session: AuthSession } | { type: 'expired' };

export const DEFAULT_RETURN_PATH = '/';

let keycloak: Keycloak | null = null;
const listeners = new Set<(event: AuthSessionEvent) => void>();

function origin(): string {
  return globalThis.location.origin;
}

function identityServerUrl(): string {
  return resolveIdentityServerUrl(settings.identityServer.url, origin());
}

function instance(): Keycloak {
  if (!keycloak) {
    keycloak = new Keycloak({
      url: identityServerUrl(),
      realm: settings.identityServer.realm,
      clientId: settings.identityServer.clientId,
    });
    keycloak.onAuthRefreshSuccess = () => {
      const session = currentSession();
      if (session) notify({ type: 'refreshed', session });
    };
    keycloak.onAuthRefreshError = () => notify({ type: 'expired' });
    keycloak.onAuthLogout = () => notify({ type: 'expired' });
  }
  return keycloak;
}

function notify(event: AuthSessionEvent): void {
  for (const listener of listeners) listener(event);
}

/** Token refreshes and session loss happen outside the machine (before requests); it listens here. */
export function subscribeToSession(listener: (event: AuthSessionEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentSession(): AuthSession | null {
  const kc = keycloak;
  if (!kc?.authenticated || !kc.token) return null;
  const claims = decodeTokenClaims(kc.token);
  if (!claims) return null;
  return {
    token: kc.token,
    claims,
    idClaims: kc.idToken ? decodeJwtPayload(kc.idToken) : null,
    hasRefreshToken: Boolean(kc.refreshToken),
  };
}

let initialisation: Promise<AuthSession | null> | null = null;

/**
 * check-sso: finds an existing identity-server session without showing a page, then refreshes the token once.
 * keycloak-js may be initialised only once per instance, and React's StrictMode starts the auth actor twice in
 * development, so every caller shares one initialisation; a failed one is forgotten so a retry starts afresh.
 */
export function initialiseSession(): Promise<AuthSession | null> {
  if (!initialisation) {
    initialisation = runInitialisation().catch((error: unknown) => {
      initialisation = null;
      keycloak = null;
      throw error;
    });
  }
  return initialisation;
}

async function runInitialisation(): Promise<AuthSession | null> {
  const kc = instance();
  const authenticated = await kc.init({
    onLoad: 'check-sso',
    pkceMethod: 'S256',
    checkLoginIframe: false,
    silentCheckSsoRedirectUri: `${origin()}/silent-check-sso.html`,
  });
  if (!authenticated) return null;
  // Refresh on load: an expiring access token or a stale id token is renewed before anything is requested.
  const forceRefresh = !isIdTokenCurrent(kc.idTokenParsed, Date.now());
  await kc.updateToken(forceRefresh ? -1 : TOKEN_MIN_VALIDITY_SECONDS).catch(() => false);
  return currentSession();
}

/** The access token for an API call, refreshed first when it expires within 5 s. */
export async function getAccessToken(): Promise<string | null> {
  const kc = keycloak;
  if (!kc?.authenticated) return null;
  // Without a refresh token (an identity-server client that issues none) keycloak-js's updateToken and isTokenExpired
  // throw even while the token is good: it serves until it expires (in the identity server's time, hence the skew),
  // or every call would go out without one and sign the user out.
  if (!kc.refreshToken) {
    const serverNow = Date.now() - (kc.timeSkew ?? 0) * 1000;
    return kc.token && !isAccessTokenExpiring(decodeTokenClaims(kc.token), serverNow) ? kc.token : null;
  }
  try {
    await kc.updateToken(TOKEN_MIN_VALIDITY_SECONDS);
  } catch {
    return null;
  }
  return kc.token ?? null;
}

export function saveReturnPath(path: string): void {
  writeStorage('session', STORAGE_KEYS.returnPath, path);
}

/** The path saved before a logout or login redirect, left in place (the login redirect saves it again). */
export function savedReturnPath(): string | null {
  const saved = readStorage('session', STORAGE_KEYS.returnPath);
  return saved && saved.startsWith('/') && !saved.startsWith('//') ? saved : null;
}

/** Reads and forgets the path saved before the login redirect; '/' when there is none or it is not ours. */
export function takeReturnPath(): string {
  const saved = readStorage('session', STORAGE_KEYS.returnPath);
  removeStorage('session', STORAGE_KEYS.returnPath);
  return saved && saved.startsWith('/') && !saved.startsWith('//') ? saved : DEFAULT_RETURN_PATH;
}

/** Leaves for the identity server's login page; it sends the user back to /auth. */
export async function redirectToLogin(returnPath: string): Promise<void> {
  saveReturnPath(returnPath);
  await instance().login({ redirectUri: `${origin()}/auth` });
}

/** A password change accepts a sign-in at most this old (the platform's REAUTHENTICATION_MAX_AGE default). */
export const REAUTHENTICATION_MAX_AGE_SECONDS = 300;

/** True when the current sign-in is too old for a password change (a margin of 30 s for the time to type it). */
export function signInTooOldForPasswordChange(nowMs = Date.now()): boolean {
  const authTime = currentSession()?.claims.auth_time;
  if (typeof authTime !== 'number') return true;
  return nowMs / 1000 - authTime > REAUTHENTICATION_MAX_AGE_SECONDS - 30;
}

/** The login page again (even with a live session), then back to returnPath through /auth, with a new auth_time. */
export async function reauthenticate(returnPath: string): Promise<void> {
  saveReturnPath(returnPath);
  await instance().login({ redirectUri: `${origin()}/auth`, prompt: 'login', maxAge: 0 });
}

/**
 * Ends the identity-server session (keycloak-js sends the id token as the hint, so it signs out without asking).
 * With a return path (a read the API refused), the identity server sends the browser back to /login, which goes on
 * to the login page and, after sign-in, to that path. The promise never settles: the page is leaving, and a settled
 * logout would let the console start a login redirect that overtakes the logout navigation (the identity session
 * would survive and sign the user straight back in).
 */
export async function endSession(returnPath: string | null = null): Promise<void> {
  if (returnPath) saveReturnPath(returnPath);
  await instance().logout({ redirectUri: returnPath ? `${origin()}${LOGIN_AFTER_LOGOUT_PATH}` : origin() });
  await new Promise<void>(() => undefined);
}

/** Where the identity server sends the browser after a logout the API caused (registered as a post-logout URI). */
export const LOGIN_AFTER_LOGOUT_PATH = '/login';

export function canExchangeRefreshToken(): boolean {
  return Boolean(keycloak?.refreshToken) && Boolean(settings.identityServer.clientId);
}

/**
 * Switches the session to an organization (or back to the personal account, organizationId null) by posting the
 * refresh-token grant ourselves: keycloak-js cannot send the extra organization_id parameter.
 */
export async function exchangeRefreshToken(organizationId: number | null): Promise<AuthSession> {
  const kc = instance();
  const refreshToken = kc.refreshToken;
  const clientId = settings.identityServer.clientId;
  if (!refreshToken || !clientId) throw new Error('No refresh token to exchange');
  const endpoint = new URL(`${identityServerUrl()}/realms/${encodeURIComponent(settings.identityServer.realm)}/protocol/openid-connect/token`);
  // An empty organization_id means "back to the personal account": the organization belongs to the refresh-token
  // chain, so leaving it out would keep the current one.
  const body = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: clientId,
    organization_id: organizationId === null ? '' : String(organizationId),
  });
  if (organizationId !== null) endpoint.searchParams.set('organization_id', String(organizationId));
  const response = await fetch(endpoint, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  if (!response.ok) throw new Error(`Token exchange failed with status ${response.status}`);
  const payload = (await response.json()) as Record<string, unknown>;
  const tokens: TokenSet = {
    accessToken: String(payload.access_token ?? ''),
    idToken: typeof payload.id_token === 'string' ? payload.id_token : undefined,
    refreshToken: typeof payload.refresh_token === 'string' ? payload.refresh_token : undefined,
  };
  adoptTokens(kc, tokens);
  const session = currentSession();
  if (!session) throw new Error('The token endpoint returned an unreadable access token');
  return session;
}

/** Hands exchanged tokens to keycloak-js so its own refreshes continue from them (keeping the rotated one). */
function adoptTokens(kc: Keycloak, tokens: TokenSet): void {
  const claims = decodeTokenClaims(tokens.accessToken);
  if (!claims) throw new Error('The token endpoint returned an unreadable access token');
  kc.token = tokens.accessToken;
  kc.tokenParsed = claims as unknown as Keycloak['tokenParsed'];
  kc.subject = claims.sub;
  kc.sessionId = claims.sid;
  if (claims.iat) kc.timeSkew = Math.floor(Date.now() / 1000) - claims.iat;
  if (tokens.refreshToken) {
    kc.refreshToken = tokens.refreshToken;
    kc.refreshTokenParsed = (decodeJwtPayload(tokens.refreshToken) ?? undefined) as Keycloak['refreshTokenParsed'];
  }
  if (tokens.idToken) {
    kc.idToken = tokens.idToken;
    kc.idTokenParsed = (decodeJwtPayload(tokens.idToken) ?? undefined) as Keycloak['idTokenParsed'];
  }
}

/** Renews the tokens now (after a profile change, so the new names are in the claims); keeps the account mode. */
export async function refreshSessionNow(): Promise<void> {
  await keycloak?.updateToken(-1);
}
