// Logout by a plain GET without id_token_hint asks for confirmation (issue 16, item 9); with the console's hint it
// signs out at once (the auto-submitted form), as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formAction, refreshTokens, signIn } from '../support/sign-in';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { createTestUser, PASSWORD } from './fixtures';

describe('logout confirmation', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ seed: false });
  });
  afterAll(async () => platform?.stop());

  it('a GET without id_token_hint shows a confirmation, signs out only when confirmed', async () => {
    await createTestUser(platform.db, 'confirm@example.com');
    const tokens = await signIn(platform.url, 'confirm@example.com', PASSWORD);
    const page = await tokens.session.request(`${platform.url}/realms/observability/protocol/openid-connect/logout`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Sign out?');
    expect(html).not.toContain('resources/logout.js');
    // Merely loading the page changed nothing.
    expect((await refreshTokens(platform.url, tokens.refreshToken)).status).toBe(200);
  });

  it('with the console id token as hint the page submits itself (no question)', async () => {
    await createTestUser(platform.db, 'hinted@example.com');
    const tokens = await signIn(platform.url, 'hinted@example.com', PASSWORD);
    const url = `${platform.url}/realms/observability/protocol/openid-connect/logout?${new URLSearchParams({ client_id: 'console', id_token_hint: tokens.idToken, post_logout_redirect_uri: `${platform.url}/` })}`;
    const html = await (await tokens.session.request(url)).text();
    expect(html).toContain('resources/logout.js');
    expect(html).not.toContain('Sign out?');
    const done = await tokens.session.request(new URL(formAction(html), platform.url).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]])),
    });
    expect(done.status).toBe(303);
    expect((await refreshTokens(platform.url, tokens.refreshToken)).status).toBe(400);
  });
});
