import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { refreshTokens, signIn } from '../support/sign-in';

// The API with tokens from the real identity server (login page, code + PKCE, refresh into an organization), not
// minted ones: proves the API accepts exactly what the console will send it.
describe('API with tokens from the real sign-in flow', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => platform?.stop());

  const get = (path: string, token: string) => fetch(`${platform.url}/api/${path}`, { headers: { authorization: `Bearer ${token}` } });

  it('personal mode, then organization mode after a refresh with organization_id', async () => {
    const tokens = await signIn(platform.url, 'demo@example.com', 'Demo1234!');
    const personal = await get('projects/', tokens.accessToken);
    expect(personal.status).toBe(200);
    expect(((await personal.json()) as { name: string }[]).map((p) => p.name)).toEqual(['Personal Sandbox']);

    const orgs = (await (await get('users/organizations', tokens.accessToken)).json()) as { id: number; name: string }[];
    const acme = orgs.find((o) => o.name === 'Acme')!;
    const refreshed = await refreshTokens(platform.url, tokens.refreshToken, acme.id);
    expect(refreshed.status).toBe(200);
    const inOrg = await get('projects/', refreshed.tokens!.accessToken);
    expect(((await inOrg.json()) as { name: string }[]).map((p) => p.name)).toEqual(['Acme Production', 'Acme Staging']);
    expect((await get('organizations/users', refreshed.tokens!.accessToken)).status).toBe(200);
  });

  it('the ID token is not accepted as an access token', async () => {
    const tokens = await signIn(platform.url, 'viewer@example.com', 'Demo1234!');
    expect((await get('projects/', tokens.idToken)).status).toBe(401);
    expect((await get('projects/', tokens.accessToken)).status).toBe(200);
  });
});
