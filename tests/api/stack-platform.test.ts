import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { createTokenMinter } from '../support/mint-token';
import { recordingProduct, type RecordedCall } from '../support/recording-product';
import { createUser, findUserByEmail } from '../../server/db/repositories/users-repository';
import { createBillingAccount, setPaymentMethod } from '../../server/db/repositories/billing-repository';
import { createProject } from '../../server/db/repositories/projects-repository';
import { createIntegration } from '../../server/db/repositories/integrations-repository';

// The whole platform: the lifecycle pass runs as a job on the worker by itself, /dev/clock moves business time and
// runs a pass at once, and system status reports the platform's parts (database, identity, job worker) and the
// services a product back end registers.

describe('the stack on a running platform', () => {
  let platform: TestPlatform;
  let token: string;
  let storageUp = true;
  const calls: RecordedCall[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform({
      lifecycleIntervalMs: 200,
      extraProducts: [recordingProduct('hepic', calls, { service: { name: 'Storage', running: () => storageUp } })],
    });
    const mint = await createTokenMinter(platform.db, platform.config);
    token = await mint((await findUserByEmail(platform.db, 'demo@example.com'))!, { organizationId: null });
  });
  afterAll(async () => platform?.stop());

  const api = (path: string) => fetch(`${platform.url}/api/${path}`, { headers: { authorization: `Bearer ${token}` } });
  const statusOf = async (id: number) => (await platform.db.query<{ status: string }>('SELECT status FROM integrations WHERE id = $1', [id]))[0].status;
  const until = async (check: () => Promise<boolean>, ms = 30_000) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('POST /dev/clock moves business time and runs the lifecycle at once; the job worker then activates after a card is added', async () => {
    const user = await createUser(platform.db, { email: 'clock@example.com', givenName: 'Clock', familyName: 'User', emailVerified: true });
    const account = await createBillingAccount(platform.db, { name: 'Clock', ownerUserId: user.id, isDefault: true });
    const project = await createProject(platform.db, { name: 'Clock project', organizationId: null, userId: user.id, billingAccountId: account.id });
    const id = await createIntegration(platform.db, { projectId: project.id, productSlug: 'clickhouse', status: 'trial', creatorUserId: user.id, trialDays: 14 });

    const before = platform.clock.nowMs();
    const moved = await fetch(`${platform.url}/dev/clock`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dev-pages-key': platform.config.devPagesKey }, body: JSON.stringify({ advance_days: 15 }) });
    expect(moved.status).toBe(200);
    const body = await moved.json();
    expect(new Date(body.now).getTime() - before).toBeGreaterThanOrEqual(15 * 86_400_000);
    expect(body.moved).toContainEqual({ integrationId: id, status: 'suspended' });
    expect(await statusOf(id)).toBe('suspended');

    // No pass is asked for here: the periodic job notices the card.
    await setPaymentMethod(platform.db, account.id, 'pm_local_clock', 'visa •••• 4242');
    await until(async () => (await statusOf(id)) === 'active');

    const bad = await fetch(`${platform.url}/dev/clock`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dev-pages-key': platform.config.devPagesKey }, body: JSON.stringify({ advance_days: -1 }) });
    expect(bad.status).toBe(400);
  });

  it('system status: the platform parts run, a product back end reports its own services, and a stopped one shows as down', async () => {
    await until(async () => platform.lifecycle.healthy());
    const report = await (await api('integrations/status')).json();
    const bySlug = Object.fromEntries(report.map((s: { slug: string }) => [s.slug, s]));
    expect(bySlug.platform.services).toEqual(
      expect.arrayContaining([
        { name: 'API', running: true },
        { name: 'Database', running: true },
        { name: 'Identity', running: true },
        { name: 'Job worker', running: true },
      ]),
    );
    expect(bySlug.qryn.services).toContainEqual({ name: 'Storage', running: true });
    // The recording product registers its check beside Hepic's own (HEP endpoint); Grafana's (local mode, no
    // GRAFANA_URL) keeps its state in the database.
    expect(bySlug.hepic.services).toEqual(expect.arrayContaining([{ name: 'Storage', running: true }]));
    expect(bySlug.grafana.services).toEqual([{ name: 'Provisioning store', running: true }]);

    storageUp = false;
    const down = Object.fromEntries((await (await api('integrations/status')).json()).map((s: { slug: string }) => [s.slug, s]));
    expect(down.hepic.services).toEqual(expect.arrayContaining([{ name: 'Storage', running: false }]));
    storageUp = true;
  });

  it('a real back-end process stopped with /dev/storage shows as down, and as running once it continues', async () => {
    const storage = (running: boolean) =>
      fetch(`${platform.url}/dev/storage`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dev-pages-key': platform.config.devPagesKey }, body: JSON.stringify({ running }) });
    const service = async (slug: string, name: string) => ((await (await api('integrations/status')).json()) as { slug: string; services: { name: string; running: boolean }[] }[])
      .find((s) => s.slug === slug)!.services.find((s) => s.name === name)!.running;
    const qrynStorage = () => service('qryn', 'Storage');
    const pid = (platform.products.get('qryn') as unknown as { storageServer(): { pid: number } }).storageServer().pid;
    const processState = async () => (await import('node:fs/promises')).readFile(`/proc/${pid}/stat`, 'utf8').then((t) => t.split(') ')[1][0]);
    try {
      expect(await (await storage(false)).json()).toEqual({ running: false, pid });
      // The operating system reports the clickhouse-server process as stopped (T) once the signal is delivered (on a
      // loaded machine it may still read R for a moment), and the check fails for real.
      await until(async () => (await processState()) === 'T');
      await until(async () => !(await qrynStorage()));
      // The products that write to it follow it (spec 001 §2 system status: a product is down with what it needs).
      await until(async () => !(await service('hepic', 'Shared storage')));
      await until(async () => !(await service('loggen', 'qryn storage')));
    } finally {
      expect(await (await storage(true)).json()).toEqual({ running: true, pid });
    }
    await until(async () => (await processState()) !== 'T');
    await until(qrynStorage);
    await until(() => service('hepic', 'Shared storage'));
    await until(() => service('loggen', 'qryn storage'));
    expect((await storage('yes' as unknown as boolean)).status).toBe(400);
  });
});
