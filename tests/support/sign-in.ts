import { createHash, randomBytes } from 'node:crypto';

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  idToken: string;
  expiresIn: number;
}

/**
 * A cookie jar and a fetch that follows redirects by hand, so a test walks the identity server like a browser:
 * cookies are kept per name and path, and every hop of a redirect chain is visible.
 */
export class BrowserSession {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  constructor(readonly baseUrl: string) {}

  cookieHeader(url: URL): string {
    return [...this.cookies.values()]
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) || c.path === '/')
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(url: URL, response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';').map((p) => p.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let cookiePath = url.pathname.replace(/\/[^/]*$/, '') || '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key, val = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path') cookiePath = val || '/';
        if (key.toLowerCase() === 'max-age' && Number(val) <= 0) expired = true;
        if (key.toLowerCase() === 'expires' && new Date(val).getTime() < Date.now()) expired = true;
      }
      const key = `${name}|${cookiePath}`;
      if (expired) this.cookies.delete(key);
      else this.cookies.set(key, { name, value, path: cookiePath });
    }
  }

  /** One request, no redirect following; cookies sent and stored. */
  async request(input: string, init: RequestInit = {}): Promise<Response> {
    const url = new URL(input, this.baseUrl);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(url);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(url, response);
    return response;
  }

  /**
   * Follows redirects while they stay on the platform, stopping at the first response that is not a redirect or
   * at a redirect whose target satisfies stopAt (the console's callback, which a browser would load).
   */
  async follow(input: string, init: RequestInit = {}, stopAt?: (location: URL) => boolean): Promise<{ response: Response; url: URL }> {
    let url = new URL(input, this.baseUrl);
    let response = await this.request(url.toString(), init);
    for (let hops = 0; hops < 20; hops++) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { response, url };
      const next = new URL(location, url);
      if (stopAt?.(next)) return { response, url: next };
      url = next;
      response = await this.request(url.toString());
    }
    throw new Error('Too many redirects');
  }
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function createPkce(): Pkce {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface SignInOptions {
  /** Where the console would return to; default `${baseUrl}/auth` (the console's callback). */
  redirectUri?: string;
  scope?: string;
  /** Reuse a browser session (cookies) across sign-ins, e.g. to sign out afterwards. */
  session?: BrowserSession;
  /** Extra authorization request parameters (login_hint, prompt...). */
  params?: Record<string, string>;
}

export function authorizationUrl(baseUrl: string, pkce: Pkce, options: SignInOptions & { state: string; nonce: string }): string {
  const params = new URLSearchParams({
    client_id: 'console',
    redirect_uri: options.redirectUri ?? `${baseUrl}/auth`,
    response_type: 'code',
    response_mode: 'query',
    scope: options.scope ?? 'openid',
    state: options.state,
    nonce: options.nonce,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    ...options.params,
  });
  return `${baseUrl}/realms/observability/protocol/openid-connect/auth?${params}`;
}

/** Reads the action of the first form of an identity page. */
export function formAction(html: string): string {
  const match = /<form[^>]*action="([^"]+)"/.exec(html);
  if (!match) throw new Error(`No form on the page:\n${html.slice(0, 500)}`);
  return match[1].replace(/&amp;/g, '&');
}

/**
 * Opens the sign-in page like keycloak-js would (authorization request with PKCE S256), returning the page and
 * what is needed to finish: the form post and code exchange are done by completeSignIn or signIn.
 */
export async function openSignInPage(baseUrl: string, options: SignInOptions = {}) {
  const session = options.session ?? new BrowserSession(baseUrl);
  const pkce = createPkce();
  const state = randomBytes(8).toString('hex');
  const nonce = randomBytes(8).toString('hex');
  const redirectUri = options.redirectUri ?? `${baseUrl}/auth`;
  const { response, url } = await session.follow(
    authorizationUrl(baseUrl, pkce, { ...options, state, nonce }),
    {},
    isCallback(redirectUri),
  );
  return { session, pkce, state, redirectUri, response, url, html: await response.text() };
}

/** True for the console's callback address carrying an authorization response (code or error). */
export function isCallback(redirectUri: string) {
  const target = new URL(redirectUri);
  return (location: URL) => {
    if (location.origin !== target.origin || location.pathname !== target.pathname) return false;
    const params = location.hash ? new URLSearchParams(location.hash.slice(1)) : location.searchParams;
    return params.has('code') || params.has('error');
  };
}

/** Exchanges an authorization code like keycloak-js does. */
export async function exchangeCode(baseUrl: string, code: string, verifier: string, redirectUri: string): Promise<Tokens> {
  const response = await fetch(`${baseUrl}/realms/observability/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: 'console', redirect_uri: redirectUri, code_verifier: verifier }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`Code exchange failed (${response.status}): ${JSON.stringify(body)}`);
  return {
    accessToken: String(body.access_token),
    refreshToken: String(body.refresh_token),
    idToken: String(body.id_token),
    expiresIn: Number(body.expires_in),
  };
}

/** Reads the code from the console's callback address, failing with the provider's error if there is one. */
export function codeFromCallback(url: URL, state: string): string {
  const params = url.hash ? new URLSearchParams(url.hash.slice(1)) : url.searchParams;
  if (params.get('error')) throw new Error(`Authorization failed: ${params.get('error')} ${params.get('error_description') ?? ''}`);
  if (params.get('state') !== state) throw new Error('State mismatch');
  const code = params.get('code');
  if (!code) throw new Error(`No code in ${url.href}`);
  return code;
}

/**
 * The real browser flow: authorization request with PKCE S256, the login page's form post, the redirect back with
 * a code, and the code exchange. Returns the tokens (and the session, whose cookies hold the sign-in).
 */
export async function signIn(
  baseUrl: string,
  email: string,
  password: string,
  options: SignInOptions = {},
): Promise<Tokens & { session: BrowserSession }> {
  const page = await openSignInPage(baseUrl, options);
  let callback = page.url;
  const done = isCallback(page.redirectUri);
  if (!done(callback)) {
    const action = formAction(page.html);
    const posted = await page.session.follow(
      new URL(action, baseUrl).toString(),
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }),
      },
      done,
    );
    if (!done(posted.url)) {
      throw new Error(`Sign-in of ${email} failed (${posted.response.status})`);
    }
    callback = posted.url;
  }
  const code = codeFromCallback(callback, page.state);
  const tokens = await exchangeCode(baseUrl, code, page.pkce.verifier, page.redirectUri);
  return { ...tokens, session: page.session };
}

export interface RefreshResult {
  status: number;
  body: Record<string, unknown>;
  tokens?: Tokens;
}

/**
 * The refresh_token grant as the console posts it; organizationId switches the organization (a number), returns
 * to personal mode ('personal' or ''), or keeps the chain's organization (undefined).
 */
export async function refreshTokens(
  baseUrl: string,
  refreshToken: string,
  organizationId?: number | string | null,
): Promise<RefreshResult> {
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'console' });
  if (organizationId !== undefined) form.set('organization_id', organizationId === null ? '' : String(organizationId));
  const response = await fetch(`${baseUrl}/realms/observability/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const body = (await response.json()) as Record<string, unknown>;
  return {
    status: response.status,
    body,
    tokens: response.ok
      ? {
          accessToken: String(body.access_token),
          refreshToken: String(body.refresh_token),
          idToken: String(body.id_token),
          expiresIn: Number(body.expires_in),
        }
      : undefined,
  };
}

/** The payload of a JWT, unverified (tests compare claims; verification is the API's job). */
export function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

export function decodeJwtHeader(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as Record<string, unknown>;
}
