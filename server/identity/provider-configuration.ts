import { randomBytes } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';
import type { PlatformConfig } from '../config';
import type { Database } from '../db/database';
import { findUserById, type UserRow } from '../db/repositories/users-repository';
import { createOidcAdapterClass } from './oidc-adapter';
import {
  alwaysIncludeSid,
  LOGOUT_FORM_ID,
  rotatedRefreshToken,
  sourceOfTokenRequest,
  setRedirectUriChecks,
  setRefreshTokenValueGenerator,
  type OidcContext,
} from './oidc-internals';
import { installOrganizationSwitch, organizationOf } from './organization-switch';
import { logoutConfirmationPage, logoutPage, messagePage, type PageContext } from './pages';
import type { SigningKeys } from './signing-keys';

// Refresh tokens and sessions last as long as Keycloak's default "SSO Session Max".
const SESSION_SECONDS = 10 * 60 * 60;
const INTERACTION_SECONDS = 60 * 60;

export interface ProviderDependencies {
  db: Database;
  config: PlatformConfig;
  signingKeys: SigningKeys;
  cookieKeys: string[];
  pageContext: PageContext;
}

/** The claims about a user that go into ID tokens, access tokens and the userinfo answer. */
export function profileClaims(user: UserRow, organizationId: number | null) {
  return {
    email: user.email,
    email_verified: user.email_verified,
    given_name: user.given_name,
    family_name: user.family_name,
    name: `${user.given_name} ${user.family_name}`.trim(),
    preferred_username: user.email,
    connection: user.connection,
    ...(organizationId !== null ? { organization_id: organizationId } : {}),
  };
}

/**
 * oidc-provider configured as the realm's identity server: one public client (the console), Keycloak's endpoint
 * paths, JWT access tokens for the API, JWT-shaped rotating refresh tokens and the organization switch.
 */
export function createProvider(deps: ProviderDependencies): Provider {
  const { db, config, signingKeys, cookieKeys, pageContext } = deps;
  const realmPath = pageContext.realmPath;
  const consoleOrigin = new URL(config.publicUrl).origin;
  const secureCookies = config.publicUrl.startsWith('https:');

  const provider = new Provider(config.issuer, {
    adapter: createOidcAdapterClass(db),
    jwks: { keys: signingKeys.privateJwks },
    clients: [
      {
        client_id: config.clientId,
        client_name: 'Observability Console',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        // Exactly the console's own callback addresses (checked in redirectUriAllowed below): a code is never
        // sent to another page of the origin (a developer page, an uploaded file).
        redirect_uris: consoleRedirectUris(config.publicUrl),
        post_logout_redirect_uris: consolePostLogoutRedirectUris(config.publicUrl),
      },
    ],
    routes: {
      authorization: '/protocol/openid-connect/auth',
      token: '/protocol/openid-connect/token',
      end_session: '/protocol/openid-connect/logout',
      jwks: '/protocol/openid-connect/certs',
      revocation: '/protocol/openid-connect/revoke',
      userinfo: '/protocol/openid-connect/userinfo',
    },
    discovery: {
      // The userinfo endpoint is answered by this module (it accepts the API's JWT access tokens), so the
      // provider's own is off and the address is announced here.
      userinfo_endpoint: `${config.issuer}/protocol/openid-connect/userinfo`,
    },
    cookies: {
      keys: cookieKeys,
      long: { httpOnly: true, sameSite: 'lax', secure: secureCookies },
      short: { httpOnly: true, sameSite: 'lax', secure: secureCookies },
    },
    claims: {
      // keycloak-js asks for scope "openid" only, and the console reads names and email from the ID token, so the
      // profile travels with openid like in Keycloak's default client scopes.
      openid: [
        'sub',
        'email',
        'email_verified',
        'given_name',
        'family_name',
        'name',
        'preferred_username',
        'connection',
        'organization_id',
      ],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name', 'preferred_username'],
    },
    scopes: ['openid', 'profile', 'email'],
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    extraParams: ['kc_action', 'kc_idp_hint', 'screen_hint'],
    features: {
      devInteractions: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx: OidcContext, form: string) {
          // Give the provider's form a stable id and the "sign out everywhere" answer.
          const autoForm = form
            .replace(`id="${LOGOUT_FORM_ID}"`, 'id="logout-form"')
            .replace('</form>', '<input type="hidden" name="logout" value="yes"></form>');
          ctx.type = 'html';
          // The console (keycloak-js) sends its id token as the hint: then sign out at once, like Keycloak. A bare
          // GET without it asks first, so a link elsewhere cannot sign the user out.
          const hinted = typeof ctx.oidc.params?.id_token_hint === 'string' && ctx.oidc.params.id_token_hint !== '';
          ctx.body = hinted ? logoutPage(pageContext, autoForm) : logoutConfirmationPage(pageContext, autoForm);
        },
        async postLogoutSuccessSource(ctx: OidcContext) {
          ctx.type = 'html';
          ctx.body = messagePage(pageContext, {
            title: 'Signed out',
            message: 'You have been signed out.',
            link: { href: pageContext.consoleUrl, label: 'Back to the console' },
            tone: 'success',
          });
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => config.apiAudience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: OidcContext, resource: string) => {
          if (resource !== config.apiAudience) throw new errors.InvalidTarget();
          return {
            scope: 'openid profile email',
            audience: config.apiAudience,
            accessTokenTTL: config.accessTokenTtlSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    pkce: { required: () => true },
    clientBasedCORS: (_ctx: OidcContext, origin: string) => origin === consoleOrigin,
    // The console is first-party: consent is implicit. The grant for the session is reused (and widened to what
    // is asked), or created, so no consent prompt ever shows.
    async loadExistingGrant(ctx: OidcContext) {
      const accountId: string | undefined = ctx.oidc.session?.accountId;
      if (!accountId) return undefined;
      const clientId: string = ctx.oidc.client.clientId;
      const grantId: string | undefined = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(clientId);
      let grant = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (grant && grant.accountId !== accountId) grant = undefined;
      grant ??= new ctx.oidc.provider.Grant({ clientId, accountId });
      const requested = [...(ctx.oidc.requestParamScopes ?? new Set<string>())].filter((s) =>
        ['openid', 'profile', 'email'].includes(s),
      );
      const scope = [...new Set(['openid', ...requested])].join(' ');
      grant.addOIDCScope(scope);
      grant.addResourceScope(config.apiAudience, scope);
      await grant.save();
      return grant;
    },
    async findAccount(ctx: OidcContext, sub: string) {
      const user = await findUserById(db, sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        async claims() {
          return { sub, ...profileClaims(user, organizationOf(ctx)) };
        },
      };
    },
    async extraTokenClaims(ctx: OidcContext, token: { accountId?: string; sid?: string }) {
      if (!token.accountId) return undefined;
      const user = await findUserById(db, token.accountId);
      if (!user) return undefined;
      const { name: _name, preferred_username: _username, ...claims } = profileClaims(user, organizationOf(ctx));
      // auth_time (when the password was last typed) lets the API ask for a recent sign-in before a password change.
      const authTime = sourceOfTokenRequest(ctx)?.authTime;
      return { ...claims, ...(token.sid ? { sid: token.sid } : {}), ...(typeof authTime === 'number' ? { auth_time: authTime } : {}) };
    },
    // Refresh tokens without offline_access, bound to the browser session (logout ends them).
    issueRefreshToken: (_ctx: OidcContext, client: { grantTypeAllowed(t: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: config.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      IdToken: config.accessTokenTtlSeconds,
      Interaction: INTERACTION_SECONDS,
      Session: SESSION_SECONDS,
      Grant: SESSION_SECONDS,
      // A rotated token inherits the remaining life of the chain, so rotation never extends a session.
      RefreshToken: (ctx: OidcContext | undefined) => {
        const rotated = rotatedRefreshToken(ctx);
        return rotated ? Math.max(rotated.remainingTTL, 1) : SESSION_SECONDS;
      },
    },
    interactions: {
      url: (_ctx: OidcContext, interaction: { uid: string }) => `${realmPath}/interaction/${interaction.uid}`,
    },
    async renderError(ctx: OidcContext, out: { error: string; error_description?: string }) {
      ctx.type = 'html';
      ctx.body = messagePage(pageContext, {
        title: 'Something went wrong',
        message: out.error_description ?? out.error,
        link: { href: pageContext.consoleUrl, label: 'Back to the console' },
        tone: 'error',
      });
    },
  });

  // Behind a TLS-terminating load balancer the provider must believe X-Forwarded-Proto to set secure cookies.
  provider.proxy = secureCookies;

  // Exact string comparison with the registered addresses (OAuth 2.0 Security BCP: no prefix or origin matching).
  const redirectUris = new Set(consoleRedirectUris(config.publicUrl));
  const postLogoutRedirectUris = new Set(consolePostLogoutRedirectUris(config.publicUrl));
  setRedirectUriChecks(provider, {
    redirectUriAllowed: (uri) => redirectUris.has(uri),
    postLogoutRedirectUriAllowed: (uri) => postLogoutRedirectUris.has(uri),
  });
  // The console and the API read `sid`; the provider only adds it for back-channel logout clients by default.
  alwaysIncludeSid(provider);

  setRefreshTokenValueGenerator(provider, jwtShapedRefreshToken(config));
  installOrganizationSwitch(provider, db);
  return provider;
}

/**
 * The console's sign-in callbacks: /auth (the login redirect, src/services/auth.ts) and the silent check-sso page
 * keycloak-js loads in an iframe on every start.
 */
export function consoleRedirectUris(publicUrl: string): string[] {
  return [`${publicUrl}/auth`, `${publicUrl}/silent-check-sso.html`];
}

/**
 * Where a logout may return: the console's root (keycloak-js sends the origin without a trailing slash, so both
 * spellings) and /login, which a logout caused by a refused read returns to so the user signs in again.
 */
export function consolePostLogoutRedirectUris(publicUrl: string): string[] {
  return [publicUrl, `${publicUrl}/`, `${publicUrl}/login`];
}

/**
 * keycloak-js decodes the refresh token (it fails on an opaque one), so the token's value is given the shape of a
 * JWT: an unsigned header and payload for the client to read, and 256 random bits as the third part. The whole
 * value is the lookup key in storage; the server never reads the payload back, so forging one gains nothing.
 */
function jwtShapedRefreshToken(config: PlatformConfig) {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return (token: { expiration: number; accountId?: string; sid?: string; clientId?: string; scope?: string }) => {
    const now = Math.floor(Date.now() / 1000);
    const header = encode({ alg: 'none', typ: 'JWT' });
    const payload = encode({
      iat: now,
      exp: now + token.expiration,
      iss: config.issuer,
      aud: config.issuer,
      sub: token.accountId,
      typ: 'Refresh',
      azp: token.clientId,
      sid: token.sid,
      scope: token.scope,
    });
    return `${header}.${payload}.${randomBytes(32).toString('base64url')}`;
  };
}
