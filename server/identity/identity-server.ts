import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Provider, { errors } from 'oidc-provider';
import * as refreshTokenGrant from 'oidc-provider/lib/actions/grants/refresh_token.js';
import * as grantHelpers from 'oidc-provider/lib/helpers/grants.js';
import type { PlatformConfig } from '../config';
import type { Database } from '../db/database';
import type { Mailer } from '../adapters/mail/mailer';
import {
  authenticateUser,
  createUser,
  findUserByEmail,
  findUserById,
  type UserRow,
} from '../db/repositories/users-repository';
import { consumeVerificationToken, sendVerificationEmail } from './email-verification';
import { loadOrCreateCookieKeys } from './identity-secrets';
import { createOidcAdapterClass, sweepExpiredModels } from './oidc-adapter';
import {
  loginPage,
  logoutPage,
  messagePage,
  registrationPage,
  thirdPartyCookiePage,
  type PageContext,
  type RegistrationErrors,
  type RegistrationValues,
} from './pages';
import { passwordProblems } from './password-rules';
import type { SigningKeys } from './signing-keys';
import { createAccessTokenVerifier, InvalidTokenError } from './verify-access-token';

export interface IdentityServerDependencies {
  db: Database;
  config: PlatformConfig;
  mailer: Mailer;
  signingKeys: SigningKeys;
  quiet?: boolean;
}

export interface IdentityServer {
  /** The path every identity URL starts with: `/realms/{realm}`. */
  realmPath: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): void;
}

// Koa context key under which the refresh grant passes the organization of the new tokens to the claim hooks.
const ORGANIZATION = Symbol('organization');
// Refresh tokens and sessions last as long as Keycloak's default "SSO Session Max".
const SESSION_SECONDS = 10 * 60 * 60;
const INTERACTION_SECONDS = 60 * 60;
const FORM_BODY_LIMIT = 16 * 1024;

const assetsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
const ASSETS: Record<string, string> = {
  'identity.css': 'text/css; charset=utf-8',
  'logout.js': 'text/javascript; charset=utf-8',
  '3p-cookies-step1.js': 'text/javascript; charset=utf-8',
  '3p-cookies-step2.js': 'text/javascript; charset=utf-8',
};

type Ctx = {
  oidc: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  state: Record<string | symbol, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  type: string;
  status: number;
};

export async function createIdentityServer(deps: IdentityServerDependencies): Promise<IdentityServer> {
  const { db, config, mailer, signingKeys } = deps;
  const realmPath = `/realms/${config.realm}`;
  const consoleOrigin = new URL(config.publicUrl).origin;
  const pageContext: PageContext = { realmPath, consoleUrl: `${config.publicUrl}/` };
  const cookieKeys = await loadOrCreateCookieKeys(db);
  const secureCookies = config.publicUrl.startsWith('https:');
  const verifyAccessToken = createAccessTokenVerifier({
    issuer: config.issuer,
    audience: config.apiAudience,
    publicJwks: signingKeys.publicJwks,
  });

  const organizationOf = (ctx: Ctx | undefined): number | null => {
    const value = ctx?.state?.[ORGANIZATION];
    return typeof value === 'number' ? value : null;
  };

  const profileClaims = (user: UserRow, organizationId: number | null) => ({
    email: user.email,
    email_verified: user.email_verified,
    given_name: user.given_name,
    family_name: user.family_name,
    name: `${user.given_name} ${user.family_name}`.trim(),
    preferred_username: user.email,
    connection: user.connection,
    ...(organizationId !== null ? { organization_id: organizationId } : {}),
  });

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
        // Every page of the console may be the return address (keycloak-js uses the current URL); the exact
        // check is the origin comparison in redirectUriAllowed below, these only satisfy metadata validation.
        redirect_uris: [`${config.publicUrl}/`],
        post_logout_redirect_uris: [`${config.publicUrl}/`],
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
        async logoutSource(ctx: Ctx, form: string) {
          // The provider's form has id "op.logoutForm"; give it a stable id and the "sign out everywhere" answer.
          const autoForm = form
            .replace('id="op.logoutForm"', 'id="logout-form"')
            .replace('</form>', '<input type="hidden" name="logout" value="yes"></form>');
          ctx.type = 'html';
          ctx.body = logoutPage(pageContext, autoForm);
        },
        async postLogoutSuccessSource(ctx: Ctx) {
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
        getResourceServerInfo: (_ctx: Ctx, resource: string) => {
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
    clientBasedCORS: (_ctx: Ctx, origin: string) => origin === consoleOrigin,
    // The console is first-party: consent is implicit. The grant for the session is reused (and widened to what
    // is asked), or created, so no consent prompt ever shows.
    async loadExistingGrant(ctx: Ctx) {
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
    async findAccount(ctx: Ctx, sub: string) {
      const user = await findUserById(db, sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        async claims() {
          return { sub, ...profileClaims(user, organizationOf(ctx)) };
        },
      };
    },
    async extraTokenClaims(ctx: Ctx, token: { accountId?: string; sid?: string }) {
      if (!token.accountId) return undefined;
      const user = await findUserById(db, token.accountId);
      if (!user) return undefined;
      const { name: _name, preferred_username: _username, ...claims } = profileClaims(user, organizationOf(ctx));
      return { ...claims, ...(token.sid ? { sid: token.sid } : {}) };
    },
    // Refresh tokens without offline_access, bound to the browser session (logout ends them).
    issueRefreshToken: (_ctx: Ctx, client: { grantTypeAllowed(t: string): boolean }) =>
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
      RefreshToken: (ctx: Ctx | undefined) => {
        const rotated = ctx?.oidc?.entities?.RotatedRefreshToken;
        return rotated ? Math.max(rotated.remainingTTL, 1) : SESSION_SECONDS;
      },
    },
    interactions: {
      url: (_ctx: Ctx, interaction: { uid: string }) => `${realmPath}/interaction/${interaction.uid}`,
    },
    async renderError(ctx: Ctx, out: { error: string; error_description?: string }) {
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

  // Any page of the console is a valid return address (keycloak-js returns to the page that started sign-in or
  // sign-out); anything outside the console's origin is not.
  const sameOrigin = (uri: string) => {
    try {
      return new URL(uri).origin === consoleOrigin;
    } catch {
      return false;
    }
  };
  provider.Client.prototype.redirectUriAllowed = sameOrigin;
  provider.Client.prototype.postLogoutRedirectUriAllowed = sameOrigin;
  // The console and the API read `sid`; the provider only adds it for back-channel logout clients by default.
  provider.Client.prototype.includeSid = () => true;

  installJwtShapedRefreshTokens(provider, config);
  installOrganizationSwitch(provider, db);

  if (!deps.quiet) {
    provider.on('server_error', (_ctx: unknown, error: Error) => console.error('[identity] server error:', error));
  }

  const sweep = setInterval(() => {
    sweepExpiredModels(db).catch(() => undefined);
  }, 60 * 60 * 1000);
  sweep.unref();

  const providerCallback = provider.callback();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', config.publicUrl);
    const sub = url.pathname.slice(realmPath.length) || '/';
    try {
      if (sub.startsWith('/resources/')) return await serveAsset(res, sub.slice('/resources/'.length));
      if (sub === '/protocol/openid-connect/3p-cookies/step1.html' || sub === '/protocol/openid-connect/3p-cookies/step2.html') {
        // keycloak-js loads these in a hidden iframe of the console: framing by the same origin is allowed.
        res.setHeader('Content-Security-Policy', "default-src 'none'; script-src 'self'; frame-ancestors 'self'");
        res.setHeader('X-Frame-Options', 'SAMEORIGIN');
        return sendHtml(res, 200, thirdPartyCookiePage(pageContext, sub.endsWith('step1.html') ? 1 : 2));
      }
      if (sub === '/protocol/openid-connect/registrations') {
        // Keycloak's registration address: the same authorization request, opening on the registration form.
        url.searchParams.set('screen_hint', 'signup');
        return redirect(res, `${realmPath}/protocol/openid-connect/auth?${url.searchParams.toString()}`);
      }
      if (sub === '/protocol/openid-connect/userinfo') return await userinfo(req, res);
      if (sub === '/account' || sub === '/account/') return await account(req, res);
      if (sub === '/verify-email') return await verifyEmail(res, url.searchParams.get('token') ?? '');
      const interaction = /^\/interaction\/([\w-]+)(\/login|\/register)?$/.exec(sub);
      if (interaction) return await handleInteraction(req, res, interaction[2] ?? '');

      (req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
      req.url = (req.url ?? '/').slice(realmPath.length) || '/';
      await providerCallback(req, res);
    } catch (error) {
      if (!deps.quiet) console.error('[identity]', error);
      if (!res.headersSent) {
        sendHtml(
          res,
          500,
          messagePage(pageContext, {
            title: 'Something went wrong',
            message: 'The sign-in service had a problem. Please try again.',
            link: { href: pageContext.consoleUrl, label: 'Back to the console' },
            tone: 'error',
          }),
        );
      } else res.end();
    }
  }

  async function serveAsset(res: ServerResponse, name: string) {
    const type = ASSETS[name];
    if (!type) return sendText(res, 404, 'Not found');
    const body = await readFile(path.join(assetsDir, name));
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' });
    res.end(body);
  }

  async function bearerUser(req: IncomingMessage) {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) return undefined;
    try {
      const claims = await verifyAccessToken(match[1]);
      const user = await findUserById(db, claims.sub);
      return user ? { user, claims } : undefined;
    } catch (error) {
      if (error instanceof InvalidTokenError) return undefined;
      throw error;
    }
  }

  async function userinfo(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'OPTIONS') return sendText(res, 204, '');
    const found = await bearerUser(req);
    if (!found) return sendUnauthorized(res);
    sendJson(res, 200, { sub: found.user.id, ...profileClaims(found.user, found.claims.organization_id) });
  }

  // Keycloak's account endpoint: keycloak-js loadUserProfile() reads it as JSON; a browser visiting it (the
  // console's "manage account" link) is sent to the console's own account settings.
  async function account(req: IncomingMessage, res: ServerResponse) {
    const wantsJson = (req.headers.accept ?? '').includes('application/json') || !!req.headers.authorization;
    if (!wantsJson) return redirect(res, `${config.publicUrl}/account`);
    const found = await bearerUser(req);
    if (!found) return sendUnauthorized(res);
    const { user } = found;
    sendJson(res, 200, {
      id: user.id,
      username: user.email,
      email: user.email,
      firstName: user.given_name,
      lastName: user.family_name,
      emailVerified: user.email_verified,
      attributes: { connection: [user.connection] },
    });
  }

  async function verifyEmail(res: ServerResponse, token: string) {
    const result = await consumeVerificationToken(db, token);
    const back = { href: pageContext.consoleUrl, label: 'Go to the console' };
    if (result.status === 'verified') {
      return sendHtml(res, 200, messagePage(pageContext, {
        title: 'Email verified',
        message: 'Thank you, your email address is verified.',
        link: back,
        tone: 'success',
      }));
    }
    const message = {
      invalid: 'This verification link is not valid. Request a new one from the console.',
      expired: 'This verification link has expired. Request a new one from the console.',
      used: 'This verification link was already used. Your email address is verified.',
    }[result.status];
    sendHtml(res, result.status === 'used' ? 200 : 400, messagePage(pageContext, {
      title: result.status === 'used' ? 'Email verified' : 'Link not valid',
      message,
      link: back,
      tone: result.status === 'used' ? 'success' : 'error',
    }));
  }

  async function handleInteraction(req: IncomingMessage, res: ServerResponse, action: string) {
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      return sendHtml(res, 400, messagePage(pageContext, {
        title: 'Sign-in expired',
        message: 'This sign-in page has expired. Please start again from the console.',
        link: { href: pageContext.consoleUrl, label: 'Back to the console' },
        tone: 'error',
      }));
    }
    const uid: string = details.uid;
    const base = `${realmPath}/interaction/${uid}`;
    const params = details.params as Record<string, string | undefined>;

    if (details.prompt.name === 'consent') {
      // Never reached while loadExistingGrant creates the grant; kept so a changed policy cannot strand a user.
      const grant = new provider.Grant({ accountId: details.session.accountId, clientId: params.client_id });
      grant.addOIDCScope('openid profile email');
      grant.addResourceScope(config.apiAudience, 'openid profile email');
      const grantId = await grant.save();
      return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    }

    const loginForm = (options: { email?: string; error?: string }) =>
      sendHtml(res, 200, loginPage(pageContext, { action: `${base}/login`, registerUrl: `${base}/register`, ...options }));
    const registrationForm = (options: { values: RegistrationValues; errors?: RegistrationErrors }) =>
      sendHtml(res, 200, registrationPage(pageContext, { action: `${base}/register`, loginUrl: base, ...options }));

    if (req.method === 'GET') {
      if (action === '/register' || (action === '' && params.screen_hint === 'signup')) {
        return registrationForm({ values: { firstName: '', lastName: '', email: params.login_hint ?? '' } });
      }
      return loginForm({ email: params.login_hint });
    }
    if (req.method !== 'POST') return sendText(res, 405, 'Method not allowed');
    const form = await readForm(req);

    if (action === '/login') {
      const email = (form.get('email') ?? '').trim();
      const password = form.get('password') ?? '';
      const user = email && password ? await authenticateUser(db, email, password) : undefined;
      // 200 like Keycloak: the page is the answer, and browsers would log a 4xx document as a console error.
      if (!user) return loginForm({ email, error: 'Invalid email or password.' });
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: user.id, amr: ['pwd'], remember: true } },
        { mergeWithLastSubmission: false },
      );
    }

    if (action === '/register') {
      const values = {
        firstName: (form.get('firstName') ?? '').trim(),
        lastName: (form.get('lastName') ?? '').trim(),
        email: (form.get('email') ?? '').trim(),
      };
      const password = form.get('password') ?? '';
      const passwordConfirm = form.get('passwordConfirm') ?? '';
      const errors: RegistrationErrors = {};
      if (!values.firstName) errors.firstName = ['Please enter your first name.'];
      if (!values.lastName) errors.lastName = ['Please enter your last name.'];
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email)) errors.email = ['Please enter a valid email address.'];
      else if (await findUserByEmail(db, values.email)) errors.email = ['An account with this email address already exists.'];
      const problems = passwordProblems(password);
      if (problems.length) errors.password = problems;
      if (!passwordConfirm || password !== passwordConfirm) errors.passwordConfirm = ['The passwords do not match.'];
      if (Object.keys(errors).length) return registrationForm({ values, errors });

      let user: UserRow;
      try {
        user = await createUser(db, { email: values.email, password, givenName: values.firstName, familyName: values.lastName });
      } catch {
        // The unique index caught a registration that raced this one.
        return registrationForm({ values, errors: { email: ['An account with this email address already exists.'] } });
      }
      await sendVerificationEmail({ db, mailer, config }, user);
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: user.id, amr: ['pwd'], remember: true } },
        { mergeWithLastSubmission: false },
      );
    }
    return sendText(res, 404, 'Not found');
  }

  return {
    realmPath,
    handle,
    close: () => clearInterval(sweep),
  };
}

/**
 * keycloak-js decodes the refresh token (it fails on an opaque one), so the token's value is given the shape of a
 * JWT: an unsigned header and payload for the client to read, and 256 random bits as the third part. The whole
 * value is the lookup key in storage; the server never reads the payload back, so forging one gains nothing.
 */
function installJwtShapedRefreshTokens(provider: Provider, config: PlatformConfig) {
  const RefreshToken = provider.RefreshToken;
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  RefreshToken.prototype.generateTokenId = function generateTokenId(this: {
    expiration: number;
    accountId?: string;
    sid?: string;
    clientId?: string;
    scope?: string;
  }) {
    const now = Math.floor(Date.now() / 1000);
    const header = encode({ alg: 'none', typ: 'JWT' });
    const payload = encode({
      iat: now,
      exp: now + this.expiration,
      iss: config.issuer,
      aud: config.issuer,
      sub: this.accountId,
      typ: 'Refresh',
      azp: this.clientId,
      sid: this.sid,
      scope: this.scope,
    });
    return `${header}.${payload}.${randomBytes(32).toString('base64url')}`;
  };
}

/**
 * The refresh_token grant takes an extra `organization_id` (form body or query string). The organization is
 * stored on the refresh token and copied to each rotation, so a plain refresh keeps it and two tabs may act as
 * different organizations. Membership is checked BEFORE the built-in handler runs, so a refused switch leaves the
 * presented refresh token unconsumed and usable.
 */
function installOrganizationSwitch(provider: Provider, db: Database) {
  const RefreshToken = provider.RefreshToken;
  const basePayload: string[] = RefreshToken.IN_PAYLOAD;
  Object.defineProperty(RefreshToken, 'IN_PAYLOAD', { get: () => [...basePayload, 'organizationId'] });

  const originalSave = RefreshToken.prototype.save;
  RefreshToken.prototype.save = function save(this: { organizationId?: number | null }, ...args: unknown[]) {
    const ctx = (Provider as unknown as { ctx?: Ctx }).ctx;
    if (ctx?.state && ORGANIZATION in ctx.state) this.organizationId = ctx.state[ORGANIZATION] as number | null;
    return originalSave.apply(this, args);
  };

  const boundHelpers = Object.fromEntries(
    Object.entries(grantHelpers).map(([name, helper]) => [name, (helper as (...a: unknown[]) => unknown).bind(undefined, provider)]),
  );
  const parameters = new Set([...refreshTokenGrant.parameters, 'resource', 'organization_id']);

  provider.registerGrantType(
    'refresh_token',
    async (ctx: Ctx) => {
      const params = ctx.oidc.params as Record<string, string | undefined>;
      // Read from the raw body and query: the provider's parsed params drop empty values, and an empty
      // organization_id is meaningful (back to personal mode).
      const body = (ctx.oidc.body ?? {}) as Record<string, unknown>;
      const fromBody = typeof body.organization_id === 'string' ? body.organization_id : undefined;
      const fromQuery = typeof ctx.query.organization_id === 'string' ? ctx.query.organization_id : undefined;
      const raw = fromBody ?? fromQuery;
      const current = params.refresh_token
        ? await RefreshToken.find(params.refresh_token, { ignoreExpiration: true })
        : undefined;
      // Unknown, foreign or replayed tokens go straight to the built-in handler, which refuses them (and revokes the
      // grant of a replayed one); a membership error must not hide reuse detection.
      if (current && current.clientId === ctx.oidc.client.clientId && !current.consumed && current.isValid) {
        let target: number | null = typeof current.organizationId === 'number' ? current.organizationId : null;
        if (raw !== undefined) target = parseOrganization(raw);
        if (target !== null && !(await isOrganizationMember(db, current.accountId, target))) {
          if (raw !== undefined) {
            throw new errors.CustomOIDCProviderError('invalid_grant', 'You are not a member of this organization.');
          }
          // Removed from the organization since the last refresh: continue in personal mode.
          target = null;
        }
        ctx.state[ORGANIZATION] = target;
      }
      await refreshTokenGrant.handler(provider, boundHelpers, ctx);
    },
    parameters,
    ['resource'],
  );
}

function parseOrganization(raw: string): number | null {
  const value = raw.trim();
  if (value === '' || value === 'personal' || value === 'null') return null;
  if (!/^\d+$/.test(value)) {
    throw new errors.CustomOIDCProviderError('invalid_request', 'organization_id must be an organization id or "personal".');
  }
  return Number(value);
}

async function isOrganizationMember(db: Database, userId: string, organizationId: number): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM organization_members WHERE organization_id = $1 AND user_id = $2', [
    organizationId,
    userId,
  ]);
  return rows.length > 0;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > FORM_BODY_LIMIT) throw new Error('form too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function sendHtml(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(html);
}

function sendText(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

function sendUnauthorized(res: ServerResponse) {
  res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
  sendJson(res, 401, { error: 'invalid_token', error_description: 'A valid bearer access token is required.' });
}

function redirect(res: ServerResponse, location: string) {
  res.writeHead(302, { Location: location, 'Cache-Control': 'no-store' });
  res.end();
}
