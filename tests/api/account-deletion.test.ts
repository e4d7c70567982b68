// What an account deletion keeps and removes (docs/account.md): an organization the user alone owns but others use
// blocks it (409); otherwise the user's personal projects and solely owned organizations go, their integrations
// released through the product seam; projects the user created in an organization that stays are handed to an owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingAccount } from '../../server/db/repositories/billing-repository';
import { createIntegration } from '../../server/db/repositories/integrations-repository';
import { addMember, createOrganization } from '../../server/db/repositories/organizations-repository';
import { createProject } from '../../server/db/repositories/projects-repository';
import { createUser } from '../../server/db/repositories/users-repository';
import type { ProductRegistry } from '../../server/products/product-registry';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';

describe.each(databaseTargets())('account deletion ($kind)', (target) => {
  let api: ApiHarness;
  const released: number[] = [];

  beforeAll(async () => {
    const qryn = { slug: 'qryn', enable: async () => ({}), release: async (_tx: unknown, i: { integrationId: number }) => void released.push(i.integrationId) };
    const products: ProductRegistry = { get: (slug) => (slug === 'qryn' ? qryn : undefined), all: () => [qryn], start: async () => undefined, close: async () => undefined };
    api = await startApi(target, { platform: { products } });
  });
  afterAll(async () => api?.close());

  let n = 0;
  const person = (name: string) => createUser(api.db, { email: `${name}${++n}@example.com`, password: 'Demo1234!', givenName: name, familyName: 'Test', emailVerified: true });

  it('an organization with other members waits; once they are removed, it goes with its projects and integrations', async () => {
    const owner = await person('owner');
    const member = await person('member');
    const account = await createBillingAccount(api.db, { name: 'Owner billing', ownerUserId: owner.id, isDefault: true });
    const organizationId = await createOrganization(api.db, { name: `Solo ${n}`, billingAccountId: account.id, ownerUserId: owner.id });
    await addMember(api.db, { organizationId, userId: member.id, readOnly: false, projectIds: [] });
    const project = await createProject(api.db, { name: 'Team project', organizationId, userId: owner.id, billingAccountId: account.id });
    const personal = await createProject(api.db, { name: 'Own project', organizationId: null, userId: owner.id, billingAccountId: null });
    const teamIntegration = await createIntegration(api.db, { projectId: project.id, productSlug: 'qryn', status: 'active', creatorUserId: owner.id });
    const ownIntegration = await createIntegration(api.db, { projectId: personal.id, productSlug: 'qryn', status: 'active', creatorUserId: owner.id });

    const token = await api.mint(owner);
    const refused = await api.request('DELETE', 'users', { token });
    expect(refused.status).toBe(409);
    expect(refused.body.description).toContain(`Solo ${n}`);
    expect(await api.db.query('SELECT 1 FROM users WHERE id = $1', [owner.id])).toHaveLength(1);

    const ownerInOrganization = await api.mint(owner, { organizationId });
    expect((await api.request('DELETE', `organizations/user/${member.id}`, { token: ownerInOrganization })).status).toBe(200);
    released.length = 0;
    expect((await api.request('DELETE', 'users', { token })).status).toBe(200);
    expect(released.sort()).toEqual([teamIntegration, ownIntegration].sort());
    expect(await api.db.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId])).toEqual([]);
    expect(await api.db.query('SELECT 1 FROM projects WHERE id = ANY($1::int[])', [[project.id, personal.id]])).toEqual([]);
    expect(await api.db.query('SELECT 1 FROM users WHERE id = $1', [member.id])).toHaveLength(1);
  });

  it('a member who created a project in a shared organization: the project stays, handed to an owner', async () => {
    const acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    const leaver = await person('leaver');
    await addMember(api.db, { organizationId: acmeId, userId: leaver.id, readOnly: false, projectIds: [] });
    const created = await api.request('POST', 'projects/', { token: await api.mint(leaver, { organizationId: acmeId }), body: { name: 'Left behind' } });
    expect(created.status).toBe(201);
    expect((await api.request('DELETE', 'users', { token: await api.mint(leaver) })).status).toBe(200);
    const demo = await api.user('demo@example.com');
    expect(await api.db.query('SELECT user_id FROM projects WHERE id = $1', [created.body.id])).toEqual([{ user_id: demo.id }]);
    const list = await api.request('GET', 'projects/', { token: await api.tokenFor('demo@example.com', { organizationId: acmeId }) });
    expect(list.body.some((p: { id: number }) => p.id === created.body.id)).toBe(true);
  });
});
