import { hashIngestKey } from '../../server/products/hepic/ingest-key';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { startHepListener, type HepListener } from '../../server/products/hepic/hep-listener';
import { PACKET_COLUMNS } from '../../server/products/hepic/hep-row';
import type { TsvValue } from '../../server/products/qryn/storage/storage-client';
import { hepPacket, sipInvite } from '../support/hepic';
import { eventually } from '../support/qryn';

// The HEP endpoint's UDP side runs in a worker thread with a receive buffer of the configured size: the socket gets
// that buffer (as far as net.core.rmem_max allows), and while the platform's event loop is busy (here: blocked
// outright for the whole burst) datagrams are still read, so a paced burst arrives whole and in order — with the
// socket read on the event loop, everything past the receive buffer would be dropped by the kernel.

let listener: HepListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

const rmemMax = () => Number(readFileSync('/proc/sys/net/core/rmem_max', 'utf8').trim());

async function start(stored: TsvValue[][], receiveBufferBytes: number): Promise<HepListener> {
  listener = await startHepListener(
    {
      lookupKey: async (keyHash) => (keyHash === hashIngestKey('good') ? { instanceId: 'i1', expiresAtMs: null } : undefined),
      write: async (_instance, rows) => void stored.push(...rows),
      nowMs: () => Date.now(),
      log: () => undefined,
    },
    { host: '127.0.0.1', port: 0, limits: { udpReceiveBufferBytes: receiveBufferBytes } },
  );
  return listener;
}

// A sender in its own thread (plain JavaScript): `perTick` datagrams every `tickMs`, then it raises the flag.
const SENDER = `
const { workerData, parentPort } = require('node:worker_threads');
const dgram = require('node:dgram');
const { port, packets, perTick, tickMs, flag } = workerData;
const done = new Int32Array(flag);
const socket = dgram.createSocket('udp4');
let next = 0;
parentPort.postMessage('started');
function tick() {
  const end = Math.min(packets.length, next + perTick);
  let pending = end - next;
  for (; next < end; next++) socket.send(packets[next], port, '127.0.0.1', () => {
    if (--pending === 0) {
      if (next >= packets.length) { socket.close(); Atomics.store(done, 0, 1); }
      else setTimeout(tick, tickMs);
    }
  });
}
tick();
`;

describe('HEP over UDP in a worker thread', () => {
  it.runIf(process.platform === 'linux')('gives the UDP socket the configured receive buffer (capped by net.core.rmem_max)', async () => {
    const asked = 1024 * 1024;
    const hep = await start([], asked);
    // Linux reports twice the size granted (its bookkeeping share); the system default is far below (212,992).
    expect(hep.udpReceiveBufferBytes).toBe(2 * Math.min(asked, rmemMax()));
    expect(hep.limits.udpReceiveBufferBytes).toBe(asked);
  });

  it('stores every packet of a paced burst, in order, while the event loop is blocked for the whole burst', async () => {
    const stored: TsvValue[][] = [];
    const hep = await start(stored, 1024 * 1024);
    const count = 4000;
    const packets = Array.from({ length: count }, (_, i) => hepPacket(sipInvite(`burst-${i}`), 'good'));
    const flag = new SharedArrayBuffer(4);
    // 4,000 packets at about 4,000/s: four times what the receive buffer holds, so that a reader on this (blocked)
    // event loop would lose most of them.
    const sender = new Worker(SENDER, { eval: true, workerData: { port: hep.port, packets, perTick: 40, tickMs: 10, flag } });
    try {
      await new Promise<void>((resolve, reject) => {
        sender.once('message', () => resolve());
        sender.once('error', reject);
      });
      const done = new Int32Array(flag);
      const until = Date.now() + 20_000;
      // Blocks this thread (the listener's event loop) until the sender has sent its last datagram.
      while (Atomics.load(done, 0) === 0 && Date.now() < until) Atomics.wait(done, 0, 0, 50);
      expect(Atomics.load(done, 0)).toBe(1);
      // Until everything is stored, or nothing more arrives (then the counts below say what was lost).
      let seen = -1;
      await eventually(async () => {
        await hep.flush();
        if (stored.length >= count || hep.counters.received === seen) return true;
        seen = hep.counters.received;
        await new Promise((r) => setTimeout(r, 300));
        return undefined;
      });
      expect(hep.counters.received).toBe(count);
      const callIds = stored.map((row) => row[PACKET_COLUMNS.indexOf('call_id')]);
      expect(callIds).toEqual(packets.map((_, i) => `burst-${i}`));
      expect(stored.every((row) => row[PACKET_COLUMNS.indexOf('transport')] === 'udp')).toBe(true);
    } finally {
      await sender.terminate();
    }
  });
});
