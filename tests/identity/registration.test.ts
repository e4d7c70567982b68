import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOutbox } from '../../server/adapters/mail/mailer';
import { findUserByEmail } from '../../server/db/repositories/users-repository';
import { codeFromCallback, decodeJwt, exchangeCode, isCallback, openSignInPage, refreshTokens } from '../support/sign-in';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { createTestUser } from './fixtures';

const form = (values: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(values),
});

describe('registration and email verification', () => {
  let platform: TestPlatform;
  let base: string;
  beforeAll(async () => {
    platform = await startTestPlatform({ seed: false });
    base = platform.url;
    await createTestUser(platform.db, 'taken@example.com');
  });
  afterAll(async () => {
    await platform?.stop();
  });

  async function openRegistration() {
    // The registration form of a fresh sign-in interaction (the registrations address is tested on its own).
    const page = await openSignInPage(base);
    const uid = /interaction\/([\w-]+)/.exec(page.url.href)![1];
    const response = await page.session.request(`${base}/realms/observability/interaction/${uid}/register`);
    return { ...page, uid, html: await response.text() };
  }

  it('opens the registration form from the Keycloak registrations address', async () => {
    const page = await openSignInPage(base);
    const authUrl = new URL(page.url.href);
    expect(authUrl.pathname).toMatch(/\/interaction\//);
    const params = new URLSearchParams({
      client_id: 'console',
      redirect_uri: `${base}/auth`,
      response_type: 'code',
      scope: 'openid',
      state: 'x',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const { response } = await page.session.follow(`${base}/realms/observability/protocol/openid-connect/registrations?${params}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Create an account');
    expect(html).toContain('<label for="firstName">First name</label>');
    expect(html).toContain('<label for="passwordConfirm">Confirm password</label>');
  });

  it('enforces the password rules on the server and keeps what was typed', async () => {
    const page = await openRegistration();
    const action = `${base}/realms/observability/interaction/${page.uid}/register`;
    const cases: [string, string][] = [
      ['Ab1!', 'The new password must be at least 8 characters long.'],
      ['ABCDEFG1!', 'The new password must include at least 1 lower case letter.'],
      ['abcdefg1!', 'The new password must include at least 1 upper case letter.'],
      ['Abcdefgh!', 'The new password must include at least 1 number.'],
      ['Abcdefgh1', 'The new password must include at least 1 special character (!@#$%^&amp;*).'],
    ];
    for (const [password, message] of cases) {
      const response = await page.session.request(action, form({ firstName: 'Nia', lastName: 'Lee', email: 'nia@example.com', password, passwordConfirm: password }));
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain(message);
      expect(html).toContain('value="nia@example.com"');
      expect(html).toContain('value="Nia"');
      expect(html).toContain('aria-invalid="true"');
    }
    const mismatch = await page.session.request(action, form({ firstName: 'Nia', lastName: 'Lee', email: 'nia@example.com', password: 'Good1234!', passwordConfirm: 'Good1234?' }));
    expect(await mismatch.text()).toContain('The passwords do not match.');
    const taken = await page.session.request(action, form({ firstName: 'T', lastName: 'K', email: 'TAKEN@example.com', password: 'Good1234!', passwordConfirm: 'Good1234!' }));
    expect(taken.status).toBe(200);
    expect(await taken.text()).toContain('An account with this email address already exists.');
    expect(await findUserByEmail(platform.db, 'nia@example.com')).toBeUndefined();
  });

  it('creates an unverified user, signs them in, mails a single-use link that verifies them', async () => {
    const page = await openRegistration();
    const posted = await page.session.follow(
      `${base}/realms/observability/interaction/${page.uid}/register`,
      form({ firstName: 'Ravi', lastName: 'Shah', email: 'ravi@example.com', password: 'Good1234!', passwordConfirm: 'Good1234!' }),
      isCallback(page.redirectUri),
    );
    const tokens = await exchangeCode(base, codeFromCallback(posted.url, page.state), page.pkce.verifier, page.redirectUri);
    const claims = decodeJwt(tokens.accessToken);
    expect(claims).toMatchObject({ email: 'ravi@example.com', given_name: 'Ravi', family_name: 'Shah', email_verified: false });

    const mail = (await listOutbox(platform.db)).find((m) => m.to_address === 'ravi@example.com');
    expect(mail?.subject).toBe('Verify your email address');
    const link = /https?:\/\/\S+verify-email\?token=\S+/.exec(mail!.text_body)![0];
    expect(link.startsWith(`${base}/realms/observability/verify-email?token=`)).toBe(true);

    const outbox = await (await fetch(`${base}/dev/outbox?key=${platform.config.devPagesKey}`)).text();
    expect(outbox).toContain('ravi@example.com');
    expect(outbox).toContain(`<a href="${link.replace(/&/g, '&amp;')}">`);

    const verified = await fetch(link);
    expect(verified.status).toBe(200);
    const html = await verified.text();
    expect(html).toContain('Email verified');
    expect(html).toContain(`href="${base}/"`);
    expect((await findUserByEmail(platform.db, 'ravi@example.com'))?.email_verified).toBe(true);

    const again = await fetch(link);
    expect(await again.text()).toContain('already used');
    const bogus = await fetch(`${base}/realms/observability/verify-email?token=nope`);
    expect(bogus.status).toBe(400);

    const refreshed = await refreshTokens(base, tokens.refreshToken);
    expect(decodeJwt(refreshed.tokens!.accessToken).email_verified).toBe(true);
    expect(decodeJwt(refreshed.tokens!.idToken).email_verified).toBe(true);
  });

  it('refuses an expired verification link', async () => {
    const page = await openRegistration();
    await page.session.follow(
      `${base}/realms/observability/interaction/${page.uid}/register`,
      form({ firstName: 'Old', lastName: 'Link', email: 'old@example.com', password: 'Good1234!', passwordConfirm: 'Good1234!' }),
      isCallback(page.redirectUri),
    );
    const mail = (await listOutbox(platform.db)).find((m) => m.to_address === 'old@example.com')!;
    await platform.db.query(
      "UPDATE email_verification_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = (SELECT id FROM users WHERE email = 'old@example.com')",
    );
    const link = /https?:\/\/\S+verify-email\?token=\S+/.exec(mail.text_body)![0];
    const response = await fetch(link);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('expired');
    expect((await findUserByEmail(platform.db, 'old@example.com'))?.email_verified).toBe(false);
  });
});
