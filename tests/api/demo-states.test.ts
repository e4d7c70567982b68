// The demo states `npm start` writes beside the demo data (server/products/demo-states.ts), so that the rows of spec
// 001 the card-paying Acme cannot show can be looked at: no payment method, a Hepic user who is neither admin nor
// read-only, a cluster in creating. Checked through the API, as the console reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateUser, findUserByEmail } from '../../server/db/repositories/users-repository';
import { DEMO_PASSWORD, DEMO_STATE_EMAILS, presentDemoAccounts } from '../../server/db/seed';
import { CREATING_HOLD_MS, DEMO_CREATING_CLUSTER, seedDemoStates } from '../../server/products/demo-states';
import { createTokenMinter } from '../support/mint-token';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';

describe('demo states', () => {
  let platform: TestPlatform;
  let nocard: string;
  let analyst: string;
  let sandbox: number;
  let voice: number;
  const call = async (method: string, path: string, token: string, query: Record<string, string | number> = {}, body?: unknown) => {
    const url = new URL(`${platform.url}/api/${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, String(value));
    const response = await fetch(url, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ demoStates: true, embedded: true });
    const mint = await createTokenMinter(platform.db, platform.config);
    const globex = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Globex'"))[0].id;
    nocard = await mint((await findUserByEmail(platform.db, 'nocard@example.com'))!, { expiresIn: 3600 });
    analyst = await mint((await findUserByEmail(platform.db, 'analyst@example.com'))!, { organizationId: globex, expiresIn: 3600 });
    sandbox = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Trial Sandbox'"))[0].id;
    voice = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Globex Voice'"))[0].id;
  }, 120_000);
  afterAll(async () => platform?.stop());

  it('every state account signs in with the demo password and is refused in production like the others', async () => {
    for (const email of DEMO_STATE_EMAILS) expect((await authenticateUser(platform.db, email, DEMO_PASSWORD))?.email, email).toBe(email);
    // A production start refuses while any demo account is present (docs/security.md): these count too.
    expect(await presentDemoAccounts(platform.db)).toEqual(expect.arrayContaining([...DEMO_STATE_EMAILS]));
  });

  it('no card: the create page may make one default cluster (spec 001 §5 rules without a payment method)', async () => {
    const creation = await call('GET', 'integrations/clickhouse/clusters/creation', nocard, { project_id: sandbox });
    expect(creation).toEqual({ status: 200, body: { allowed: true, has_payment_method: false } });
  });

  it('a Hepic user who is not an admin: sees the Hepic card and lists, may not manage users', async () => {
    const integrations = await call('GET', 'integrations/', analyst, { project_id: voice });
    expect(integrations.body.find((i: { product: { slug: string } }) => i.product.slug === 'hepic')).toMatchObject({ is_available: true, is_user_active: true });
    const users = await call('GET', 'integrations/hepic/users', analyst, { project_id: voice });
    expect(users.status).toBe(200);
    expect(users.body.map((u: { email: string; group: string }) => [u.email, u.group]).sort()).toEqual([
      ['analyst@example.com', 'user'],
      ['ops@example.com', 'superadmin'],
    ]);
    const remove = await call('DELETE', 'integrations/hepic/users', analyst, { project_id: voice, user_id: (await findUserByEmail(platform.db, 'ops@example.com'))!.id });
    expect(remove.status).toBe(403);
  });

  it('a cluster in creating, its provisioning queued for later', async () => {
    const clusters = await call('GET', 'integrations/clickhouse/clusters', analyst, { project_id: voice });
    expect(clusters.body).toEqual([expect.objectContaining({ name: DEMO_CREATING_CLUSTER, status: 'creating' })]);
    const [job] = await platform.db.query<{ status: string; run_at: Date }>("SELECT status, run_at FROM jobs WHERE kind = 'clickhouse.provision'");
    expect(job.status).toBe('queued');
    expect(new Date(job.run_at).getTime()).toBeGreaterThan(Date.now() + CREATING_HOLD_MS - 5 * 60_000);
  });

  it('are written once per database', async () => {
    expect(await seedDemoStates(platform.db, platform.products, platform.jobs, () => undefined)).toEqual({ written: false });
  });
});
