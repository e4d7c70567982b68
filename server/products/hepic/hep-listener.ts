import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server, type Socket as TcpSocket } from 'node:net';
import { decodeHep, splitStream, summariseSip, type HepPacket } from './hep-decoder';
import type { TsvValue } from '../qryn/storage-client';
import { PACKET_COLUMNS } from './hepic-storage';

// The HEP endpoint: one UDP socket and one TCP server on the same port, shared by every Hepic instance of the
// platform. A packet names its instance by the auth key it carries (chunk 0x000e): the instance's token or one of
// its scoped tokens that has not expired. Packets without a valid key, and anything that does not decode, are
// dropped and counted; nothing a sender does can stop the listener (tests/hepic/hep-listener.test.ts fuzzes it).
//
// Accepted packets are buffered per instance and written to its ClickHouse database in batches (every
// FLUSH_INTERVAL_MS or MAX_BATCH rows), as capture agents send many small packets.

export type Transport = 'udp' | 'tcp';

export interface KeyGrant {
  instanceId: string;
  /** ms since the epoch; null for the instance's own token. */
  expiresAtMs: number | null;
}

export interface ListenerDeps {
  /** The instance a key opens (undefined for an unknown key). Results are cached for KEY_CACHE_MS. */
  lookupKey(key: string): Promise<KeyGrant | undefined>;
  /** Writes rows (PACKET_COLUMNS order) into an instance's table. */
  write(instanceId: string, rows: TsvValue[][]): Promise<void>;
  nowMs(): number;
  log(message: string): void;
}

export interface ListenerCounters {
  received: number;
  accepted: number;
  stored: number;
  malformed: number;
  unauthorized: number;
  writeFailures: number;
}

export interface HepListener {
  readonly port: number;
  readonly counters: ListenerCounters;
  /** Writes what is buffered now (tests, shutdown). */
  flush(): Promise<void>;
  /** Forget cached keys (a token created, an instance released). */
  invalidate(): void;
  close(): Promise<void>;
}

const FLUSH_INTERVAL_MS = 250;
const MAX_BATCH = 1000;
const KEY_CACHE_MS = 5_000;
/** A TCP connection that sends more than this without completing a packet is cut (HEP lengths are u16). */
const MAX_TCP_BUFFER = 256 * 1024;
const MAX_BUFFERED_ROWS = 100_000;

export function toRow(packet: HepPacket, transport: Transport, receivedMs: number): TsvValue[] {
  const sip = packet.payloadType === 1 || packet.payloadType === 0 ? summariseSip(packet.payload) : undefined;
  const capturedUs = BigInt(packet.timeSeconds) * 1_000_000n + BigInt(Math.min(packet.timeUseconds, 999_999));
  const row: Record<(typeof PACKET_COLUMNS)[number], TsvValue> = {
    date: new Date(receivedMs).toISOString().slice(0, 10),
    received_us: BigInt(Math.floor(receivedMs)) * 1000n,
    timestamp_us: capturedUs,
    transport,
    capture_id: packet.captureId,
    node_name: packet.nodeName,
    payload_type: packet.payloadType,
    ip_family: packet.ipFamily,
    ip_protocol: packet.ipProtocol,
    src_ip: packet.srcIp,
    dst_ip: packet.dstIp,
    src_port: packet.srcPort,
    dst_port: packet.dstPort,
    correlation_id: packet.correlationId,
    sip_method: sip?.method ?? '',
    sip_status: sip?.status ?? 0,
    call_id: sip?.callId ?? '',
    from_user: sip?.fromUser ?? '',
    to_user: sip?.toUser ?? '',
    payload: packet.payload.toString('utf8'),
  };
  return PACKET_COLUMNS.map((column) => row[column]);
}

export async function startHepListener(deps: ListenerDeps, options: { host: string; port: number }): Promise<HepListener> {
  const counters: ListenerCounters = { received: 0, accepted: 0, stored: 0, malformed: 0, unauthorized: 0, writeFailures: 0 };
  const keys = new Map<string, { grant: KeyGrant | undefined; until: number }>();
  const pending = new Map<string, TsvValue[][]>();
  let buffered = 0;
  let flushing: Promise<void> = Promise.resolve();
  let closed = false;

  async function grantOf(key: string): Promise<KeyGrant | undefined> {
    const now = Date.now();
    const hit = keys.get(key);
    if (hit && hit.until > now) return hit.grant;
    const grant = await deps.lookupKey(key);
    if (keys.size > 10_000) keys.clear();
    keys.set(key, { grant, until: now + KEY_CACHE_MS });
    return grant;
  }

  async function accept(bytes: Buffer, transport: Transport): Promise<void> {
    counters.received++;
    const decoded = decodeHep(bytes);
    if (!decoded.ok) {
      counters.malformed++;
      return;
    }
    const key = decoded.packet.authKey;
    const grant = key ? await grantOf(key).catch(() => undefined) : undefined;
    const now = deps.nowMs();
    // Expiry is checked on every packet against the business clock, so a cached grant never outlives its token.
    if (!grant || (grant.expiresAtMs !== null && grant.expiresAtMs <= now)) {
      counters.unauthorized++;
      return;
    }
    if (buffered >= MAX_BUFFERED_ROWS) {
      counters.writeFailures++;
      return;
    }
    counters.accepted++;
    let rows = pending.get(grant.instanceId);
    if (!rows) pending.set(grant.instanceId, (rows = []));
    rows.push(toRow(decoded.packet, transport, now));
    buffered++;
    if (rows.length >= MAX_BATCH) void flush();
  }

  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      const batches = [...pending.entries()];
      pending.clear();
      buffered = 0;
      for (const [instanceId, rows] of batches) {
        try {
          await deps.write(instanceId, rows);
          counters.stored += rows.length;
        } catch (error) {
          counters.writeFailures += rows.length;
          deps.log(`[hepic] ${rows.length} packets of instance ${instanceId} were not stored: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    });
    return flushing;
  }

  const timer = setInterval(() => void flush(), FLUSH_INTERVAL_MS);
  timer.unref();

  const handle = (bytes: Buffer, transport: Transport) => {
    void accept(bytes, transport).catch((error: unknown) => {
      counters.malformed++;
      deps.log(`[hepic] packet refused: ${error instanceof Error ? error.message : String(error)}`);
    });
  };

  const tcpSockets = new Set<TcpSocket>();
  const tcp: Server = createServer((socket) => {
    tcpSockets.add(socket);
    let buffer: Buffer = Buffer.alloc(0);
    socket.setTimeout(5 * 60_000, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      const { packets, rest, broken } = splitStream(buffer);
      for (const packet of packets) handle(Buffer.from(packet), 'tcp');
      if (broken || rest.length > MAX_TCP_BUFFER) {
        // A stream that lost its framing cannot be read further: the sender reconnects.
        counters.malformed++;
        socket.destroy();
        return;
      }
      buffer = Buffer.from(rest);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => tcpSockets.delete(socket));
  });
  tcp.on('error', (error) => deps.log(`[hepic] TCP listener: ${error.message}`));

  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(options.port, options.host, () => {
      tcp.off('error', reject);
      resolve();
    });
  });
  const port = (tcp.address() as { port: number }).port;

  const udp: Socket = createSocket({ type: options.host.includes(':') ? 'udp6' : 'udp4' });
  udp.on('message', (message) => handle(message, 'udp'));
  udp.on('error', (error) => deps.log(`[hepic] UDP listener: ${error.message}`));
  try {
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(port, options.host, () => {
        udp.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
    throw error;
  }

  return {
    port,
    counters,
    flush,
    invalidate: () => keys.clear(),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      udp.close();
      for (const socket of tcpSockets) socket.destroy();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
      await flush();
    },
  };
}
