// Issue 25: an unknown email and a wrong password answer the same way at the login page: the same status, the same
// page (the message included), nothing that tells whether the email has an account. The cost of the check (one
// scrypt either way) is tested in tests/unit/password-check-cost.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formAction, isCallback, openSignInPage } from '../support/sign-in';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { createTestUser } from './fixtures';

async function answer(baseUrl: string, email: string, password: string): Promise<{ status: number; page: string }> {
  const page = await openSignInPage(baseUrl);
  const posted = await page.session.follow(
    new URL(formAction(page.html), baseUrl).toString(),
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email, password }) },
    isCallback(page.redirectUri),
  );
  const html = await posted.response.text();
  // The interaction's own id and the per-answer nonce differ on every page; the email is echoed as typed.
  const normalized = html.replace(/\/interaction\/[A-Za-z0-9_-]+\//g, '/interaction/{uid}/').replace(/nonce-[A-Za-z0-9+/=_-]+/g, 'nonce-{n}').replace(/nonce="[^"]*"/g, 'nonce="{n}"').replaceAll(email, '{email}');
  return { status: posted.response.status, page: normalized };
}

describe('login answers for an unknown email and a wrong password', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ seed: false, embedded: true, env: { BRUTE_FORCE_FREE_FAILURES: '50' } });
    await createTestUser(platform.db, 'member@example.com');
  });
  afterAll(async () => platform?.stop());

  it('are the same status and the same page, with the one message', async () => {
    const wrongPassword = await answer(platform.url, 'member@example.com', 'Not-the-password1!');
    const unknownEmail = await answer(platform.url, 'stranger@example.com', 'Not-the-password1!');
    expect(wrongPassword.page).toContain('Invalid email or password.');
    expect(unknownEmail.status).toBe(wrongPassword.status);
    expect(unknownEmail.page).toBe(wrongPassword.page);
  });
});
