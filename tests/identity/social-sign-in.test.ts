// Social sign-in (issue 17): the identity server as the relying party of an external OpenID Connect provider. A
// scripted provider (scripted-oidc-provider.ts) breaks one check at a time: state, nonce, issuer, audience,
// signature, expiry; then the linking rules (issuer, subject), the refusal of a password account's email, and the
// local stand-in provider the platform starts by itself. On both databases when TEST_DATABASE_URL names PostgreSQL.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authenticateUser, createUser, findUserByEmail } from '../../server/db/repositories/users-repository';
import { databaseTargets } from '../support/postgres';
import { BrowserSession, codeFromCallback, decodeJwt, exchangeCode, isCallback, openSignInPage } from '../support/sign-in';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { createTestUser } from './fixtures';
import { startScriptedProvider, type ProviderScript, type ScriptedProvider } from './scripted-oidc-provider';

const SOCIAL_BUTTON = /<a class="button secondary social" href="([^"]+)">Continue with ([^<]+)<\/a>/;

type Outcome =
  | { signedIn: true; claims: Record<string, unknown>; session: BrowserSession; callbackUrl: string }
  | { signedIn: false; message: string; status: number; session: BrowserSession; callbackUrl: string };

/** Opens the login page, presses the provider's button and follows the provider's answer back to the platform. */
async function socialSignIn(baseUrl: string): Promise<Outcome> {
  const page = await openSignInPage(baseUrl);
  const button = SOCIAL_BUTTON.exec(page.html);
  if (!button) throw new Error(`No social button on the login page:\n${page.html.slice(0, 400)}`);
  const started = await page.session.request(new URL(button[1].replace(/&amp;/g, '&'), baseUrl).toString());
  expect(started.status).toBe(303);
  const atProvider = await page.session.request(started.headers.get('location')!);
  const callbackUrl = atProvider.headers.get('location')!;
  return finishAt(page, callbackUrl);
}

async function finishAt(page: Awaited<ReturnType<typeof openSignInPage>>, callbackUrl: string, session = page.session): Promise<Outcome> {
  const done = isCallback(page.redirectUri);
  const result = await session.follow(callbackUrl, {}, done);
  if (done(result.url)) {
    const tokens = await exchangeCode(page.session.baseUrl, codeFromCallback(result.url, page.state), page.pkce.verifier, page.redirectUri);
    return { signedIn: true, claims: decodeJwt(tokens.idToken), session, callbackUrl };
  }
  const html = await result.response.text();
  const alert = /<div class="alert" role="alert" id="form-error">([^<]*)<\/div>/.exec(html) ?? /<p class="lead[^"]*" role="alert">([^<]*)<\/p>/.exec(html);
  return { signedIn: false, message: alert ? unescape(alert[1]) : html.slice(0, 300), status: result.response.status, session, callbackUrl };
}

function unescape(text: string): string {
  return text.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

const REFUSED_TOKEN = 'The answer from Scripted could not be verified, so you were not signed in. Please try again.';
const BAD_STATE = 'This sign-in with Scripted could not be matched to this page (it expired or was started elsewhere). Please try again.';

describe.each(databaseTargets())('social sign-in through an external provider ($kind)', (target) => {
  let platform: TestPlatform;
  let provider: ScriptedProvider;
  let counter = 0;
  const script = (extra: Partial<ProviderScript> = {}): ProviderScript => ({ sub: `sub-${++counter}`, email: `person${counter}@example.org`, givenName: 'Pat', familyName: 'Person', ...extra });

  beforeAll(async () => {
    provider = await startScriptedProvider(script());
    platform = await startTestPlatform({
      seed: false,
      embedded: target.kind === 'pglite',
      env: {
        SOCIAL_OIDC_ISSUER: provider.issuer,
        SOCIAL_OIDC_CLIENT_ID: provider.clientId,
        SOCIAL_OIDC_CLIENT_SECRET: provider.clientSecret,
        SOCIAL_OIDC_LABEL: 'Scripted',
      },
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await provider?.close();
  });
  beforeEach(() => {
    provider.refusals.length = 0;
  });

  it('shows the configured button and starts no stand-in when a real provider is configured', async () => {
    const page = await openSignInPage(platform.url);
    expect(SOCIAL_BUTTON.exec(page.html)?.[2]).toBe('Scripted');
    expect(platform.socialStandInUrl).toBeUndefined();
  });

  it('sends PKCE S256, state and nonce, and a first sign-in creates a social account without a password', async () => {
    provider.script = script({ email: 'Fresh.Person@Example.org', givenName: 'Fresh', familyName: 'Person' });
    const outcome = await socialSignIn(platform.url);
    expect(outcome.signedIn).toBe(true);
    expect(provider.refusals).toEqual([]);
    if (!outcome.signedIn) return;
    expect(outcome.claims).toMatchObject({ email: 'Fresh.Person@Example.org', given_name: 'Fresh', family_name: 'Person', connection: 'google-oauth2', email_verified: true });
    const user = (await findUserByEmail(platform.db, 'fresh.person@example.org'))!;
    expect(outcome.claims.sub).toBe(user.id);
    expect(await platform.db.query('SELECT issuer, subject, user_id FROM social_identities WHERE user_id = $1', [user.id])).toEqual([
      { issuer: provider.issuer, subject: provider.script.sub, user_id: user.id },
    ]);
    const [row] = await platform.db.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [user.id]);
    expect(row.password_hash).toBeNull();
    expect(await authenticateUser(platform.db, 'fresh.person@example.org', '')).toBeUndefined();
  });

  it('signs the same (issuer, subject) into the same account, even after the provider changed its email', async () => {
    provider.script = script();
    const first = await socialSignIn(platform.url);
    provider.script = { ...provider.script, email: `changed-${counter}@example.org` };
    const second = await socialSignIn(platform.url);
    expect(first.signedIn && second.signedIn).toBe(true);
    if (!first.signedIn || !second.signedIn) return;
    expect(second.claims.sub).toBe(first.claims.sub);
  });

  it('links by verified email an account that this social connection created (like the seeded social@example.com)', async () => {
    const existing = await createUser(platform.db, { email: 'linked@example.org', givenName: 'Lin', familyName: 'Ked', connection: 'google-oauth2', emailVerified: true });
    provider.script = script({ email: 'linked@example.org' });
    const outcome = await socialSignIn(platform.url);
    expect(outcome.signedIn && outcome.claims.sub).toBe(existing.id);
    // Another subject of the same issuer with that email is someone else: refused, not linked as well.
    provider.script = script({ email: 'linked@example.org' });
    const other = await socialSignIn(platform.url);
    expect(other.signedIn).toBe(false);
    if (!other.signedIn) expect(other.message).toBe('The account with this email address is already linked to another Scripted identity. Please sign in the way you did before.');
    expect(await platform.db.query('SELECT subject FROM social_identities WHERE user_id = $1', [existing.id])).toHaveLength(1);
  });

  it('never takes over an email that belongs to a password account', async () => {
    const owner = await createTestUser(platform.db, 'password-owner@example.org');
    provider.script = script({ email: 'Password-Owner@example.org' });
    const outcome = await socialSignIn(platform.url);
    expect(outcome.signedIn).toBe(false);
    if (!outcome.signedIn) {
      expect(outcome.status).toBe(200);
      expect(outcome.message).toBe('An account with this email address already exists and signs in with its password. Please sign in with your email and password.');
    }
    expect(await platform.db.query('SELECT * FROM social_identities WHERE user_id = $1', [owner.id])).toEqual([]);
    expect((await findUserByEmail(platform.db, 'password-owner@example.org'))?.connection).toBe('Username-Password-Authentication');
  });

  it('refuses an email the provider did not verify, and an id_token without email', async () => {
    provider.script = script({ emailVerified: false });
    const unverified = await socialSignIn(platform.url);
    provider.script = script({ email: undefined });
    const noEmail = await socialSignIn(platform.url);
    for (const outcome of [unverified, noEmail]) {
      expect(outcome.signedIn).toBe(false);
      if (!outcome.signedIn) expect(outcome.message).toBe('Scripted did not confirm your email address, so it cannot be used to sign in here.');
    }
  });

  it('refuses a state that does not match, a replayed callback and a callback opened in another browser', async () => {
    provider.script = script({ tamperState: true });
    const tampered = await socialSignIn(platform.url);
    expect(tampered.signedIn).toBe(false);
    if (!tampered.signedIn) expect(tampered.message).toBe(BAD_STATE);

    provider.script = script();
    const page = await openSignInPage(platform.url);
    const started = await page.session.request(new URL(SOCIAL_BUTTON.exec(page.html)![1].replace(/&amp;/g, '&'), platform.url).toString());
    const callbackUrl = (await page.session.request(started.headers.get('location')!)).headers.get('location')!;
    // Another browser (no interaction cookie) cannot use this answer: a login-CSRF link signs nobody in.
    const elsewhere = await finishAt(page, callbackUrl, new BrowserSession(platform.url));
    expect(elsewhere.signedIn).toBe(false);
    if (!elsewhere.signedIn) expect(elsewhere.message).toBe('This sign-in page has expired. Please start again from the console.');
    const once = await finishAt(page, callbackUrl);
    expect(once.signedIn).toBe(true);

    // The same answer again, in a fresh interaction of the same browser: its state belongs to no sign-in now.
    const again = await openSignInPage(platform.url, { session: page.session });
    expect(again.url.pathname).toBe('/auth'); // already signed in at the identity server: no login page
    const broker = new URL(callbackUrl);
    const foreign = await page.session.follow(broker.toString());
    expect(foreign.response.status).toBe(400);

    // A state that names no interaction at all ends on a clear page, not an error trace.
    const junk = await page.session.follow(`${platform.url}/realms/observability/broker/social/endpoint?state=nonsense&code=x`);
    expect(junk.response.status).toBe(400);
    expect(await junk.response.text()).toContain('does not belong to a sign-in started here');
  });

  it.each([
    ['a wrong issuer', { idTokenIssuer: 'https://impostor.example' }],
    ['a wrong audience', { idTokenAudience: 'someone-else' }],
    ['a signature by a key not in the JWKS', { foreignKey: true }],
    ['a nonce that is not the one sent', { nonce: 'not-the-nonce' }],
    ['an expired id_token', { expiresIn: -3600 }],
  ] as const)('refuses an id_token with %s', async (_name, defect) => {
    provider.script = script(defect);
    const outcome = await socialSignIn(platform.url);
    expect(outcome.signedIn).toBe(false);
    if (!outcome.signedIn) {
      expect(outcome.message).toBe(REFUSED_TOKEN);
      expect(outcome.status).toBe(200);
    }
    expect(await findUserByEmail(platform.db, provider.script.email!)).toBeUndefined();
  });

  it('ends on the login page with a message when the person cancels at the provider or it answers an error', async () => {
    provider.script = script({ error: 'access_denied' });
    const denied = await socialSignIn(platform.url);
    provider.script = script({ error: 'server_error' });
    const failed = await socialSignIn(platform.url);
    expect(denied.signedIn || failed.signedIn).toBe(false);
    if (!denied.signedIn) expect(denied.message).toBe('Sign-in with Scripted was cancelled. Please try again, or sign in with your email and password.');
    if (!failed.signedIn) expect(failed.message).toBe('Scripted could not sign you in. Please try again.');
  });
});

describe('social sign-in through the local stand-in provider the platform starts', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ seed: true, embedded: true });
  });
  afterAll(async () => platform?.stop());

  /** The stand-in's page: type an email and continue (or cancel). */
  async function throughStandIn(email: string, cancel = false): Promise<Outcome> {
    const page = await openSignInPage(platform.url);
    const button = SOCIAL_BUTTON.exec(page.html)!;
    expect(button[2]).toBe('Social stand-in');
    const atStandIn = await page.session.follow(new URL(button[1].replace(/&amp;/g, '&'), platform.url).toString());
    const html = await atStandIn.response.text();
    expect(html).toContain('Local stand-in for an external sign-in provider');
    const action = (cancel ? /formaction="([^"]+)"/ : /<form method="post" action="([^"]+)"/).exec(html)![1];
    const posted = await page.session.request(new URL(action, atStandIn.url).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email }),
    });
    // The stand-in resumes its authorization request, which redirects to the platform's broker endpoint.
    let location = new URL(posted.headers.get('location')!, atStandIn.url);
    while (location.origin !== new URL(platform.url).origin) {
      const hop = await page.session.request(location.toString());
      location = new URL(hop.headers.get('location')!, location);
    }
    return finishAt(page, location.toString());
  }

  it('signs social@example.com into the seeded social account, with no password', async () => {
    expect(platform.socialStandInUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const outcome = await throughStandIn('social@example.com');
    expect(outcome.signedIn).toBe(true);
    if (!outcome.signedIn) return;
    const social = (await findUserByEmail(platform.db, 'social@example.com'))!;
    expect(outcome.claims).toMatchObject({ sub: social.id, email: 'social@example.com', connection: 'google-oauth2', given_name: 'Sam', family_name: 'Social' });
    // The demo password account is not reachable this way.
    const demo = await throughStandIn('demo@example.com');
    expect(demo.signedIn).toBe(false);
  });

  it('ends on the login page when the person cancels at the stand-in', async () => {
    const outcome = await throughStandIn('social@example.com', true);
    expect(outcome.signedIn).toBe(false);
    if (!outcome.signedIn) expect(outcome.message).toBe('Sign-in with Social stand-in was cancelled. Please try again, or sign in with your email and password.');
  });

  it('stops the stand-in with the platform', async () => {
    const standIn = platform.socialStandInUrl!;
    expect((await fetch(`${standIn}/.well-known/openid-configuration`)).ok).toBe(true);
    await platform.stop();
    await expect(fetch(`${standIn}/.well-known/openid-configuration`)).rejects.toThrow();
  });
});
