import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessTokenVerifier } from '../../server/identity/verify-access-token';
import { loadOrCreateSigningKeys } from '../../server/identity/signing-keys';
import {
  BrowserSession,
  codeFromCallback,
  createPkce,
  decodeJwt,
  decodeJwtHeader,
  exchangeCode,
  formAction,
  isCallback,
  openSignInPage,
  signIn,
} from '../support/sign-in';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { createTestUser, PASSWORD } from './fixtures';

describe('sign-in with authorization code and PKCE', () => {
  let platform: TestPlatform;
  let base: string;
  beforeAll(async () => {
    platform = await startTestPlatform({ seed: false });
    base = platform.url;
    await createTestUser(platform.db, 'alice@example.com');
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('publishes discovery at Keycloak paths', async () => {
    const response = await fetch(`${base}/realms/observability/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as Record<string, unknown>;
    const realm = `${base}/realms/observability`;
    expect(doc.issuer).toBe(realm);
    expect(doc.authorization_endpoint).toBe(`${realm}/protocol/openid-connect/auth`);
    expect(doc.token_endpoint).toBe(`${realm}/protocol/openid-connect/token`);
    expect(doc.end_session_endpoint).toBe(`${realm}/protocol/openid-connect/logout`);
    expect(doc.jwks_uri).toBe(`${realm}/protocol/openid-connect/certs`);
    expect(doc.userinfo_endpoint).toBe(`${realm}/protocol/openid-connect/userinfo`);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    const jwks = (await (await fetch(String(doc.jwks_uri))).json()) as { keys: { kid: string; d?: string }[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
    expect(jwks.keys[0].d).toBeUndefined();
  });

  it('signs in through the login page and issues JWT access, ID and JWT-shaped refresh tokens', async () => {
    const tokens = await signIn(base, 'alice@example.com', PASSWORD);
    const header = decodeJwtHeader(tokens.accessToken);
    expect(header.typ).toBe('at+jwt');
    expect(header.alg).toBe('RS256');
    const claims = decodeJwt(tokens.accessToken);
    expect(claims).toMatchObject({
      iss: `${base}/realms/observability`,
      aud: `${base}/api`,
      email: 'alice@example.com',
      given_name: 'Test',
      family_name: 'alice',
      email_verified: true,
      connection: 'Username-Password-Authentication',
      client_id: 'console',
    });
    expect(typeof claims.sid).toBe('string');
    expect(claims).not.toHaveProperty('organization_id');
    expect(Number(claims.exp) - Number(claims.iat)).toBe(300);
    const id = decodeJwt(tokens.idToken);
    expect(id).toMatchObject({ aud: 'console', email: 'alice@example.com', given_name: 'Test', family_name: 'alice', connection: 'Username-Password-Authentication' });
    expect(id.sid).toBe(claims.sid);
    // keycloak-js decodes the refresh token: it must have a JSON payload with an expiry.
    const refresh = decodeJwt(tokens.refreshToken);
    expect(refresh.typ).toBe('Refresh');
    expect(Number(refresh.exp)).toBeGreaterThan(Date.now() / 1000);
  });

  it('shows the error on a wrong password and keeps the email typed', async () => {
    const page = await openSignInPage(base);
    expect(page.html).toContain('Sign in');
    expect(page.html).toContain('Create an account');
    const response = await page.session.request(new URL(formAction(page.html), base).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'alice@example.com', password: 'Wrong1234!' }),
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Invalid email or password.');
    expect(html).toContain('role="alert"');
    expect(html).toContain('value="alice@example.com"');
    await expect(signIn(base, 'nobody@example.com', PASSWORD)).rejects.toThrow(/failed/);
  });

  it('prefills the email from login_hint (invitation flow) and accepts Keycloak parameters it does not act on', async () => {
    const page = await openSignInPage(base, { params: { login_hint: 'invitee@example.com', kc_action: 'UPDATE_PASSWORD', prompt: 'login' } });
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('value="invitee@example.com"');
    expect(page.html).toMatch(/<label for="email">Email<\/label>/);
    expect(page.html).toMatch(/<label for="password">Password<\/label>/);
    expect(page.html).not.toMatch(/<script>/);
  });

  it('requires PKCE S256: no challenge and the plain method are refused', async () => {
    const common = { client_id: 'console', redirect_uri: `${base}/auth`, response_type: 'code', scope: 'openid', state: 's1', response_mode: 'query' };
    const session = new BrowserSession(base);
    const missing = await session.request(`${base}/realms/observability/protocol/openid-connect/auth?${new URLSearchParams(common)}`);
    expect(missing.status).toBe(303);
    const missingLocation = new URL(String(missing.headers.get('location')));
    expect(missingLocation.searchParams.get('error')).toBe('invalid_request');
    expect(missingLocation.searchParams.get('error_description')).toMatch(/PKCE/);
    const pkce = createPkce();
    const plain = await session.request(
      `${base}/realms/observability/protocol/openid-connect/auth?${new URLSearchParams({ ...common, code_challenge: pkce.verifier, code_challenge_method: 'plain' })}`,
    );
    const plainLocation = new URL(String(plain.headers.get('location')));
    expect(plainLocation.searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses a code exchange with the wrong verifier', async () => {
    const page = await openSignInPage(base);
    const posted = await page.session.follow(
      new URL(formAction(page.html), base).toString(),
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: 'alice@example.com', password: PASSWORD }) },
      isCallback(page.redirectUri),
    );
    const code = codeFromCallback(posted.url, page.state);
    await expect(exchangeCode(base, code, createPkce().verifier, page.redirectUri)).rejects.toThrow(/invalid_grant/);
  });

  it('refuses a redirect address outside the console origin', async () => {
    const page = await openSignInPage(base, { redirectUri: 'https://evil.example.com/' });
    expect(page.response.status).toBe(400);
    expect(page.html).toMatch(/redirect_uri/);
  });

  it('accepts only the registered callback addresses: another page of the console origin is refused', async () => {
    for (const redirectUri of [`${base}/dev/outbox`, `${base}/`, `${base}/projects`, `${base}/auth/`, `${base}/auth?x=1`, `${base}/silent-check-sso.html#x`]) {
      const page = await openSignInPage(base, { redirectUri });
      expect(page.response.status, redirectUri).toBe(400);
      expect(page.html).toMatch(/redirect_uri/);
    }
    for (const redirectUri of [`${base}/auth`, `${base}/silent-check-sso.html`]) {
      const page = await openSignInPage(base, { redirectUri });
      expect(page.response.status, redirectUri).toBe(200);
      expect(page.html).toContain('Sign in');
    }
  });

  it('returns from a logout only to the registered addresses', async () => {
    const tokens = await signIn(base, 'alice@example.com', PASSWORD);
    const logout = (target: string) =>
      tokens.session.request(
        `${base}/realms/observability/protocol/openid-connect/logout?${new URLSearchParams({ client_id: 'console', id_token_hint: tokens.idToken, post_logout_redirect_uri: target })}`,
      );
    for (const target of [`${base}/dev/outbox`, `${base}/projects`, 'https://evil.example.com/']) {
      const page = await logout(target);
      expect(page.status, target).toBe(400);
      expect(await page.text()).toMatch(/post_logout_redirect_uri/);
    }
    for (const target of [base, `${base}/`, `${base}/login`]) expect((await logout(target)).status, target).toBe(200);
  });

  it('signs in silently with prompt=none when the session exists, and returns login_required when not', async () => {
    const first = await signIn(base, 'alice@example.com', PASSWORD);
    const silent = await signIn(base, 'alice@example.com', 'not used', { session: first.session, params: { prompt: 'none' } });
    expect(decodeJwt(silent.accessToken).sub).toBe(decodeJwt(first.accessToken).sub);
    const anonymous = await openSignInPage(base, { params: { prompt: 'none' } });
    expect(anonymous.url.searchParams.get('error')).toBe('login_required');
  });

  it('has tokens the API verifier accepts, and refuses ID, tampered, expired and wrong-audience tokens', async () => {
    const { publicJwks, privateJwks } = await loadOrCreateSigningKeys(platform.db);
    const verify = createAccessTokenVerifier({ issuer: platform.config.issuer, audience: platform.config.apiAudience, publicJwks });
    const tokens = await signIn(base, 'alice@example.com', PASSWORD);
    const claims = await verify(tokens.accessToken);
    expect(claims.email).toBe('alice@example.com');
    expect(claims.organization_id).toBeNull();
    await expect(verify(tokens.idToken)).rejects.toThrow();
    const [h, p, s] = tokens.accessToken.split('.');
    const tampered = { ...decodeJwt(tokens.accessToken), email: 'mallory@example.com' };
    await expect(verify(`${h}.${Buffer.from(JSON.stringify(tampered)).toString('base64url')}.${s}`)).rejects.toThrow();
    expect(p).toBeTruthy();
    const wrongAudience = createAccessTokenVerifier({ issuer: platform.config.issuer, audience: 'https://other.example.com/api', publicJwks });
    await expect(wrongAudience(tokens.accessToken)).rejects.toThrow();
    // An expired token signed with the platform's own key, so only the expiry is wrong.
    const { SignJWT, importJWK } = await import('jose');
    const key = await importJWK(privateJwks[0], 'RS256');
    const expired = await new SignJWT({ ...decodeJwt(tokens.accessToken), exp: Math.floor(Date.now() / 1000) - 60 })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: String(privateJwks[0].kid) })
      .sign(key);
    await expect(verify(expired)).rejects.toThrow(/exp/);
    // The same construction with a valid expiry passes, so the failure above is the expiry alone.
    const fresh = await new SignJWT({ ...decodeJwt(tokens.accessToken), exp: Math.floor(Date.now() / 1000) + 60 })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: String(privateJwks[0].kid) })
      .sign(key);
    await expect(verify(fresh)).resolves.toMatchObject({ email: 'alice@example.com' });
  });

  it('answers userinfo and the Keycloak account endpoint with the bearer token', async () => {
    const tokens = await signIn(base, 'alice@example.com', PASSWORD);
    const auth = { authorization: `Bearer ${tokens.accessToken}`, accept: 'application/json' };
    const account = await fetch(`${base}/realms/observability/account`, { headers: auth });
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ username: 'alice@example.com', email: 'alice@example.com', firstName: 'Test', lastName: 'alice', emailVerified: true });
    const info = await fetch(`${base}/realms/observability/protocol/openid-connect/userinfo`, { headers: auth });
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ sub: decodeJwt(tokens.accessToken).sub, email: 'alice@example.com' });
    const anonymous = await fetch(`${base}/realms/observability/account`, { headers: { accept: 'application/json' } });
    expect(anonymous.status).toBe(401);
    const withIdToken = await fetch(`${base}/realms/observability/account`, { headers: { ...auth, authorization: `Bearer ${tokens.idToken}` } });
    expect(withIdToken.status).toBe(401);
  });
});
