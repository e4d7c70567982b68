import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlatformConfig } from '../config';
import type { Database } from '../db/database';
import type { Mailer } from '../adapters/mail/mailer';
import { createAccountEndpoints } from './account-endpoints';
import { createSignInProtection } from './brute-force';
import { FormTooLargeError, redirect, sendHtml, sendText } from './http-responses';
import { describeErrorForLog } from '../safe-error-log';
import { loadOrCreateCookieKeys } from './identity-secrets';
import { createSecretBox } from './secret-box';
import { createInteractionHandler } from './interactions';
import { sweepExpiredModels } from './oidc-adapter';
import { messagePage, thirdPartyCookiePage, type PageContext } from './pages';
import { createProvider } from './provider-configuration';
import type { SigningKeys } from './signing-keys';
import { sweepEndedSessions } from './session-revocation';
import { createRevocationEndpoint } from './token-revocation';
import { createSocialSignIn, interactionOfState, socialRedirectUri } from './social-sign-in';
import { sweepSocialSignInAttempts } from '../db/repositories/social-identities-repository';
import { createAccessTokenVerifier } from './verify-access-token';

// The identity server's front door: routes each request under /realms/{realm} to the module that answers it.
// provider-configuration.ts configures oidc-provider, interactions.ts serves the login and registration pages,
// account-endpoints.ts answers userinfo, the account endpoint and verification links, organization-switch.ts adds
// organization_id to the refresh grant, and oidc-internals.ts holds every use of the provider's internals.

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

const assetsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
const ASSETS: Record<string, string> = {
  'identity.css': 'text/css; charset=utf-8',
  'logout.js': 'text/javascript; charset=utf-8',
  '3p-cookies-step1.js': 'text/javascript; charset=utf-8',
  '3p-cookies-step2.js': 'text/javascript; charset=utf-8',
};

export async function createIdentityServer(deps: IdentityServerDependencies): Promise<IdentityServer> {
  const { db, config, mailer, signingKeys } = deps;
  const realmPath = `/realms/${config.realm}`;
  const pageContext: PageContext = { realmPath, consoleUrl: `${config.publicUrl}/` };
  const cookieKeys = await loadOrCreateCookieKeys(db, config.secretsEncryptionKey ? createSecretBox(config.secretsEncryptionKey) : undefined);
  const verifyAccessToken = createAccessTokenVerifier({
    issuer: config.issuer,
    audience: config.apiAudience,
    publicJwks: signingKeys.publicJwks,
  });

  const provider = createProvider({ db, config, signingKeys, cookieKeys, pageContext });
  if (!deps.quiet) {
    provider.on('server_error', (_ctx: unknown, error: Error) => console.error('[identity] server error:', describeErrorForLog(error)));
  }
  const accountEndpoints = createAccountEndpoints({ db, config, pageContext, verifyAccessToken });
  const revoke = createRevocationEndpoint({ db, config, provider });
  const signInProtection = createSignInProtection(db, config.signInProtection);
  const social = config.socialOidc ? createSocialSignIn({ db, settings: config.socialOidc, redirectUri: socialRedirectUri(config.issuer) }) : undefined;
  const handleInteraction = createInteractionHandler({ db, config, mailer, provider, pageContext, signInProtection, social, quiet: deps.quiet });

  const sweep = setInterval(() => {
    sweepExpiredModels(db).catch(() => undefined);
    signInProtection.sweep().catch(() => undefined);
    sweepEndedSessions(db).catch(() => undefined);
    sweepSocialSignInAttempts(db).catch(() => undefined);
  }, 60 * 60 * 1000);
  sweep.unref();

  const providerCallback = provider.callback();
  const secureOrigin = config.publicUrl.startsWith('https:');

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', config.publicUrl);
    const sub = url.pathname.slice(realmPath.length) || '/';
    // With an https PUBLIC_URL the cookies are secure: a plain-http request (no TLS, no X-Forwarded-Proto: https from
    // the load balancer) is sent to the https address, or refused when it is not a page load.
    if (secureOrigin && !isHttps(req)) {
      if (req.method === 'GET' || req.method === 'HEAD') return redirect(res, `${new URL(config.publicUrl).origin}${req.url ?? '/'}`);
      return sendText(res, 400, `Use ${new URL(config.publicUrl).origin} (https).`);
    }
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
      if (sub === '/protocol/openid-connect/revoke') return await revoke(req, res);
      if (sub === '/protocol/openid-connect/userinfo') return await accountEndpoints.userinfo(req, res);
      if (sub === '/account' || sub === '/account/') return await accountEndpoints.account(req, res);
      if (sub === '/verify-email') return await accountEndpoints.verifyEmail(res, url.searchParams.get('token') ?? '');
      if (sub === '/broker/social/endpoint' && social) {
        // The provider's callback: back to the login interaction the state names (its cookie is scoped to that path).
        const uid = interactionOfState(url.searchParams.get('state'));
        if (uid) return redirect(res, `${realmPath}/interaction/${uid}/social-callback${url.search}`);
        return sendHtml(res, 400, messagePage(pageContext, {
          title: 'Sign-in not completed',
          message: `The answer from ${social.label} does not belong to a sign-in started here. Please start again from the console.`,
          link: { href: pageContext.consoleUrl, label: 'Back to the console' },
          tone: 'error',
        }));
      }
      const interaction = /^\/interaction\/([\w-]+)(\/login|\/register|\/social|\/social-callback)?$/.exec(sub);
      if (interaction) return await handleInteraction(req, res, interaction[2] ?? '', url);

      (req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
      req.url = (req.url ?? '/').slice(realmPath.length) || '/';
      await providerCallback(req, res);
    } catch (error) {
      if (error instanceof FormTooLargeError && !res.headersSent) {
        return sendHtml(res, 413, messagePage(pageContext, {
          title: 'Form too large',
          message: 'What was sent is larger than this form accepts. Please go back and shorten it.',
          link: { href: pageContext.consoleUrl, label: 'Back to the console' },
          tone: 'error',
        }));
      }
      if (!deps.quiet) console.error('[identity]', describeErrorForLog(error));
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

  function isHttps(req: IncomingMessage): boolean {
    if ((req.socket as { encrypted?: boolean }).encrypted) return true;
    const forwarded = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim().toLowerCase();
    return forwarded === 'https';
  }

  async function serveAsset(res: ServerResponse, name: string) {
    const type = ASSETS[name];
    if (!type) return sendText(res, 404, 'Not found');
    const body = await readFile(path.join(assetsDir, name));
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' });
    res.end(body);
  }

  return {
    realmPath,
    handle,
    close: () => clearInterval(sweep),
  };
}
