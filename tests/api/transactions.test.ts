import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import type { Database, Queryable } from '../../server/db/database';
import { createBillingAccount, setPaymentMethod } from '../../server/db/repositories/billing-repository';
import { createUser } from '../../server/db/repositories/users-repository';

// Writes that belong together land together: when a later statement of a multi-step write fails, nothing of the
// earlier statements remains. The API sees a database whose transactions fail on a chosen statement.
describe.each(databaseTargets())('transactions ($kind)', (target) => {
  let api: ApiHarness;
  let failOn: RegExp | null = null;
  let acmeId: number;

  const failing = (db: Database): Database => {
    const wrap = (q: Queryable): Queryable => ({
      query: async (sql, params) => {
        if (failOn && failOn.test(sql)) throw new Error(`injected failure on: ${sql.slice(0, 60)}`);
        return q.query(sql, params);
      },
    });
    return { kind: db.kind, query: db.query.bind(db), transaction: (fn) => db.transaction((tx) => fn(wrap(tx))), close: () => db.close() };
  };

  beforeAll(async () => {
    api = await startApi(target, { wrapDatabase: failing });
    acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
  });
  afterAll(async () => api?.close());

  const withFailure = async <T>(pattern: RegExp, work: () => Promise<T>): Promise<T> => {
    failOn = pattern;
    try {
      return await work();
    } finally {
      failOn = null;
    }
  };

  it('creating an organization: no organization without its owner membership', async () => {
    const user = await createUser(api.db, { email: 'tx-org@example.com', givenName: 'T', familyName: 'X', emailVerified: true });
    const account = await createBillingAccount(api.db, { name: 'Tx account', ownerUserId: user.id, isDefault: true });
    await setPaymentMethod(api.db, account.id, 'pm_local_tx', null);
    const token = await api.mint(user);
    const response = await withFailure(/INSERT INTO organization_members/, () =>
      api.request('POST', 'organizations/', { token, body: { display_name: 'Half Org', billing_account_id: account.id } }),
    );
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({ message: 'Server error', description: expect.any(String) });
    expect(await api.db.query("SELECT 1 FROM organizations WHERE name = 'Half Org'")).toEqual([]);
    // And without the failure the same request succeeds.
    expect((await api.request('POST', 'organizations/', { token, body: { display_name: 'Half Org', billing_account_id: account.id } })).status).toBe(201);
  });

  it('creating a project: no project without its creator in the team', async () => {
    const token = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    const response = await withFailure(/INSERT INTO project_members/, () => api.request('POST', 'projects/', { token, body: { name: 'Half Project' } }));
    expect(response.status).toBe(500);
    expect(await api.db.query("SELECT 1 FROM projects WHERE name = 'Half Project'")).toEqual([]);
  });

  it('accepting an invitation: the code stays unused when the membership cannot be written', async () => {
    const owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    await api.request('POST', 'organizations/invitations', { token: owner, body: { email: 'tx-invite@example.com' } });
    const code = (await api.db.query<{ code: string }>("SELECT code FROM invitations WHERE invited_email = 'tx-invite@example.com'"))[0].code;
    await createUser(api.db, { email: 'tx-invite@example.com', password: 'Demo1234!', givenName: 'Tx', familyName: 'Invite', emailVerified: true });
    const token = await api.tokenFor('tx-invite@example.com');
    const response = await withFailure(/INSERT INTO organization_members/, () =>
      api.request('POST', 'organizations/invitations/accept', { token, query: { code } }),
    );
    expect(response.status).toBe(500);
    const rows = await api.db.query<{ accepted_at: Date | null }>('SELECT accepted_at FROM invitations WHERE code = $1', [code]);
    expect(rows[0].accepted_at).toBeNull();
    expect((await api.request('POST', 'organizations/invitations/accept', { token, query: { code } })).status).toBe(200);
  });

  it('removing a member: membership, project teams and integration lists go together or not at all', async () => {
    const owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    const dev = await api.user('dev@example.com');
    const before = await api.db.query('SELECT 1 FROM project_members WHERE user_id = $1', [dev.id]);
    expect(before.length).toBeGreaterThan(0);
    const response = await withFailure(/DELETE FROM project_members/, () => api.request('DELETE', `organizations/user/${dev.id}`, { token: owner }));
    expect(response.status).toBe(500);
    expect(await api.db.query('SELECT 1 FROM organization_members WHERE user_id = $1', [dev.id])).toHaveLength(1);
    expect(await api.db.query('SELECT 1 FROM integration_users WHERE user_id = $1', [dev.id])).toHaveLength(1);
    expect(await api.db.query('SELECT 1 FROM project_members WHERE user_id = $1', [dev.id])).toHaveLength(before.length);
  });
});
