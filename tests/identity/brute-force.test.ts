// Brute-force protection of the real login form (issue 16, item 1): failures per account and per address, a growing
// wait, a lockout, the same message for existing and unknown accounts, state in the database (a restart keeps it),
// and a successful sign-in clearing it. On both databases when TEST_DATABASE_URL names a PostgreSQL server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/postgres';
import { formAction, isCallback, openSignInPage } from '../support/sign-in';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { createTestUser, PASSWORD } from './fixtures';

const INVALID = 'Invalid email or password.';
const WAIT = /Too many failed sign-in attempts\. Please wait (\d+) (seconds?|minutes) before trying again\./;

/** One submission of the login page; 'signed-in' when it led back to the console with a code. */
async function attempt(baseUrl: string, email: string, password: string): Promise<string> {
  const page = await openSignInPage(baseUrl);
  const done = isCallback(page.redirectUri);
  const posted = await page.session.follow(
    new URL(formAction(page.html), baseUrl).toString(),
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email, password }) },
    done,
  );
  if (done(posted.url)) return 'signed-in';
  const html = await posted.response.text();
  const alert = /<div class="alert" role="alert" id="form-error">([^<]*)<\/div>/.exec(html);
  return alert ? alert[1] : html.slice(0, 200);
}

/** Lets time pass for the waits (the clock is the database's). */
async function endWaits(platform: TestPlatform) {
  await platform.db.query('UPDATE sign_in_failures SET wait_until = now() WHERE wait_until IS NOT NULL');
}

describe.each(databaseTargets())('brute-force protection of the login form ($kind)', (target) => {
  let platform: TestPlatform;
  const env = { BRUTE_FORCE_FREE_FAILURES: '3', BRUTE_FORCE_WAIT_INCREMENT_SECONDS: '5', BRUTE_FORCE_MAX_WAIT_SECONDS: '60', BRUTE_FORCE_LOCKOUT_FAILURES: '6', BRUTE_FORCE_LOCKOUT_SECONDS: '900', BRUTE_FORCE_ADDRESS_FACTOR: '4' };
  beforeAll(async () => {
    platform = await startTestPlatform({ seed: false, embedded: target.kind === 'pglite', env });
  });
  afterAll(async () => platform?.stop());

  it('refuses the run after the threshold, then even the right password waits; a success clears the count', async () => {
    await createTestUser(platform.db, 'target@example.com');
    for (let i = 0; i < 3; i++) expect(await attempt(platform.url, 'target@example.com', `wrong-${i}`)).toBe(INVALID);
    // The 4th failure starts a 5 s wait, and the page says so.
    expect(await attempt(platform.url, 'target@example.com', 'wrong-3')).toMatch(/Please wait 5 seconds/);
    // During the wait the right password is refused too (it is not even checked).
    expect(await attempt(platform.url, 'Target@Example.com', PASSWORD)).toMatch(WAIT);
    await endWaits(platform);
    expect(await attempt(platform.url, 'target@example.com', PASSWORD)).toBe('signed-in');
    expect(await platform.db.query("SELECT * FROM sign_in_failures WHERE subject = 'account:target@example.com'")).toEqual([]);
    // Cleared: three free failures again.
    expect(await attempt(platform.url, 'target@example.com', 'wrong')).toBe(INVALID);
    await platform.db.query('DELETE FROM sign_in_failures');
  });

  it('treats an unknown account exactly like an existing one', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) seen.push(await attempt(platform.url, 'nobody@example.com', `wrong-${i}`));
    expect(seen.slice(0, 3)).toEqual([INVALID, INVALID, INVALID]);
    expect(seen[3]).toMatch(/Please wait 5 seconds/);
    expect(seen[4]).toMatch(WAIT);
    await platform.db.query('DELETE FROM sign_in_failures');
  });

  it('grows the wait with each failure and locks the account after many', async () => {
    await createTestUser(platform.db, 'locked@example.com');
    const waits: string[] = [];
    for (let i = 0; i < 6; i++) {
      waits.push(await attempt(platform.url, 'locked@example.com', `wrong-${i}`));
      await endWaits(platform);
    }
    expect(waits.slice(0, 3)).toEqual([INVALID, INVALID, INVALID]);
    expect(waits[3]).toMatch(/wait 5 seconds/);
    expect(waits[4]).toMatch(/wait 10 seconds/);
    expect(waits[5]).toMatch(/wait 15 minutes/);
    const [row] = await platform.db.query<{ failures: number }>("SELECT failures FROM sign_in_failures WHERE subject = 'account:locked@example.com'");
    expect(row.failures).toBe(6);
    await platform.db.query('DELETE FROM sign_in_failures');
  });

  it('counts failures per client address across accounts', async () => {
    // Address thresholds are the account's times BRUTE_FORCE_ADDRESS_FACTOR (4): 12 free failures.
    const seen: string[] = [];
    for (let i = 0; i < 13; i++) seen.push(await attempt(platform.url, `spray-${i}@example.com`, 'Guess1234!'));
    expect(seen.slice(0, 12).every((s) => s === INVALID)).toBe(true);
    expect(seen[12]).toMatch(/Please wait 5 seconds/);
    expect(await attempt(platform.url, 'spray-new@example.com', 'Guess1234!')).toMatch(WAIT);
    await platform.db.query('DELETE FROM sign_in_failures');
  });

  it('counts a burst of parallel guesses (each is counted before its password is checked)', async () => {
    await createTestUser(platform.db, 'burst@example.com');
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(platform.url, 'burst@example.com', `wrong-${i}`)));
    expect(results.filter((r) => r === INVALID).length).toBeLessThanOrEqual(3);
    const [row] = await platform.db.query<{ failures: number }>("SELECT failures FROM sign_in_failures WHERE subject = 'account:burst@example.com'");
    expect(row.failures).toBeGreaterThanOrEqual(4);
    await platform.db.query('DELETE FROM sign_in_failures');
  });
});

describe('brute-force state survives a restart (embedded database)', () => {
  it('a wait started before the restart still applies after it', async () => {
    const env = { BRUTE_FORCE_FREE_FAILURES: '1' };
    const first = await startTestPlatform({ seed: false, embedded: true, env });
    try {
      await createTestUser(first.db, 'restart@example.com');
      expect(await attempt(first.url, 'restart@example.com', 'wrong')).toBe(INVALID);
      expect(await attempt(first.url, 'restart@example.com', 'wrong')).toMatch(WAIT);
      await first.stopKeepingData();
      const second = await startTestPlatform({ seed: false, embedded: true, env, dataDir: first.dataDir });
      try {
        expect(await attempt(second.url, 'restart@example.com', PASSWORD)).toMatch(WAIT);
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
    }
  });
});
