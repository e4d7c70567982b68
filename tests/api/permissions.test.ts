import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import { createProject } from '../../server/db/repositories/projects-repository';
import { addMember } from '../../server/db/repositories/organizations-repository';
import { createInvitation } from '../../server/db/repositories/invitations-repository';
import { createUser } from '../../server/db/repositories/users-repository';

// Who may call what: one row per call, one expected status per role. Destructive calls get a fresh target per
// role, so every cell is judged on its own.
type Role = 'anonymous' | 'personal' | 'owner' | 'readWrite' | 'readOnly' | 'nonMember';
const ROLES: Role[] = ['anonymous', 'personal', 'owner', 'readWrite', 'readOnly', 'nonMember'];

interface Fixture {
  api: ApiHarness;
  acmeId: number;
  productionId: number;
  acmeBillingId: number;
}

interface Row {
  call: string;
  request: (f: Fixture) => Promise<{ method: string; path: string; query?: Record<string, string | number>; body?: unknown }>;
  expected: Record<Role, number>;
}

let counter = 0;
const freshOrgProject = async (f: Fixture) =>
  (await createProject(f.api.db, { name: `Fresh ${++counter}`, organizationId: f.acmeId, userId: (await f.api.user('demo@example.com')).id, billingAccountId: null })).id;
const freshMember = async (f: Fixture) => {
  const user = await createUser(f.api.db, { email: `member${++counter}@example.com`, givenName: 'M', familyName: String(counter), emailVerified: true });
  await addMember(f.api.db, { organizationId: f.acmeId, userId: user.id, readOnly: false, projectIds: [] });
  return user.id;
};
const freshInvite = async (f: Fixture) =>
  (await createInvitation(f.api.db, { organizationId: f.acmeId, email: `inv${++counter}@example.com`, invitingUserId: (await f.api.user('demo@example.com')).id, readOnly: false, projectIds: [] })).id;

const all = (anonymous: number, personal: number, owner: number, readWrite: number, readOnly: number, nonMember: number): Record<Role, number> => ({
  anonymous,
  personal,
  owner,
  readWrite,
  readOnly,
  nonMember,
});

const ROWS: Row[] = [
  { call: 'GET projects/', request: async () => ({ method: 'GET', path: 'projects/' }), expected: all(401, 200, 200, 200, 200, 403) },
  { call: 'POST projects/', request: async () => ({ method: 'POST', path: 'projects/', body: { name: 'Matrix project' } }), expected: all(401, 201, 201, 201, 403, 403) },
  { call: 'GET projects/users', request: async (f) => ({ method: 'GET', path: 'projects/users', query: { project_id: f.productionId } }), expected: all(401, 404, 200, 200, 200, 403) },
  {
    call: 'POST projects/users',
    request: async (f) => ({ method: 'POST', path: 'projects/users', body: { user_id: (await f.api.user('viewer@example.com')).id, project_id: await freshOrgProject(f) } }),
    expected: all(401, 403, 201, 201, 403, 403),
  },
  { call: 'DELETE projects', request: async (f) => ({ method: 'DELETE', path: 'projects', query: { project_id: await freshOrgProject(f) } }), expected: all(401, 404, 200, 403, 403, 403) },
  { call: 'GET organizations/users', request: async () => ({ method: 'GET', path: 'organizations/users' }), expected: all(401, 400, 200, 200, 200, 403) },
  { call: 'GET organizations/invitations', request: async () => ({ method: 'GET', path: 'organizations/invitations' }), expected: all(401, 400, 200, 200, 200, 403) },
  { call: 'GET organizations/trial', request: async () => ({ method: 'GET', path: 'organizations/trial' }), expected: all(401, 400, 200, 200, 200, 403) },
  { call: 'GET organizations/users/owner', request: async () => ({ method: 'GET', path: 'organizations/users/owner' }), expected: all(401, 200, 200, 200, 200, 200) },
  {
    call: 'POST organizations/invitations',
    request: async () => ({ method: 'POST', path: 'organizations/invitations', body: { email: `someone${++counter}@example.com` } }),
    expected: all(401, 400, 201, 403, 403, 403),
  },
  { call: 'PATCH organizations/invitations', request: async (f) => ({ method: 'PATCH', path: 'organizations/invitations', body: { id: await freshInvite(f) } }), expected: all(401, 400, 200, 403, 403, 403) },
  { call: 'DELETE organizations/invites', request: async (f) => ({ method: 'DELETE', path: 'organizations/invites', query: { invite_id: await freshInvite(f) } }), expected: all(401, 400, 200, 403, 403, 403) },
  { call: 'DELETE organizations/user/{id}', request: async (f) => ({ method: 'DELETE', path: `organizations/user/${await freshMember(f)}` }), expected: all(401, 400, 200, 403, 403, 403) },
  {
    call: 'GET users/promote',
    request: async (f) => ({ method: 'GET', path: 'users/promote', query: { user_id: await freshMember(f), read_only: 'true', organization_id: f.acmeId } }),
    expected: all(401, 400, 200, 403, 403, 403),
  },
  { call: 'GET billing/current', request: async () => ({ method: 'GET', path: 'billing/current' }), expected: all(401, 200, 200, 200, 200, 403) },
  { call: 'POST billing/payment-methods/setup (Acme account)', request: async (f) => ({ method: 'POST', path: 'billing/payment-methods/setup', body: { billing_account_id: f.acmeBillingId } }), expected: all(401, 404, 201, 404, 403, 403) },
  { call: 'GET integrations/', request: async (f) => ({ method: 'GET', path: 'integrations/', query: { project_id: f.productionId } }), expected: all(401, 404, 200, 200, 200, 403) },
  { call: 'GET integrations/qryn/trial', request: async (f) => ({ method: 'GET', path: 'integrations/qryn/trial', query: { project_id: f.productionId } }), expected: all(401, 404, 200, 200, 200, 403) },
  { call: 'GET integrations/qryn/cancellation', request: async (f) => ({ method: 'GET', path: 'integrations/qryn/cancellation', query: { project_id: f.productionId } }), expected: all(401, 404, 200, 200, 200, 403) },
  { call: 'GET users/products', request: async () => ({ method: 'GET', path: 'users/products' }), expected: all(401, 200, 200, 200, 200, 403) },
  { call: 'GET products', request: async () => ({ method: 'GET', path: 'products' }), expected: all(401, 200, 200, 200, 200, 200) },
  { call: 'GET integrations/status', request: async () => ({ method: 'GET', path: 'integrations/status' }), expected: all(401, 200, 200, 200, 200, 200) },
  { call: 'GET users/organizations', request: async () => ({ method: 'GET', path: 'users/organizations' }), expected: all(401, 200, 200, 200, 200, 200) },
];

describe.each(databaseTargets())('role × call matrix ($kind)', (target) => {
  let fixture: Fixture;
  const tokens: Partial<Record<Role, string>> = {};

  beforeAll(async () => {
    const api = await startApi(target);
    const acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    const productionId = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
    const acmeBillingId = (await api.db.query<{ billing_account_id: number }>('SELECT billing_account_id FROM organizations WHERE id = $1', [acmeId]))[0].billing_account_id;
    fixture = { api, acmeId, productionId, acmeBillingId };
    tokens.personal = await api.tokenFor('new@example.com');
    tokens.owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    tokens.readWrite = await api.tokenFor('dev@example.com', { organizationId: acmeId });
    tokens.readOnly = await api.tokenFor('viewer@example.com', { organizationId: acmeId });
    tokens.nonMember = await api.tokenFor('new@example.com', { organizationId: acmeId });
  });
  afterAll(async () => fixture?.api.close());

  for (const row of ROWS) {
    it.each(ROLES)(`${row.call} as %s`, async (role) => {
      const request = await row.request(fixture);
      const response = await fixture.api.request(request.method, request.path, {
        token: tokens[role],
        query: request.query,
        body: request.body ?? (request.method === 'POST' || request.method === 'PATCH' ? {} : undefined),
      });
      expect(response.status, JSON.stringify(response.body)).toBe(row.expected[role]);
      if (response.status >= 400) expect(response.body).toMatchObject({ message: expect.any(String), description: expect.any(String) });
    });
  }

  it('a read-write member does not see the billing account but is told it is not manageable', async () => {
    const response = await fixture.api.request('GET', 'billing/current', { token: tokens.readWrite });
    expect(response.body).toEqual({ billing_account: null, manageable: false });
  });

  it('an organization that is read-only as a whole refuses writes even from its owner', async () => {
    await fixture.api.db.query('UPDATE organizations SET read_only = true WHERE id = $1', [fixture.acmeId]);
    try {
      const response = await fixture.api.request('POST', 'projects/', { token: tokens.owner, body: { name: 'Not allowed' } });
      expect(response.status).toBe(403);
    } finally {
      await fixture.api.db.query('UPDATE organizations SET read_only = false WHERE id = $1', [fixture.acmeId]);
    }
  });
});
