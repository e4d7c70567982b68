// Sessions after a password change (issue 16, item 4) and token revocation (item 5), through the real identity
// endpoints and the API: the other session's access token, refresh token and SSO cookie die, the current one lives;
// a password change needs a recent sign-in; a refresh token revoked at the discovery document's revocation endpoint
// no longer refreshes and its access tokens are refused. On both databases when TEST_DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/postgres';
import { createTokenMinter } from '../support/mint-token';
import { decodeJwt, openSignInPage, refreshTokens, signIn } from '../support/sign-in';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { callApi, createTestUser, PASSWORD } from './fixtures';

const api = (platform: TestPlatform, method: string, path: string, token: string, body?: unknown) => callApi(platform.url, method, path, token, body);

async function revoke(platform: TestPlatform, form: Record<string, string>) {
  const discovery = (await (await fetch(`${platform.config.issuer}/.well-known/openid-configuration`)).json()) as { revocation_endpoint: string };
  const response = await fetch(discovery.revocation_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, text: await response.text() };
}

describe.each(databaseTargets())('sessions and revocation ($kind)', (target) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ seed: false, embedded: target.kind === 'pglite' });
  });
  afterAll(async () => platform?.stop());

  it('a password change ends the other session (access token, refresh token, SSO cookie) and keeps this one', async () => {
    await createTestUser(platform.db, 'two-browsers@example.com');
    const here = await signIn(platform.url, 'two-browsers@example.com', PASSWORD);
    const elsewhere = await signIn(platform.url, 'two-browsers@example.com', PASSWORD);
    expect(decodeJwt(here.accessToken).auth_time).toEqual(expect.any(Number));
    expect((await api(platform, 'GET', 'users/organizations', elsewhere.accessToken)).status).toBe(200);

    const changed = await api(platform, 'PATCH', 'users/password', here.accessToken, { password: 'Changed-Pass1!' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);

    const otherCall = await api(platform, 'GET', 'users/organizations', elsewhere.accessToken);
    expect(otherCall.status).toBe(401);
    expect(otherCall.body.description).toMatch(/sign-in has ended/);
    expect((await refreshTokens(platform.url, elsewhere.refreshToken)).body.error).toBe('invalid_grant');
    const silent = await openSignInPage(platform.url, { session: elsewhere.session, params: { prompt: 'none' } });
    expect(silent.url.searchParams.get('error')).toBe('login_required');

    expect((await api(platform, 'GET', 'users/organizations', here.accessToken)).status).toBe(200);
    const refreshed = await refreshTokens(platform.url, here.refreshToken);
    expect(refreshed.status).toBe(200);
    expect((await api(platform, 'GET', 'users/organizations', refreshed.tokens!.accessToken)).status).toBe(200);
  });

  it('a password change needs a recent sign-in: 401 with a reason, then a fresh login (prompt=login) is accepted', async () => {
    const user = await createTestUser(platform.db, 'stale@example.com');
    const mint = await createTokenMinter(platform.db, platform.config);
    const stale = await mint(user, { authAgeSeconds: 301 });
    const refused = await api(platform, 'PATCH', 'users/password', stale, { password: 'Changed-Pass1!' });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ message: 'Please sign in again', reason: 'reauthentication_required', max_age: 300 });
    const untouched = await signIn(platform.url, 'stale@example.com', PASSWORD);

    // Re-authentication in the same browser session: the login page again, a new auth_time, the same sign-in kept.
    const again = await signIn(platform.url, 'stale@example.com', PASSWORD, { session: untouched.session, params: { prompt: 'login', max_age: '0' } });
    expect(Number(decodeJwt(again.accessToken).auth_time)).toBeGreaterThanOrEqual(Number(decodeJwt(untouched.accessToken).auth_time));
    const accepted = await api(platform, 'PATCH', 'users/password', again.accessToken, { password: 'Changed-Pass1!' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await refreshTokens(platform.url, again.refreshToken)).status).toBe(200);
  });

  it('a refresh token revoked at the revocation endpoint no longer refreshes, and its access tokens are refused', async () => {
    await createTestUser(platform.db, 'revoker@example.com');
    const session = await signIn(platform.url, 'revoker@example.com', PASSWORD);
    const other = await signIn(platform.url, 'revoker@example.com', PASSWORD);
    const revoked = await revoke(platform, { token: session.refreshToken, token_type_hint: 'refresh_token', client_id: 'console' });
    expect(revoked).toEqual({ status: 200, text: '' });
    const refresh = await refreshTokens(platform.url, session.refreshToken);
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
    expect((await api(platform, 'GET', 'users/organizations', session.accessToken)).status).toBe(401);
    // Another sign-in of the same user is untouched.
    expect((await refreshTokens(platform.url, other.refreshToken)).status).toBe(200);
  });

  it('answers the RFC 7009 cases: unknown token 200, no hint works, access token unsupported, bad client 401, no token 400', async () => {
    await createTestUser(platform.db, 'rfc@example.com');
    const session = await signIn(platform.url, 'rfc@example.com', PASSWORD);
    expect((await revoke(platform, { token: 'not-a-token', client_id: 'console' })).status).toBe(200);
    expect((await revoke(platform, { token: session.refreshToken, client_id: 'someone-else' })).status).toBe(401);
    expect((await refreshTokens(platform.url, session.refreshToken)).status).toBe(200);
    const access = await revoke(platform, { token: session.accessToken, client_id: 'console' });
    expect(access.status).toBe(400);
    expect(JSON.parse(access.text).error).toBe('unsupported_token_type');
    expect((await revoke(platform, { client_id: 'console' })).status).toBe(400);
    const fresh = await signIn(platform.url, 'rfc@example.com', PASSWORD);
    expect((await revoke(platform, { token: fresh.refreshToken, client_id: 'console' })).status).toBe(200);
    expect((await refreshTokens(platform.url, fresh.refreshToken)).status).toBe(400);
  });
});
