import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import { seedDemoData } from '../../server/db/seed';
import { authenticateUser } from '../../server/db/repositories/users-repository';

describe.each(databaseTargets())('demo data ($kind)', (target) => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi(target);
  });
  afterAll(async () => api?.close());

  it('is idempotent, also when two seeds run at once', async () => {
    const count = async () => (await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0].n;
    const before = await count();
    const results = await Promise.all([seedDemoData(api.db), seedDemoData(api.db)]);
    expect(results).toEqual([{ seeded: false }, { seeded: false }]);
    expect(await count()).toBe(before);
  });

  it('has the users, roles, organization, projects, invitation and integrations the shared context names', async () => {
    for (const email of ['demo@example.com', 'dev@example.com', 'viewer@example.com', 'new@example.com']) {
      const user = await authenticateUser(api.db, email, 'Demo1234!');
      expect(user?.email_verified, email).toBe(true);
    }
    const social = await api.user('social@example.com');
    expect(social.connection).toBe('google-oauth2');
    expect(await authenticateUser(api.db, 'social@example.com', 'Demo1234!')).toBeUndefined();
    const members = await api.db.query<{ email: string; owner: boolean; read_only: boolean }>(
      `SELECT u.email, m.owner, m.read_only FROM organization_members m JOIN users u ON u.id = m.user_id
        JOIN organizations o ON o.id = m.organization_id WHERE o.name = 'Acme' ORDER BY u.email`,
    );
    expect(members).toEqual([
      { email: 'demo@example.com', owner: true, read_only: false },
      { email: 'dev@example.com', owner: false, read_only: false },
      { email: 'viewer@example.com', owner: false, read_only: true },
    ]);
    const acmeCard = await api.db.query("SELECT b.payment_method_id FROM organizations o JOIN billing_accounts b ON b.id = o.billing_account_id WHERE o.name = 'Acme'");
    expect(acmeCard).toEqual([{ payment_method_id: 'pm_local_demo4242' }]);
    const projects = await api.db.query<{ name: string; organization_id: number | null }>('SELECT name, organization_id FROM projects ORDER BY id');
    expect(projects.map((p) => [p.name, p.organization_id === null])).toEqual([
      ['Acme Production', false],
      ['Acme Staging', false],
      ['Personal Sandbox', true],
    ]);
    expect(await api.db.query('SELECT invited_email FROM invitations WHERE accepted_at IS NULL')).toEqual([{ invited_email: 'invited@example.com' }]);
    const integrations = await api.db.query('SELECT product_slug, status FROM integrations ORDER BY id');
    expect(integrations).toEqual([
      { product_slug: 'qryn', status: 'trial' },
      { product_slug: 'grafana', status: 'active' },
      { product_slug: 'loggen', status: 'scheduled_for_cancellation' },
    ]);
  });
});
