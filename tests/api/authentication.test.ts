import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, generateKeyPair } from 'jose';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';

// Every protected call answers 401 {message, description} for each kind of bad credential; public calls do not.
const PROTECTED: [string, string][] = [
  ['GET', 'billing/current'],
  ['GET', 'stripe/billing-account-id?name=x'],
  ['POST', 'billing/'],
  ['POST', 'billing/payment-methods/setup'],
  ['POST', 'billing/payment-methods/attach'],
  ['POST', 'billing/tax-id'],
  ['GET', 'organizations/users'],
  ['GET', 'organizations/invitations'],
  ['GET', 'organizations/trial'],
  ['GET', 'organizations/users/owner'],
  ['POST', 'organizations/'],
  ['POST', 'organizations/invitations'],
  ['PATCH', 'organizations/invitations'],
  ['POST', 'organizations/invitations/1/resend'],
  ['DELETE', 'organizations/invites?invite_id=1'],
  ['DELETE', 'organizations/user/00000000-0000-0000-0000-000000000000'],
  ['POST', 'organizations/invitations/accept?code=x'],
  ['GET', 'users/promote?user_id=x&read_only=true&organization_id=1'],
  ['GET', 'projects/'],
  ['POST', 'projects/'],
  ['POST', 'projects/users'],
  ['GET', 'projects/users?project_id=1'],
  ['DELETE', 'projects?project_id=1'],
  ['GET', 'users/organizations'],
  ['PATCH', 'users'],
  ['POST', 'users/resend-verification'],
  ['PATCH', 'users/password'],
  ['DELETE', 'users'],
  ['GET', 'products'],
  ['GET', 'users/products'],
  ['GET', 'integrations/?project_id=1'],
  ['GET', 'integrations/qryn/trial?project_id=1'],
  ['GET', 'integrations/status'],
  ['GET', 'integrations/qryn/cancellation?project_id=1'],
  ['POST', 'payments/local/setup-intents/seti_x/confirm'],
];

describe.each(databaseTargets())('authentication ($kind)', (target) => {
  let api: ApiHarness;
  const bad: Record<string, string> = {};

  beforeAll(async () => {
    api = await startApi(target);
    const demo = await api.user('demo@example.com');
    bad.expired = await api.mint(demo, { expiresIn: -60 });
    bad.wrongAudience = await api.mint(demo, { audience: 'https://other.example/api' });
    bad.wrongIssuer = await api.mint(demo, { issuer: 'https://evil.example/realms/observability' });
    bad.idToken = await api.mint(demo, { typ: 'JWT' });
    const foreign = await generateKeyPair('RS256');
    bad.foreignKey = await new SignJWT({ email: demo.email })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' })
      .setIssuer(api.config.issuer)
      .setAudience(api.config.apiAudience)
      .setSubject(demo.id)
      .setExpirationTime('5m')
      .sign(foreign.privateKey);
    bad.malformed = 'not.a.jwt';
  });
  afterAll(async () => api?.close());

  const call = (method: string, pathWithQuery: string, headers: Record<string, string>) => {
    const [path, search] = pathWithQuery.split('?');
    const query = Object.fromEntries(new URLSearchParams(search ?? ''));
    return api.request(method, path, { headers, query, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
  };

  it.each(PROTECTED)('%s %s without a token is 401', async (method, path) => {
    const response = await call(method, path, {});
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ message: 'Unauthorized', description: expect.any(String) });
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each(['expired', 'wrongAudience', 'wrongIssuer', 'idToken', 'foreignKey', 'malformed'])('a %s token is 401 on every protected call', async (kind) => {
    for (const [method, path] of PROTECTED) {
      const response = await call(method, path, { authorization: `Bearer ${bad[kind]}` });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });

  it('a header that is not "Bearer <token>" is 401', async () => {
    const token = await api.tokenFor('demo@example.com');
    for (const header of [`Basic ${token}`, 'Bearer', `Bearer ${token} extra`]) {
      expect((await call('GET', 'projects/', { authorization: header })).status).toBe(401);
    }
  });

  it('telemetry and stripe/config need no token', async () => {
    expect((await api.request('POST', 'telemetry', { body: { events: [] } })).status).toBe(202);
    expect((await api.request('GET', 'stripe/config')).status).toBe(200);
  });

  it('a valid token is accepted, and unknown paths and methods are 404/405 JSON errors', async () => {
    const token = await api.tokenFor('demo@example.com');
    expect((await api.request('GET', 'projects/', { token })).status).toBe(200);
    const unknown = await api.request('GET', 'no/such/call', { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ message: 'Not found', description: expect.any(String) });
    const wrongMethod = await api.request('PUT', 'projects/', { token });
    expect(wrongMethod.status).toBe(405);
  });
});
