import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { seedDemoData } from '../../server/db/seed';
import { findUserByEmail } from '../../server/db/repositories/users-repository';
import { startHepListener, type KeyGrant } from '../../server/products/hepic/hep-listener';
import type { HepicBackend } from '../../server/products/hepic/hepic-backend';
import type { QrynBackend } from '../../server/products/qryn/qryn-backend';
import { hashIngestKey } from '../../server/products/hepic/ingest-key';
import { enableHepic, hepPacket, sendTcp, sendUdp, sipInvite } from '../support/hepic';
import { createTokenMinter } from '../support/mint-token';
import { createFreshPostgresDatabase, databaseTargets } from '../support/postgres';
import { eventually } from '../support/qryn';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { freePort } from '../support/free-port';

// Hepic's caches across platform instances (docs/hepic.md "Several platform instances"): a key changed through one
// instance is refused at once by the HEP listener of another, which owns the HEP port. Two instances need
// PostgreSQL (TEST_DATABASE_URL, as CI sets it); the listener part runs always.

describe('the HEP listener when keys change', () => {
  it('does not cache the answer of a lookup that was under way when the keys changed', async () => {
    const keys = new Map<string, KeyGrant>([[hashIngestKey('old'), { instanceId: 'i1', expiresAtMs: null }]]);
    let release: (() => void) | undefined;
    const stored: unknown[] = [];
    const listener = await startHepListener(
      {
        // The first lookup is held until the test lets it go: it read the keys before they changed.
        lookupKey: async (hash) => {
          const answer = keys.get(hash);
          if (!release) await new Promise<void>((resolve) => (release = resolve));
          return answer;
        },
        write: async (_id, rows) => void stored.push(...rows),
        nowMs: () => Date.now(),
        log: () => undefined,
      },
      { host: '127.0.0.1', port: 0, limits: { keyCacheMs: 60_000 } },
    );
    try {
      await sendTcp(listener.port, [hepPacket(sipInvite('during-change'), 'old', { protocol: 6 })]);
      await eventually(async () => (release ? true : undefined));
      // The key is rotated (the change commits) while the lookup is under way; then the lookup answers the old grant.
      keys.clear();
      listener.invalidate();
      release!();
      await eventually(async () => (listener.counters.accepted === 1 ? true : undefined));
      // The next packet with the old key is looked up again and refused, instead of riding on the stale answer.
      await sendTcp(listener.port, [hepPacket(sipInvite('after-change'), 'old', { protocol: 6 })]);
      await eventually(async () => (listener.counters.unauthorized === 1 ? true : undefined));
      expect(listener.counters.accepted).toBe(1);
    } finally {
      await listener.close();
    }
  });
});

describe.each(databaseTargets().filter((target) => target.kind === 'postgres'))('two platform instances on one PostgreSQL ($kind)', (target) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it('a key rotated through instance A is refused at once by instance B\'s HEP listener (UDP and TCP); the new key is accepted; a lost listening connection drops everything when it is back', async () => {
    if (target.kind !== 'postgres') return;
    const fresh = await createFreshPostgresDatabase(target.serverUrl);
    cleanups.push(fresh.drop);
    // The data is prepared first (migrations, demo accounts), so neither instance provisions demo products.
    const setup = await openDatabase({ url: fresh.url });
    await seedDemoData(setup);
    await setup.close();
    const hepPort = await freePort();

    // B starts first and owns the HEP port. It keeps a key lookup's answer for a minute, so a refusal within
    // seconds of a rotation on A can only come from A's notification, not from B's cache running out.
    process.env.HEP_KEY_CACHE_MS = '60000';
    const b: TestPlatform = await startTestPlatform({ databaseUrl: fresh.url, seed: false, env: { HEP_PORT: String(hepPort) } }).finally(() => {
      delete process.env.HEP_KEY_CACHE_MS;
    });
    cleanups.push(() => b.stopKeepingData());
    const hepicB = b.products.get('hepic') as HepicBackend;
    expect(hepicB.listener()?.port).toBe(hepPort);

    // A shares B's storage (as instances behind a load balancer share one) and does not get the HEP port.
    const storage = (b.products.get('qryn') as QrynBackend).storageServer()!;
    const a: TestPlatform = await startTestPlatform({
      databaseUrl: fresh.url,
      seed: false,
      env: { HEP_PORT: String(hepPort), SOCIAL_STAND_IN: 'false', QRYN_CLICKHOUSE_URL: storage.url, QRYN_CLICKHOUSE_USER: storage.user, QRYN_CLICKHOUSE_PASSWORD: storage.password },
    });
    cleanups.push(() => a.stopKeepingData());
    expect((a.products.get('hepic') as HepicBackend).listener()).toBeUndefined();

    const demo = (await findUserByEmail(b.db, 'demo@example.com'))!;
    const acme = (await b.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    const projectId = (await b.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
    const { apiKey: old } = await enableHepic(b, projectId, demo.id, acme);
    const listener = hepicB.listener()!;

    // The old key is accepted over UDP and TCP, and now cached by B's listener.
    await sendUdp(hepPort, [hepPacket(sipInvite('before-udp'), old)]);
    await sendTcp(hepPort, [hepPacket(sipInvite('before-tcp'), old, { protocol: 6 })]);
    await eventually(async () => (listener.counters.accepted === 2 ? true : undefined));

    const token = await (await createTokenMinter(a.db, a.config))(demo, { organizationId: acme });
    const rotated = await fetch(`${a.url}/api/integrations/hepic/key/rotate?project_id=${projectId}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(rotated.status).toBe(200);
    const { api_key: fresher } = (await rotated.json()) as { api_key: string };

    // PostgreSQL sends the notification when A's change commits; B handles it as it arrives on its listening
    // connection, which on a busy machine can be a moment after A's answer reached this test. Each old-key packet
    // is sent after the previous one was handled, until one is refused.
    const refusedWithin = Date.now() + 5_000;
    let acceptedAfterRotation = 0;
    for (;;) {
      const before = { ...listener.counters };
      await sendUdp(hepPort, [hepPacket(sipInvite('old-udp'), old)]);
      await eventually(async () => (listener.counters.accepted + listener.counters.unauthorized > before.accepted + before.unauthorized ? true : undefined));
      if (listener.counters.unauthorized > before.unauthorized) break;
      acceptedAfterRotation++;
      expect(Date.now()).toBeLessThan(refusedWithin);
      await new Promise((r) => setTimeout(r, 50));
    }
    console.log(`[hepic-instances] old-key packets accepted by B after A's rotation answered: ${acceptedAfterRotation}`);
    const refused = listener.counters.unauthorized;
    await sendTcp(hepPort, [hepPacket(sipInvite('old-tcp'), old, { protocol: 6 })]);
    await eventually(async () => (listener.counters.unauthorized === refused + 1 ? true : undefined));

    // The new key, never seen by B before, is accepted over both.
    const accepted = listener.counters.accepted;
    await sendUdp(hepPort, [hepPacket(sipInvite('new-udp'), fresher)]);
    await sendTcp(hepPort, [hepPacket(sipInvite('new-tcp'), fresher, { protocol: 6 })]);
    await eventually(async () => (listener.counters.accepted === accepted + 2 ? true : undefined));
    expect(listener.counters.unauthorized).toBe(refused + 1);

    // A change B was never told of (written past the platform, as a notification lost while B's listening
    // connection was down would be): B keeps accepting the cached key until that connection comes back, and then
    // drops everything.
    await b.db.query('UPDATE hepic_instances SET api_key_hash = $1', [hashIngestKey('hep_written-past-the-platform')]);
    const stillCached = listener.counters.accepted;
    await sendUdp(hepPort, [hepPacket(sipInvite('unannounced'), fresher)]);
    await eventually(async () => (listener.counters.accepted === stillCached + 1 ? true : undefined));
    await b.db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN platform_events'");
    const reconnectedWithin = Date.now() + 10_000;
    for (;;) {
      const before = { ...listener.counters };
      await sendUdp(hepPort, [hepPacket(sipInvite('after-reconnect'), fresher)]);
      await eventually(async () => (listener.counters.accepted + listener.counters.unauthorized > before.accepted + before.unauthorized ? true : undefined));
      if (listener.counters.unauthorized > before.unauthorized) break;
      expect(Date.now()).toBeLessThan(reconnectedWithin);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 180_000);
});
