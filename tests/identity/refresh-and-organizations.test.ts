import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, formAction, refreshTokens, signIn } from '../support/sign-in';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { createOrganization, createTestUser, PASSWORD } from './fixtures';

describe('refresh tokens and the organization switch', () => {
  let platform: TestPlatform;
  let base: string;
  let acme: number;
  let other: number;
  beforeAll(async () => {
    platform = await startTestPlatform({ seed: false });
    base = platform.url;
    const owner = await createTestUser(platform.db, 'owner@example.com');
    const member = await createTestUser(platform.db, 'member@example.com');
    const stranger = await createTestUser(platform.db, 'stranger@example.com');
    acme = await createOrganization(platform.db, owner, 'Acme', [member]);
    other = await createOrganization(platform.db, stranger, 'Other');
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('rotates the refresh token, and a replayed one fails and revokes the whole chain', async () => {
    const first = await signIn(base, 'member@example.com', PASSWORD);
    const second = await refreshTokens(base, first.refreshToken);
    expect(second.status).toBe(200);
    expect(second.tokens!.refreshToken).not.toBe(first.refreshToken);
    expect(decodeJwt(second.tokens!.accessToken).email).toBe('member@example.com');

    const replay = await refreshTokens(base, first.refreshToken);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    // Reuse detection: the newest token of the chain is dead too.
    const afterReplay = await refreshTokens(base, second.tokens!.refreshToken);
    expect(afterReplay.status).toBe(400);
    expect(afterReplay.body.error).toBe('invalid_grant');
  });

  it('switches to an organization of which the user is a member, keeps it on plain refresh, and returns to personal', async () => {
    const start = await signIn(base, 'member@example.com', PASSWORD);
    expect(decodeJwt(start.accessToken)).not.toHaveProperty('organization_id');

    const switched = await refreshTokens(base, start.refreshToken, acme);
    expect(switched.status).toBe(200);
    expect(decodeJwt(switched.tokens!.accessToken).organization_id).toBe(acme);
    expect(decodeJwt(switched.tokens!.idToken).organization_id).toBe(acme);

    const plain = await refreshTokens(base, switched.tokens!.refreshToken);
    expect(plain.status).toBe(200);
    expect(decodeJwt(plain.tokens!.accessToken).organization_id).toBe(acme);

    const personal = await refreshTokens(base, plain.tokens!.refreshToken, 'personal');
    expect(personal.status).toBe(200);
    expect(decodeJwt(personal.tokens!.accessToken)).not.toHaveProperty('organization_id');
    const stillPersonal = await refreshTokens(base, personal.tokens!.refreshToken);
    expect(decodeJwt(stillPersonal.tokens!.accessToken)).not.toHaveProperty('organization_id');
    const emptyMeansPersonal = await refreshTokens(base, (await refreshTokens(base, stillPersonal.tokens!.refreshToken, acme)).tokens!.refreshToken, '');
    expect(decodeJwt(emptyMeansPersonal.tokens!.accessToken)).not.toHaveProperty('organization_id');
  });

  it('accepts organization_id in the query string as well', async () => {
    const start = await signIn(base, 'member@example.com', PASSWORD);
    const response = await fetch(`${base}/realms/observability/protocol/openid-connect/token?organization_id=${acme}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: start.refreshToken, client_id: 'console' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string };
    expect(decodeJwt(body.access_token).organization_id).toBe(acme);
  });

  it('refuses a switch to an organization the user is not a member of, leaving the refresh token usable', async () => {
    const start = await signIn(base, 'member@example.com', PASSWORD);
    const refused = await refreshTokens(base, start.refreshToken, other);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    expect(refused.body.error_description).toBe('You are not a member of this organization.');
    const missing = await refreshTokens(base, start.refreshToken, 999999);
    expect(missing.status).toBe(400);
    const garbage = await refreshTokens(base, start.refreshToken, 'abc');
    expect(garbage.body.error).toBe('invalid_request');
    // Not consumed: the same token still refreshes (and it was not treated as a replay).
    const still = await refreshTokens(base, start.refreshToken);
    expect(still.status).toBe(200);
  });

  it('drops the organization on refresh once the user was removed from it', async () => {
    const start = await signIn(base, 'member@example.com', PASSWORD);
    const switched = await refreshTokens(base, start.refreshToken, acme);
    const member = await platform.db.query<{ id: string }>("SELECT id FROM users WHERE email = 'member@example.com'");
    await platform.db.query('DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2', [acme, member[0].id]);
    try {
      const after = await refreshTokens(base, switched.tokens!.refreshToken);
      expect(after.status).toBe(200);
      expect(decodeJwt(after.tokens!.accessToken)).not.toHaveProperty('organization_id');
    } finally {
      await platform.db.query('INSERT INTO organization_members (organization_id, user_id) VALUES ($1, $2)', [acme, member[0].id]);
    }
  });

  it('ends the session on logout: the refresh token stops working and the next sign-in asks for the password', async () => {
    const tokens = await signIn(base, 'owner@example.com', PASSWORD);
    const { session } = tokens;
    const logoutUrl = `${base}/realms/observability/protocol/openid-connect/logout?${new URLSearchParams({
      client_id: 'console',
      post_logout_redirect_uri: `${base}/login`,
      id_token_hint: tokens.idToken,
    })}`;
    const page = await session.request(logoutUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('id="logout-form"');
    expect(html).toContain('resources/logout.js');
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    const done = await session.request(new URL(formAction(html), base).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]])),
    });
    expect(done.status).toBe(303);
    const afterLogout = await session.follow(String(done.headers.get('location')), {}, (l) => l.pathname === '/login');
    expect(afterLogout.url.pathname).toBe('/login');
    expect((await refreshTokens(base, tokens.refreshToken)).status).toBe(400);
    // The browser session is gone: a silent sign-in now needs a login.
    await expect(signIn(base, 'owner@example.com', 'ignored', { session, params: { prompt: 'none' } })).rejects.toThrow(/login_required/);
  });
});

describe('restart', () => {
  it('keeps a refresh token valid across a restart on the same data', async () => {
    const first = await startTestPlatform({ seed: false });
    let second: TestPlatform | undefined;
    try {
      await createTestUser(first.db, 'restart@example.com');
      const tokens = await signIn(first.url, 'restart@example.com', PASSWORD);
      await first.stopKeepingData();
      second = await startTestPlatform({ seed: false, dataDir: first.dataDir, databaseUrl: first.databaseUrl, port: first.port });
      const refreshed = await refreshTokens(second.url, tokens.refreshToken);
      expect(refreshed.status).toBe(200);
      // Same session cookie works too: cookie keys are kept in the database.
      const silent = await signIn(second.url, 'restart@example.com', 'ignored', { session: tokens.session, params: { prompt: 'none' } });
      expect(decodeJwt(silent.accessToken).email).toBe('restart@example.com');
    } finally {
      await second?.stopKeepingData();
      await first.stop();
    }
  });
});
