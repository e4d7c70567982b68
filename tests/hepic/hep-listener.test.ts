import { hashIngestKey } from '../../server/products/hepic/ingest-key';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startHepListener, type HepListener } from '../../server/products/hepic/hep-listener';
import { PACKET_COLUMNS } from '../../server/products/hepic/hep-row';
import type { TsvValue } from '../../server/products/qryn/storage/storage-client';
import { hepPacket, sendTcp, sendUdp, sipInvite } from '../support/hepic';
import { eventually } from '../support/qryn';

// The HEP endpoint on real UDP and TCP sockets (port 0), with an in-memory store: fuzzed packets (random bytes,
// mutated and truncated HEP, broken TCP framing) never stop it, are never stored, and a valid packet sent after
// them is still accepted. Expiry is checked per packet against the clock.

describe('HEP listener under fuzzed input', () => {
  let listener: HepListener;
  const stored: TsvValue[][] = [];
  let now = Date.now();
  const keys: Record<string, { instanceId: string; expiresAtMs: number | null }> = {
    good: { instanceId: 'i1', expiresAtMs: null },
    scoped: { instanceId: 'i1', expiresAtMs: Date.now() + 60_000 },
  };

  beforeAll(async () => {
    listener = await startHepListener(
      {
        // The listener hands over the key's hash, never the key (the database holds only hashes).
        lookupKey: async (keyHash) => Object.entries(keys).find(([key]) => hashIngestKey(key) === keyHash)?.[1],
        write: async (_instance, rows) => void stored.push(...rows),
        nowMs: () => now,
        log: () => undefined,
      },
      { host: '127.0.0.1', port: 0 },
    );
  });
  afterAll(async () => listener?.close());

  const callIds = () => stored.map((row) => row[PACKET_COLUMNS.indexOf('call_id')]);

  it('survives fuzzed UDP datagrams and TCP streams, stores none of them, and still accepts a valid packet', async () => {
    const base = hepPacket(sipInvite('fuzz-base'), 'good');
    const mutated = fc
      .array(fc.record({ at: fc.nat({ max: base.length - 1 }), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 6 })
      .map((changes) => {
        const copy = Buffer.from(base);
        // Keep the auth key's chunk out of reach so that a mutated packet cannot be a valid one by chance: only the
        // header and the first chunks are mutated.
        for (const change of changes) copy[change.at % 40] = change.value;
        copy[4] = 0xff; // a length the datagram does not have
        return copy;
      });
    const random = fc.uint8Array({ minLength: 0, maxLength: 512 }).map((b) => Buffer.from(b));
    const headed = fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.concat([Buffer.from('HEP3'), Buffer.from(b)]));
    const samples = fc.sample(fc.oneof(mutated, random, headed), 300);
    await sendUdp(listener.port, samples);
    for (let i = 0; i < 20; i++) await sendTcp(listener.port, [samples[i * 7] ?? Buffer.from('x'), base.subarray(0, 10)]);
    // Loopback UDP may drop part of a burst: wait until what arrived has been handled (the count stops moving).
    let seen = -1;
    await eventually(async () => {
      const count = listener.counters.received;
      if (count === seen && count > 100) return true;
      seen = count;
      await new Promise((r) => setTimeout(r, 300));
      return undefined;
    });
    await listener.flush();
    expect(callIds()).not.toContain('fuzz-base');

    await sendUdp(listener.port, [hepPacket(sipInvite('after-fuzz-udp'), 'good')]);
    await sendTcp(listener.port, [hepPacket(sipInvite('after-fuzz-tcp'), 'good')]);
    await eventually(async () => {
      await listener.flush();
      return callIds().includes('after-fuzz-udp') && callIds().includes('after-fuzz-tcp') ? true : undefined;
    });
    expect(listener.counters.malformed).toBeGreaterThan(100);
  });

  it('a scoped key is accepted until its expiry, then refused', async () => {
    await sendUdp(listener.port, [hepPacket(sipInvite('scoped-ok'), 'scoped')]);
    await eventually(async () => {
      await listener.flush();
      return callIds().includes('scoped-ok') ? true : undefined;
    });
    now += 61_000;
    const refused = listener.counters.unauthorized;
    await sendUdp(listener.port, [hepPacket(sipInvite('scoped-late'), 'scoped')]);
    await eventually(async () => (listener.counters.unauthorized === refused + 1 ? true : undefined));
    await listener.flush();
    expect(callIds()).not.toContain('scoped-late');
  });

  it('close() frees the UDP and TCP port (nothing the platform opened outlives it)', async () => {
    const port = listener.port;
    await listener.close();
    const { createServer } = await import('node:net');
    const { createSocket } = await import('node:dgram');
    const tcp = createServer();
    await new Promise<void>((resolve, reject) => tcp.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
    const udp = createSocket('udp4');
    await new Promise<void>((resolve, reject) => udp.once('error', reject).bind(port, '127.0.0.1', () => resolve()));
    udp.close();
  });
});
