// A changed password changes the sign-in at the real login page, and ends the user's other sessions (their refresh
// tokens stop working) while the session that changed it stays. A deleted account cannot sign in again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens, signIn } from '../support/sign-in';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { callApi, createTestUser, PASSWORD } from './fixtures';

const NEW_PASSWORD = 'Changed-Pass1!';

const api = (platform: TestPlatform, method: string, path: string, token: string, body?: unknown) => callApi(platform.url, method, path, token, body);

describe('password change and account deletion at the identity server', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ seed: false });
  });
  afterAll(async () => platform?.stop());

  it('old password refused, new one works, other sessions ended, the current one kept', async () => {
    await createTestUser(platform.db, 'changer@example.com');
    const here = await signIn(platform.url, 'changer@example.com', PASSWORD);
    const elsewhere = await signIn(platform.url, 'changer@example.com', PASSWORD);

    const weak = await api(platform, 'PATCH', 'users/password', here.accessToken, { password: 'alllowercase1!' });
    expect(weak.status).toBe(422);
    expect(weak.body.details).toEqual({ password: ['The new password must include at least 1 upper case letter.'] });

    const changed = await api(platform, 'PATCH', 'users/password', here.accessToken, { password: NEW_PASSWORD });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);

    const other = await refreshTokens(platform.url, elsewhere.refreshToken);
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('invalid_grant');
    const current = await refreshTokens(platform.url, here.refreshToken);
    expect(current.status).toBe(200);

    await expect(signIn(platform.url, 'changer@example.com', PASSWORD)).rejects.toThrow(/Sign-in of changer@example.com failed/);
    const again = await signIn(platform.url, 'changer@example.com', NEW_PASSWORD);
    expect(again.accessToken).toBeTruthy();
  });

  it('a deleted account is signed out everywhere and cannot sign in again', async () => {
    const leaver = await createTestUser(platform.db, 'leaver@example.com');
    const session = await signIn(platform.url, 'leaver@example.com', PASSWORD);
    const deleted = await api(platform, 'DELETE', 'users', session.accessToken);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect((await refreshTokens(platform.url, session.refreshToken)).status).toBe(400);
    await expect(signIn(platform.url, 'leaver@example.com', PASSWORD)).rejects.toThrow(/failed/);
    expect(await platform.db.query("SELECT model FROM oidc_models WHERE payload->>'accountId' = $1", [leaver.id])).toEqual([]);
  });
});
