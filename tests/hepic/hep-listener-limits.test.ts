import { hashIngestKey } from '../../server/products/hepic/ingest-key';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { listenerLimits, startHepListener, type HepListener, type ListenerDeps, type ListenerLimits } from '../../server/products/hepic/hep-listener';
import { PACKET_COLUMNS } from '../../server/products/hepic/hep-row';
import type { TsvValue } from '../../server/products/qryn/storage/storage-client';
import { hepPacket, sendTcp, sipInvite } from '../support/hepic';
import { eventually } from '../support/qryn';

// The HEP listener's limits, on real sockets: TCP connections capped per listener and per source address, a
// connection that completes no packet closed within the packet timeout, one instance's stalled storage shedding
// only its own packets (another instance's are all stored), and a bounded number of key lookups under way.

let listener: HepListener | undefined;
const opened: Socket[] = [];

afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  await listener?.close();
  listener = undefined;
});

const KNOWN_KEYS = ['key-a', 'key-slow', 'key-fast', 'key-real'];

async function start(deps: Partial<ListenerDeps>, limits: Partial<ListenerLimits>): Promise<HepListener> {
  listener = await startHepListener(
    {
      // The listener looks keys up by their hash (the database holds only hashes).
      lookupKey: async (keyHash) => {
        const key = KNOWN_KEYS.find((k) => hashIngestKey(k) === keyHash);
        return key ? { instanceId: key.slice(4), expiresAtMs: null } : undefined;
      },
      write: async () => undefined,
      nowMs: () => Date.now(),
      log: () => undefined,
      ...deps,
    },
    { host: '127.0.0.1', port: 0, limits },
  );
  return listener;
}

/** Opens a TCP connection (from a chosen loopback address) and resolves once it is established. */
function open(port: number, localAddress = '127.0.0.1'): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    opened.push(socket);
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

const isClosed = (closed: Promise<void>, withinMs: number) =>
  Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), withinMs))]);

describe('HEP listener limits', () => {
  it('caps TCP connections per source address and per listener; refused ones are closed at once', async () => {
    const hep = await start({}, { maxConnections: 5, maxConnectionsPerAddress: 3, packetTimeoutMs: 30_000 });
    const first = [await open(hep.port), await open(hep.port), await open(hep.port)];
    await eventually(async () => (hep.connections() === 3 ? true : undefined));
    const fourth = await open(hep.port);
    expect(await isClosed(fourth.closed, 2000)).toBe(true);
    // Another source address has its own share, up to the listener's total.
    const other = [await open(hep.port, '127.0.0.2'), await open(hep.port, '127.0.0.2')];
    await eventually(async () => (hep.connections() === 5 ? true : undefined));
    const overTotal = await open(hep.port, '127.0.0.3');
    expect(await isClosed(overTotal.closed, 2000)).toBe(true);
    for (const c of [...first, ...other]) expect(await isClosed(c.closed, 50)).toBe(false);
    expect(hep.counters.connectionsRefused).toBe(2);
    // A freed slot is usable again, and packets still flow.
    first[0].socket.destroy();
    await eventually(async () => (hep.connections() === 4 ? true : undefined));
    const again = await open(hep.port);
    expect(await isClosed(again.closed, 300)).toBe(false);
  });

  it('closes a connection that completes no packet within the packet timeout (idle, or a packet dribbled)', async () => {
    const hep = await start({}, { packetTimeoutMs: 300, idleTimeoutMs: 30_000 });
    const idle = await open(hep.port);
    const dribble = await open(hep.port);
    const packet = hepPacket(sipInvite('dribble'), 'key-a');
    dribble.socket.write(packet.subarray(0, 10));
    const busy = await open(hep.port);
    busy.socket.write(hepPacket(sipInvite('whole'), 'key-a'));
    expect(await isClosed(idle.closed, 3000)).toBe(true);
    expect(await isClosed(dribble.closed, 3000)).toBe(true);
    // One that completed a packet is allowed the (longer) idle time.
    expect(await isClosed(busy.closed, 200)).toBe(false);
    expect(hep.counters.connectionsCut).toBe(2);
  });

  it("a tenant's stalled storage sheds only its own packets: another tenant's are all stored", async () => {
    const stored = new Map<string, TsvValue[][]>();
    let release: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const hep = await start(
      {
        write: async (instanceId, rows) => {
          if (instanceId === 'slow') await stalled;
          stored.set(instanceId, [...(stored.get(instanceId) ?? []), ...rows]);
        },
      },
      { tenantQueueRows: 1000 },
    );
    // 3000 packets per tenant in writes of 100, the way two tenants' agents send at the same time.
    const pieces = (key: string) => Array.from({ length: 30 }, (_, p) => Buffer.concat(Array.from({ length: 100 }, (_, i) => hepPacket(sipInvite(`${key}-${p * 100 + i}`), key))));
    await Promise.all([sendTcp(hep.port, pieces('key-slow')), sendTcp(hep.port, pieces('key-fast'))]);
    await eventually(async () => (hep.counters.received === 6000 ? true : undefined));
    await hep.flush('fast');
    await eventually(async () => ((stored.get('fast')?.length ?? 0) === 3000 ? true : undefined));
    const callIds = new Set(stored.get('fast')!.map((row) => row[PACKET_COLUMNS.indexOf('call_id')]));
    expect(callIds.size).toBe(3000);
    expect(hep.tenant('fast')).toMatchObject({ stored: 3000, shed: 0, failed: 0 });
    const slow = hep.tenant('slow');
    expect(slow.stored).toBe(0);
    // The slow tenant's first batch is in its stalled insert, up to 1000 more wait, the rest are shed and counted.
    expect(slow.shed).toBeGreaterThan(500);
    expect(slow.accepted + slow.shed).toBe(3000);
    release();
    await hep.flush('slow');
    expect(hep.tenant('slow').stored).toBe(slow.accepted);
  });

  it('keeps the key lookups under way bounded, whatever number of random keys arrive', async () => {
    let running = 0;
    let most = 0;
    const hep = await start(
      {
        lookupKey: async (key) => {
          running++;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 20));
          running--;
          return key === hashIngestKey('key-real') ? { instanceId: 'real', expiresAtMs: null } : undefined;
        },
      },
      { keyLookups: 4 },
    );
    const random = Array.from({ length: 300 }, (_, i) => hepPacket(sipInvite(`r${i}`), `random-${i}-${Math.random()}`));
    await sendTcp(hep.port, [Buffer.concat(random)]);
    await eventually(async () => (hep.counters.unauthorized === 300 ? true : undefined));
    expect(most).toBeLessThanOrEqual(4);
    expect(hep.counters.lookupsShed).toBeGreaterThan(0);
    // A real key is still looked up (and then cached) once the flood has passed.
    await sendTcp(hep.port, [hepPacket(sipInvite('real'), 'key-real')]);
    await eventually(async () => (hep.counters.accepted === 1 ? true : undefined));
  });

  it('reads its limits from the environment, and refuses a malformed one by name', () => {
    expect(listenerLimits({ HEP_TCP_MAX_CONNECTIONS: '10', HEP_TENANT_QUEUE_PACKETS: '7' })).toMatchObject({ maxConnections: 10, tenantQueueRows: 7, maxConnectionsPerAddress: 50 });
    expect(() => listenerLimits({ HEP_TCP_PACKET_TIMEOUT_MS: 'soon' })).toThrow(/HEP_TCP_PACKET_TIMEOUT_MS/);
  });
});
