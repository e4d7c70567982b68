import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { TEXT_LIMITS } from '../../contract/text-rules';
import type { SocialOidcSettings } from '../config';
import type { Database, Queryable } from '../db/database';
import {
  findSocialIdentity,
  linkSocialIdentity,
  listSocialIdentitiesOfUser,
  saveSocialSignInAttempt,
  takeSocialSignInAttempt,
  touchSocialIdentity,
} from '../db/repositories/social-identities-repository';
import { createUser, findUserByEmail, findUserById, type UserRow } from '../db/repositories/users-repository';

// Sign-in through an external OpenID Connect provider, as its relying party: the authorization-code flow with PKCE
// (S256), state and nonce, the provider's discovery document and JWKS. The id_token is verified (signature, issuer,
// audience, expiry, nonce) before anything is looked up. The identity (issuer, subject) is linked to one console
// account (docs/security.md, "Social sign-in", says which email matches are linked and which are refused).

/** How long a started sign-in may take at the provider before its callback is refused. */
const ATTEMPT_SECONDS = 10 * 60;
/** The discovery document is fetched again after this long (a provider may rotate endpoints). */
const DISCOVERY_SECONDS = 10 * 60;
const NETWORK_TIMEOUT_MS = 8_000;
/** Leeway for clocks that differ a little between the provider and this server. */
const CLOCK_TOLERANCE_SECONDS = 60;

export type SocialFailure =
  | 'unreachable'
  | 'denied'
  | 'provider_error'
  | 'bad_state'
  | 'token_refused'
  | 'email_unverified'
  | 'email_taken'
  | 'identity_conflict';

/** A sign-in that ends on the login page with a message; `detail` is for the server log only. */
export class SocialSignInError extends Error {
  constructor(
    readonly reason: SocialFailure,
    readonly detail = '',
  ) {
    super(`${reason}${detail ? `: ${detail}` : ''}`);
  }
}

/** What the login page says for each failure. Never a provider's own text: it could say anything. */
export function socialFailureMessage(reason: SocialFailure, label: string): string {
  switch (reason) {
    case 'unreachable':
      return `${label} cannot be reached right now. Please try again later, or sign in with your email and password.`;
    case 'denied':
      return `Sign-in with ${label} was cancelled. Please try again, or sign in with your email and password.`;
    case 'provider_error':
      return `${label} could not sign you in. Please try again.`;
    case 'bad_state':
      return `This sign-in with ${label} could not be matched to this page (it expired or was started elsewhere). Please try again.`;
    case 'token_refused':
      return `The answer from ${label} could not be verified, so you were not signed in. Please try again.`;
    case 'email_unverified':
      return `${label} did not confirm your email address, so it cannot be used to sign in here.`;
    case 'email_taken':
      return `An account with this email address already exists and signs in with its password. Please sign in with your email and password.`;
    case 'identity_conflict':
      return `The account with this email address is already linked to another ${label} identity. Please sign in the way you did before.`;
  }
}

interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
  id_token_signing_alg_values_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
}

export interface SocialSignIn {
  label: string;
  /** The authorization request's address for this login interaction (the browser goes there next). */
  start(interactionUid: string): Promise<string>;
  /** Checks the callback of this interaction and returns the console account it signs in. */
  finish(interactionUid: string, callback: URLSearchParams): Promise<UserRow>;
}

/** The redirect URI registered at the provider: Keycloak's identity-brokering endpoint shape. */
export function socialRedirectUri(realmIssuer: string): string {
  return `${realmIssuer}/broker/social/endpoint`;
}

/**
 * The state sent to the provider is `{interaction uid}.{secret}`: the uid routes the callback back to the login
 * interaction (whose cookie is scoped to its own path), the secret is compared with the stored one.
 */
export function interactionOfState(state: string | null): string | undefined {
  const match = /^([\w-]{1,128})\.([\w-]{16,128})$/.exec(state ?? '');
  return match?.[1];
}

export function createSocialSignIn(deps: { db: Database; settings: SocialOidcSettings; redirectUri: string }): SocialSignIn {
  const { db, settings, redirectUri } = deps;
  let metadata: { value: ProviderMetadata; fetchedAt: number } | undefined;
  let keys: { uri: string; set: ReturnType<typeof createRemoteJWKSet> } | undefined;

  async function providerMetadata(): Promise<ProviderMetadata> {
    if (metadata && Date.now() - metadata.fetchedAt < DISCOVERY_SECONDS * 1000) return metadata.value;
    const url = `${settings.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    let document: Partial<ProviderMetadata>;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(NETWORK_TIMEOUT_MS), headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`discovery answered ${response.status}`);
      document = (await response.json()) as Partial<ProviderMetadata>;
    } catch (error) {
      throw new SocialSignInError('unreachable', `${url}: ${(error as Error).message}`);
    }
    // OpenID Connect Discovery 1.0 §4.3: the document's issuer must be exactly the configured one.
    if (document.issuer !== settings.issuer) throw new SocialSignInError('unreachable', `discovery names issuer ${String(document.issuer)}, not ${settings.issuer}`);
    for (const field of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
      if (typeof document[field] !== 'string' || !URL.canParse(document[field])) throw new SocialSignInError('unreachable', `discovery lacks ${field}`);
    }
    metadata = { value: document as ProviderMetadata, fetchedAt: Date.now() };
    return metadata.value;
  }

  function keySet(uri: string) {
    if (keys?.uri !== uri) keys = { uri, set: createRemoteJWKSet(new URL(uri), { timeoutDuration: NETWORK_TIMEOUT_MS }) };
    return keys.set;
  }

  async function start(interactionUid: string): Promise<string> {
    const provider = await providerMetadata();
    const secret = randomBytes(24).toString('base64url');
    const nonce = randomBytes(24).toString('base64url');
    const verifier = randomBytes(48).toString('base64url');
    await saveSocialSignInAttempt(db, { interaction_uid: interactionUid, state: secret, nonce, code_verifier: verifier }, ATTEMPT_SECONDS);
    const url = new URL(provider.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: settings.clientId,
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      state: `${interactionUid}.${secret}`,
      nonce,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  async function finish(interactionUid: string, callback: URLSearchParams): Promise<UserRow> {
    // Taken whatever comes next: one callback per start.
    const attempt = await takeSocialSignInAttempt(db, interactionUid);
    const state = callback.get('state') ?? '';
    const secret = state.slice(state.indexOf('.') + 1);
    if (!attempt || interactionOfState(state) !== interactionUid || !sameText(secret, attempt.state)) {
      throw new SocialSignInError('bad_state', attempt ? 'state does not match' : 'no sign-in was started in this interaction, or it expired');
    }
    const provider = await providerMetadata();
    // RFC 9207: a provider that names itself in the response must be the one asked (mix-up defence).
    if (callback.has('iss') && callback.get('iss') !== provider.issuer) throw new SocialSignInError('bad_state', `response from issuer ${callback.get('iss')}`);
    const error = callback.get('error');
    if (error) throw new SocialSignInError(error === 'access_denied' ? 'denied' : 'provider_error', `provider answered ${error.slice(0, 80)}`);
    const code = callback.get('code');
    if (!code) throw new SocialSignInError('provider_error', 'callback without code');

    const tokens = await exchangeCode(provider, code, attempt.code_verifier);
    const claims = await verifyIdToken(provider, tokens.id_token, attempt.nonce);
    const profile = await completeProfile(provider, claims, tokens.access_token);
    return accountFor(provider.issuer, profile);
  }

  async function exchangeCode(provider: ProviderMetadata, code: string, verifier: string): Promise<{ id_token: string; access_token?: string }> {
    const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    const methods = provider.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    if (methods.includes('client_secret_basic') || !methods.includes('client_secret_post')) {
      // RFC 6749 §2.3.1: id and secret form-encoded before base64.
      const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
      headers.authorization = `Basic ${Buffer.from(`${encode(settings.clientId)}:${encode(settings.clientSecret)}`).toString('base64')}`;
    } else {
      body.set('client_id', settings.clientId);
      body.set('client_secret', settings.clientSecret);
    }
    let response: Response;
    try {
      response = await fetch(provider.token_endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(NETWORK_TIMEOUT_MS) });
    } catch (error) {
      throw new SocialSignInError('unreachable', `token endpoint: ${(error as Error).message}`);
    }
    const answer = (await response.json().catch(() => ({}))) as { id_token?: unknown; access_token?: unknown; error?: unknown };
    if (!response.ok) throw new SocialSignInError('token_refused', `token endpoint answered ${response.status} ${String(answer.error ?? '')}`.trim());
    if (typeof answer.id_token !== 'string') throw new SocialSignInError('token_refused', 'no id_token in the token response');
    return { id_token: answer.id_token, access_token: typeof answer.access_token === 'string' ? answer.access_token : undefined };
  }

  async function verifyIdToken(provider: ProviderMetadata, idToken: string, nonce: string): Promise<JWTPayload> {
    // Asymmetric algorithms only: the JWKS verifies them; 'none' and HMAC are never accepted.
    const offered = (provider.id_token_signing_alg_values_supported ?? ['RS256']).filter((alg) => /^(RS|PS|ES)\d{3}$|^EdDSA$|^Ed25519$/.test(alg));
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, keySet(provider.jwks_uri), {
        issuer: provider.issuer,
        audience: settings.clientId,
        algorithms: offered.length ? offered : ['RS256'],
        requiredClaims: ['sub', 'exp', 'iat'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      }));
    } catch (error) {
      const { code, message } = error as { code?: string; message: string };
      throw new SocialSignInError('token_refused', `id_token ${code ?? ''} ${message}`.trim());
    }
    if (typeof payload.nonce !== 'string' || !sameText(payload.nonce, nonce)) throw new SocialSignInError('token_refused', 'id_token nonce does not match');
    // OpenID Connect Core §3.1.3.7: with several audiences, azp must name this client.
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== settings.clientId) {
      throw new SocialSignInError('token_refused', 'id_token azp is not this client');
    }
    return payload;
  }

  /** Email and names from the id_token, or from userinfo when the provider keeps them there (same subject only). */
  async function completeProfile(provider: ProviderMetadata, claims: JWTPayload, accessToken: string | undefined): Promise<ExternalProfile> {
    let source: Record<string, unknown> = claims;
    if (typeof claims.email !== 'string' && provider.userinfo_endpoint && accessToken) {
      const response = await fetch(provider.userinfo_endpoint, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(NETWORK_TIMEOUT_MS),
      }).catch(() => undefined);
      const info = response?.ok ? ((await response.json().catch(() => ({}))) as Record<string, unknown>) : {};
      if (info.sub === claims.sub) source = { ...info, ...claims, email: info.email, email_verified: info.email_verified };
    }
    const email = typeof source.email === 'string' ? source.email.trim() : '';
    const names = personNames(source, email);
    return {
      subject: claims.sub!,
      email,
      emailVerified: source.email_verified === true || source.email_verified === 'true',
      ...names,
    };
  }

  async function accountFor(issuer: string, profile: ExternalProfile): Promise<UserRow> {
    const linked = await findSocialIdentity(db, issuer, profile.subject);
    if (linked) {
      const user = await findUserById(db, linked.user_id);
      if (user) {
        await touchSocialIdentity(db, issuer, profile.subject, profile.email || linked.email);
        return user;
      }
    }
    if (!profile.email || !profile.emailVerified || profile.email.length > TEXT_LIMITS.email) {
      throw new SocialSignInError('email_unverified', profile.email ? 'email_verified is not true' : 'no email');
    }
    return db.transaction(async (tx) => {
      const owner = await findUserByEmail(tx, profile.email);
      if (owner) {
        await refuseTakeover(tx, owner, issuer);
        await linkSocialIdentity(tx, { issuer, subject: profile.subject, user_id: owner.id, email: profile.email });
        return owner;
      }
      const user = await createUser(tx, {
        email: profile.email,
        givenName: profile.givenName,
        familyName: profile.familyName,
        connection: settings.connection,
        emailVerified: true,
      });
      await linkSocialIdentity(tx, { issuer, subject: profile.subject, user_id: user.id, email: profile.email });
      return user;
    });
  }

  /**
   * An existing account is linked by its email only when this provider's connection created it and it has no
   * password and no other identity at this issuer. A password account is never taken over: its owner signs in
   * with the password (linking from the account page is not offered yet).
   */
  async function refuseTakeover(tx: Queryable, owner: UserRow, issuer: string): Promise<void> {
    const [row] = await tx.query<{ has_password: boolean }>('SELECT password_hash IS NOT NULL AS has_password FROM users WHERE id = $1', [owner.id]);
    if (row?.has_password) throw new SocialSignInError('email_taken', 'the email belongs to a password account');
    if (owner.connection !== settings.connection) throw new SocialSignInError('identity_conflict', `the account's connection is ${owner.connection}`);
    const others = (await listSocialIdentitiesOfUser(tx, owner.id)).filter((identity) => identity.issuer === issuer);
    if (others.length) throw new SocialSignInError('identity_conflict', 'the account is linked to another subject of this issuer');
  }

  return { label: settings.label, start, finish };
}

interface ExternalProfile {
  subject: string;
  email: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
}

function personNames(claims: Record<string, unknown>, email: string): { givenName: string; familyName: string } {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, TEXT_LIMITS.personName) : '');
  let givenName = text(claims.given_name);
  let familyName = text(claims.family_name);
  if (!givenName && !familyName) {
    const [first = '', ...rest] = text(claims.name).split(/\s+/);
    givenName = first;
    familyName = rest.join(' ');
  }
  if (!givenName && !familyName) givenName = email.split('@')[0].slice(0, TEXT_LIMITS.personName);
  return { givenName, familyName };
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
