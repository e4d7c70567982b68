import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

// A scripted OpenID Connect provider for the tests of social sign-in: it checks what the relying party sends (client
// secret, PKCE verifier, redirect URI, one use per code) and answers with an id_token shaped by the test's script, so
// each check of the identity server (issuer, audience, signature, nonce, expiry, state) can be made to fail alone.

export interface ProviderScript {
  sub: string;
  email?: string;
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
  /** The authorization endpoint answers with this error instead of a code (access_denied...). */
  error?: string;
  /** The state sent back differs from the one received. */
  tamperState?: boolean;
  idTokenIssuer?: string;
  idTokenAudience?: string;
  /** Replaces the nonce the relying party sent. */
  nonce?: string;
  /** Seconds from now until the id_token expires (negative: already expired). */
  expiresIn?: number;
  /** Sign with a key that is not in the JWKS. */
  foreignKey?: boolean;
}

export interface ScriptedProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  script: ProviderScript;
  /** What the token endpoint refused, newest last (a test reads why). */
  refusals: string[];
  close(): Promise<void>;
}

export async function startScriptedProvider(initial: ProviderScript): Promise<ScriptedProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid: 'scripted-1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { nonce: string; challenge: string; redirectUri: string }>();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider: ScriptedProvider = {
    issuer,
    clientId: 'console-at-scripted',
    clientSecret: randomBytes(16).toString('hex'),
    script: initial,
    refusals: [],
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, why: string) => {
    provider.refusals.push(why);
    json(res, 400, { error: 'invalid_grant', error_description: why });
  };

  async function idToken(nonce: string): Promise<string> {
    const script = provider.script;
    const now = Math.floor(Date.now() / 1000);
    const key: CryptoKey = script.foreignKey ? foreign.privateKey : privateKey;
    return new SignJWT({
      nonce: script.nonce ?? nonce,
      ...(script.email !== undefined ? { email: script.email, email_verified: script.emailVerified ?? true } : {}),
      given_name: script.givenName,
      family_name: script.familyName,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'scripted-1' })
      .setIssuer(script.idTokenIssuer ?? issuer)
      .setAudience(script.idTokenAudience ?? provider.clientId)
      .setSubject(script.sub)
      .setIssuedAt(now - 5)
      .setExpirationTime(now + (script.expiresIn ?? 300))
      .sign(key);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    }
    if (url.pathname === '/jwks') return json(res, 200, { keys: [publicJwk] });
    if (url.pathname === '/authorize') {
      const p = url.searchParams;
      const redirectUri = p.get('redirect_uri') ?? '';
      const state = p.get('state') ?? '';
      const answer = new URL(redirectUri);
      if (p.get('client_id') !== provider.clientId || p.get('response_type') !== 'code' || p.get('code_challenge_method') !== 'S256' || !p.get('nonce') || !state) {
        answer.search = new URLSearchParams({ error: 'invalid_request', state }).toString();
      } else if (provider.script.error) {
        answer.search = new URLSearchParams({ error: provider.script.error, state }).toString();
      } else {
        const code = randomBytes(16).toString('hex');
        codes.set(code, { nonce: p.get('nonce')!, challenge: p.get('code_challenge')!, redirectUri });
        const sentState = provider.script.tamperState ? `${state.split('.')[0]}.${randomBytes(24).toString('base64url')}` : state;
        answer.search = new URLSearchParams({ code, state: sentState, iss: issuer }).toString();
      }
      res.writeHead(302, { location: answer.toString() });
      return res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const form = new URLSearchParams(Buffer.concat(chunks).toString());
      const expectedAuth = `Basic ${Buffer.from(`${provider.clientId}:${provider.clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expectedAuth) return refuse(res, 'client authentication');
      const entry = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!entry) return refuse(res, 'unknown or used code');
      if (form.get('redirect_uri') !== entry.redirectUri) return refuse(res, 'redirect_uri');
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== entry.challenge) return refuse(res, 'PKCE verifier');
      return json(res, 200, { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 300, id_token: await idToken(entry.nonce) });
    }
    res.writeHead(404);
    res.end();
  }

  server.on('request', (req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  return provider;
}
