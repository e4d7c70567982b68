// Identity-server inputs that used to give 500 (issue 16, item 6) and the https hardening of item 9: an oversize
// registration form is 413, an organization_id beyond the integer range is invalid_request, a plain-http request to
// an https PUBLIC_URL is sent to https, and every answer of an https platform carries Strict-Transport-Security.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formAction, openSignInPage, signIn } from '../support/sign-in';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { createTestUser, PASSWORD } from './fixtures';

describe('hostile input at the identity server', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ seed: false });
  });
  afterAll(async () => platform?.stop());

  it('a registration form over 16 KiB is 413 with a page, not 500', async () => {
    const page = await openSignInPage(platform.url, { params: { screen_hint: 'signup' } });
    const action = new URL(formAction(page.html).replace('/login', '/register'), platform.url).toString();
    const response = await page.session.request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ firstName: 'x'.repeat(20_000), lastName: 'y', email: 'big@example.com', password: PASSWORD, passwordConfirm: PASSWORD }),
    });
    expect(response.status).toBe(413);
    expect(await response.text()).toContain('Form too large');
  });

  it('organization_id beyond the integer range is invalid_request, and the refresh token stays usable', async () => {
    await createTestUser(platform.db, 'range@example.com');
    const tokens = await signIn(platform.url, 'range@example.com', PASSWORD);
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken, client_id: 'console', organization_id: '2147483648' });
    const response = await fetch(`${platform.url}/realms/observability/protocol/openid-connect/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_request');
    form.set('organization_id', 'personal');
    const again = await fetch(`${platform.url}/realms/observability/protocol/openid-connect/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    expect(again.status).toBe(200);
  });
});

describe('an https PUBLIC_URL reached over plain http', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ seed: false, env: { PUBLIC_URL: 'https://console.example.test' } });
  });
  afterAll(async () => platform?.stop());

  it('sends page loads to https and refuses other methods with 400, never 500; HSTS on every answer', async () => {
    const local = `http://127.0.0.1:${platform.port}`;
    const page = await fetch(`${local}/realms/observability/protocol/openid-connect/auth?client_id=console`, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('https://console.example.test/realms/observability/protocol/openid-connect/auth?client_id=console');
    expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const post = await fetch(`${local}/realms/observability/protocol/openid-connect/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token' }) });
    expect(post.status).toBe(400);
    // Behind the load balancer (X-Forwarded-Proto: https) the provider answers.
    const discovery = await fetch(`${local}/realms/observability/.well-known/openid-configuration`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(discovery.status).toBe(200);
    expect((await fetch(`${local}/healthz`)).headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });
});
