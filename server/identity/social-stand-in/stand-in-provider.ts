import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import type { SocialOidcSettings } from '../../config';
import { readForm, sendHtml, sendText } from '../http-responses';
import { standInLoginPage, standInMessagePage } from './stand-in-pages';

// A LOCAL STAND-IN for an external sign-in provider ("Sign in with Google" and the like), for development and the
// tests only. It is a real OpenID Connect provider (oidc-provider, a second small instance on its own port) so the
// identity server's social sign-in runs its real flow against it: discovery, PKCE, state, nonce, JWKS, id_token.
// It trusts whatever email is typed on its page: anyone who can reach it can be any social user. That is why the
// platform starts it only outside production on a loopback address, and never when SOCIAL_OIDC_ISSUER is set
// (server/config.ts). Accounts and keys live in memory; subjects are derived from the email, so they stay stable.

/** The label of the login page's button when the stand-in is in use. */
export const STAND_IN_LABEL = 'Social stand-in';

/** The people the stand-in knows by name; any other valid email signs in as a new social user. */
const KNOWN_PEOPLE: Record<string, { givenName: string; familyName: string }> = {
  'social@example.com': { givenName: 'Sam', familyName: 'Social' },
};

export interface SocialStandIn {
  issuer: string;
  /** What the identity server is configured with (a client secret made for this start). */
  settings: SocialOidcSettings;
  close(): Promise<void>;
}

interface StandInAccount {
  sub: string;
  email: string;
  givenName: string;
  familyName: string;
}

export async function startSocialStandIn(options: { host: string; port: number; redirectUri: string; connection: string }): Promise<SocialStandIn> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`The social sign-in stand-in cannot listen on port ${options.port} (in use): set SOCIAL_STAND_IN_PORT to a free port, or SOCIAL_STAND_IN=false.`)
          : error,
      ),
    );
    server.listen(options.port, options.host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const issuer = `http://${host}:${port}`;
  const clientId = 'observability-console';
  const clientSecret = randomBytes(32).toString('base64url');
  const accounts = new Map<string, StandInAccount>();

  // ES256: a key made in a millisecond (an RSA one takes about a second on a busy machine, at every platform start).
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'ES256', use: 'sig' };

  const provider = new Provider(issuer, {
    adapter: memoryAdapter(),
    ttl: { AccessToken: 300, AuthorizationCode: 60, IdToken: 300, Interaction: 600, Session: 3600, Grant: 3600 },
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        client_name: 'Observability Console',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [options.redirectUri],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'ES256',
      },
    ],
    jwks: { keys: [signingKey] },
    // Its own cookie names: cookies ignore ports, and the identity server on this host uses the default names.
    cookies: {
      names: { session: '_stand_in_session', interaction: '_stand_in_interaction', resume: '_stand_in_resume' },
      keys: [randomBytes(32).toString('base64url')],
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    scopes: ['openid', 'email', 'profile'],
    features: { devInteractions: { enabled: false } },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    pkce: { required: () => true },
    // Like a provider where the person already agreed: the grant is made without a consent page.
    async loadExistingGrant(ctx: { oidc: { session?: { accountId?: string }; client: { clientId: string } } }) {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId) return undefined;
      const grant = new provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            email: account.email,
            email_verified: true,
            given_name: account.givenName,
            family_name: account.familyName,
            name: `${account.givenName} ${account.familyName}`.trim(),
          };
        },
      };
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async renderError(ctx: { type: string; body: string }, out: { error: string; error_description?: string }) {
      ctx.type = 'html';
      ctx.body = standInMessagePage('Something went wrong', out.error_description ?? out.error);
    },
  });
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse, action: string): Promise<void> {
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      return sendHtml(res, 400, standInMessagePage('Sign-in expired', 'This stand-in sign-in has expired. Please start again from the console.'));
    }
    const action_ = `/interaction/${details.uid}`;
    if (req.method === 'GET') return sendHtml(res, 200, standInLoginPage({ action: `${action_}/login`, cancel: `${action_}/cancel`, email: 'social@example.com' }));
    if (req.method !== 'POST') return sendText(res, 405, 'Method not allowed');
    const form = await readForm(req);
    if (action === '/cancel') {
      return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person cancelled the sign-in.' }, { mergeWithLastSubmission: false });
    }
    const email = (form.get('email') ?? '').trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) {
      return sendHtml(res, 200, standInLoginPage({ action: `${action_}/login`, cancel: `${action_}/cancel`, email, error: 'Please enter a valid email address.' }));
    }
    const account = accountFor(email);
    accounts.set(account.sub, account);
    return provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const pathname = new URL(req.url ?? '/', issuer).pathname;
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
    res.setHeader('X-Frame-Options', 'DENY');
    const match = /^\/interaction\/[\w-]+(\/login|\/cancel)?$/.exec(pathname);
    const handled = match ? interaction(req, res, match[1] ?? '') : Promise.resolve(callback(req, res));
    handled.catch(() => {
      if (!res.headersSent) sendText(res, 500, 'The social stand-in had a problem.');
      else res.end();
    });
  });

  return {
    issuer,
    settings: { issuer, clientId, clientSecret, label: STAND_IN_LABEL, connection: options.connection },
    close: () => closeServer(server),
  };
}

/**
 * The stand-in's sessions, codes and grants, in memory (it forgets them on restart, as it should). Its own adapter
 * rather than oidc-provider's built-in one, which warns on every start that it is not for production.
 */
function memoryAdapter() {
  const store = new Map<string, { payload: Record<string, unknown>; expiresAt: number }>();
  return class StandInAdapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Record<string, unknown>, expiresIn: number) {
      store.set(this.key(id), { payload, expiresAt: Date.now() + expiresIn * 1000 });
    }
    async find(id: string) {
      const entry = store.get(this.key(id));
      if (!entry || entry.expiresAt < Date.now()) return undefined;
      return entry.payload;
    }
    async findByUid(uid: string) {
      for (const [key, entry] of store) if (key.startsWith(`${this.model}:`) && entry.payload.uid === uid && entry.expiresAt >= Date.now()) return entry.payload;
      return undefined;
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id: string) {
      const entry = store.get(this.key(id));
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }
  };
}

/** Subjects derived from the email: the same person gets the same subject after a restart of the stand-in. */
function accountFor(email: string): StandInAccount {
  const known = KNOWN_PEOPLE[email];
  const local = email.split('@')[0];
  return {
    sub: `stand-in-${createHash('sha256').update(email).digest('hex').slice(0, 24)}`,
    email,
    givenName: known?.givenName ?? local.charAt(0).toUpperCase() + local.slice(1),
    familyName: known?.familyName ?? 'Social',
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) return resolve();
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
