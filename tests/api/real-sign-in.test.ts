import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { decodeJwt, decodeJwtHeader, refreshTokens, signIn } from '../support/sign-in';
import { createTokenMinter } from '../support/mint-token';
import { findUserByEmail } from '../../server/db/repositories/users-repository';

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

  it('tokens minted by tests/support/mint-token carry the same header and claims as real ones', async () => {
    const tokens = await signIn(platform.url, 'dev@example.com', 'Demo1234!');
    const mint = await createTokenMinter(platform.db, platform.config);
    const minted = await mint((await findUserByEmail(platform.db, 'dev@example.com'))!);
    const real = decodeJwt(tokens.accessToken);
    const ours = decodeJwt(minted);
    expect(Object.keys(ours).sort()).toEqual(Object.keys(real).sort());
    for (const claim of ['iss', 'aud', 'sub', 'email', 'given_name', 'family_name', 'email_verified', 'connection']) {
      expect(ours[claim], claim).toEqual(real[claim]);
    }
    expect({ alg: decodeJwtHeader(minted).alg, typ: decodeJwtHeader(minted).typ }).toEqual({ alg: decodeJwtHeader(tokens.accessToken).alg, typ: decodeJwtHeader(tokens.accessToken).typ });
  });

  it('the ID token is not accepted as an access token', async () => {
    const tokens = await signIn(platform.url, 'viewer@example.com', 'Demo1234!');
    expect((await get('projects/', tokens.idToken)).status).toBe(401);
    expect((await get('projects/', tokens.accessToken)).status).toBe(200);
  });
});
