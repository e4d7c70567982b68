import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket as TcpSocket } from 'node:net';
import { decodeHep, splitStream } from './hep-decoder';
import type { TsvValue } from '../qryn/storage/storage-client';
import { setReceived, toRow, type Transport } from './hep-row';
import type { UdpBatch } from './hep-udp-protocol';
import { startUdpReader } from './hep-udp-reader';
import { hashIngestKey } from './ingest-key';

// The HEP endpoint: one UDP socket and one TCP server on the same port, shared by every Hepic instance of the
// platform. A packet names its instance by the auth key it carries (chunk 0x000e): the instance's token or one of
// its scoped tokens that has not expired. Packets without a valid key, and anything that does not decode, are
// dropped and counted; nothing a sender does can stop the listener (tests/hepic/hep-listener.test.ts fuzzes it).
//
// Accepted packets wait in their instance's own queue and are written to its ClickHouse database in batches
// (every FLUSH_INTERVAL_MS or MAX_BATCH rows), as capture agents send many small packets. Each instance has its own
// write loop and its own cap: an instance whose storage stalls delays and sheds only its own packets (counted per
// instance, shown on its Overview), never another's.
//
// UDP is read in a worker thread of its own (hep-udp-worker.ts) with a large receive buffer: it decodes and hands
// batches over, so that nothing else on the platform's event loop makes the kernel drop datagrams (UDP has no flow
// control: what is not read in time is lost). Keys, queues and inserts stay here, one set for UDP and TCP.
//
// The TCP side is bounded so that no sender can take the platform's file descriptors: connections are capped per
// listener (and at a quarter of the process's open-files limit) and per source address, and a connection that
// does not complete a packet within a few seconds is closed (docs/hepic.md, "Limits").

export interface KeyGrant {
  instanceId: string;
  /** ms since the epoch; null for the instance's own token. */
  expiresAtMs: number | null;
}

export interface ListenerDeps {
  /**
   * The instance a key opens, by the key's hash (hashIngestKey; the database holds only hashes); undefined for an
   * unknown key. Results are cached for `keyCacheMs` (HEP_KEY_CACHE_MS), keyed by the hash too.
   */
  lookupKey(keyHash: string): Promise<KeyGrant | undefined>;
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
  /** Packets whose insert failed (the storage answered an error). */
  writeFailures: number;
  /** Accepted packets dropped because their instance's queue (or the listener's total) was full. */
  shed: number;
  /** Packets dropped because too many key lookups were under way (random keys cost a database read each). */
  lookupsShed: number;
  /** UDP datagrams read but dropped because decoding was behind by UDP_BACKLOG_PACKETS (the CPU could not keep up). */
  backlogShed: number;
  /** TCP connections refused (over a cap) or cut (no whole packet in time, broken framing, too much unframed data). */
  connectionsRefused: number;
  connectionsCut: number;
}

/** What the listener did with one instance's packets since the platform started (its Overview shows them). */
export interface TenantCounters {
  accepted: number;
  stored: number;
  /** Dropped because this instance's queue was full: its storage was slower than its senders. */
  shed: number;
  /** Lost because the storage refused the insert. */
  failed: number;
  /** Waiting to be written now. */
  queued: number;
}

/** The listener's limits (docs/hepic.md, "Limits"; environment variables in listenerLimits). */
export interface ListenerLimits {
  /** TCP connections open at once on the port (further ones are closed at once). */
  maxConnections: number;
  /** TCP connections open at once from one source address. */
  maxConnectionsPerAddress: number;
  /** A connection must complete a packet within this long of opening, and finish a packet it started within it. */
  packetTimeoutMs: number;
  /** A connection that completed packets and sends nothing more is closed after this long (the agent reconnects). */
  idleTimeoutMs: number;
  /** Packets waiting for one instance's storage; beyond it that instance's packets are shed (counted). */
  tenantQueueRows: number;
  /** Packets waiting over all instances (a memory bound when many instances' storage is slow at once). */
  totalQueueRows: number;
  /** Key lookups in the database under way at once; a packet whose key would need one more is dropped. */
  keyLookups: number;
  /** SO_RCVBUF asked for the UDP socket (the kernel caps it at net.core.rmem_max). */
  udpReceiveBufferBytes: number;
  /**
   * How long a key lookup's answer is kept. A change to keys drops the cache at once (invalidate(), on every
   * platform instance through the instance events), so this bounds only what a missed notification leaves stale.
   */
  keyCacheMs: number;
}

export const DEFAULT_LIMITS: ListenerLimits = {
  maxConnections: 1000,
  maxConnectionsPerAddress: 50,
  packetTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  tenantQueueRows: 50_000,
  totalQueueRows: 400_000,
  keyLookups: 8,
  udpReceiveBufferBytes: 8 * 1024 * 1024,
  keyCacheMs: 5_000,
};

const positive = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number (got "${value}").`);
  return n;
};

/** The limits from the environment (HEP_TCP_MAX_CONNECTIONS, …), defaults where unset. */
export function listenerLimits(env: Record<string, string | undefined>): ListenerLimits {
  return {
    maxConnections: positive(env.HEP_TCP_MAX_CONNECTIONS, DEFAULT_LIMITS.maxConnections, 'HEP_TCP_MAX_CONNECTIONS'),
    maxConnectionsPerAddress: positive(env.HEP_TCP_MAX_CONNECTIONS_PER_ADDRESS, DEFAULT_LIMITS.maxConnectionsPerAddress, 'HEP_TCP_MAX_CONNECTIONS_PER_ADDRESS'),
    packetTimeoutMs: positive(env.HEP_TCP_PACKET_TIMEOUT_MS, DEFAULT_LIMITS.packetTimeoutMs, 'HEP_TCP_PACKET_TIMEOUT_MS'),
    idleTimeoutMs: positive(env.HEP_TCP_IDLE_TIMEOUT_MS, DEFAULT_LIMITS.idleTimeoutMs, 'HEP_TCP_IDLE_TIMEOUT_MS'),
    tenantQueueRows: positive(env.HEP_TENANT_QUEUE_PACKETS, DEFAULT_LIMITS.tenantQueueRows, 'HEP_TENANT_QUEUE_PACKETS'),
    totalQueueRows: positive(env.HEP_QUEUE_PACKETS, DEFAULT_LIMITS.totalQueueRows, 'HEP_QUEUE_PACKETS'),
    keyLookups: positive(env.HEP_KEY_LOOKUPS, DEFAULT_LIMITS.keyLookups, 'HEP_KEY_LOOKUPS'),
    udpReceiveBufferBytes: positive(env.HEP_UDP_RECEIVE_BUFFER, DEFAULT_LIMITS.udpReceiveBufferBytes, 'HEP_UDP_RECEIVE_BUFFER'),
    keyCacheMs: positive(env.HEP_KEY_CACHE_MS, DEFAULT_LIMITS.keyCacheMs, 'HEP_KEY_CACHE_MS'),
  };
}

/**
 * The process's soft limit of open files (Linux: /proc/self/limits), or undefined elsewhere. The TCP cap is kept to
 * a quarter of it, so that however many connections the HEP port holds, the web server, the identity server and
 * the gateway keep three quarters of the descriptors for their own sockets and files.
 */
export function openFilesLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const soft = line?.replace('Max open files', '').trim().split(/\s+/)[0];
    const n = Number(soft);
    return Number.isFinite(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

export interface HepListener {
  readonly port: number;
  readonly counters: ListenerCounters;
  /** The limits in force (the TCP cap after the descriptor bound). */
  readonly limits: ListenerLimits;
  /** The UDP socket's receive buffer as the kernel reports it (Linux: twice what was granted, see docs/hepic.md). */
  readonly udpReceiveBufferBytes: number;
  /** What happened to one instance's packets (zeros for an instance that sent nothing). */
  tenant(instanceId: string): TenantCounters;
  /** TCP connections open now. */
  connections(): number;
  /** Writes what is buffered now (tests, shutdown); one instance's queue only when named. */
  flush(instanceId?: string): Promise<void>;
  /** Forget cached keys (a key rotated, a token created, an instance released, here or on another instance). */
  invalidate(): void;
  close(): Promise<void>;
}

const FLUSH_INTERVAL_MS = 250;
const MAX_BATCH = 1000;
/** Rows per insert when a queue has grown while its storage was slow. */
const MAX_INSERT_ROWS = 10_000;
/** A TCP connection that sends more than this without completing a packet is cut (HEP lengths are u16). */
const MAX_TCP_BUFFER = 256 * 1024;
const NEGATIVE_KEYS = 10_000;
const CLOSE_FLUSH_MS = 5_000;
/** The UDP worker hands over what it read every UDP_BATCH_MS or UDP_BATCH_PACKETS datagrams. */
const UDP_BATCH_MS = 20;
const UDP_BATCH_PACKETS = 500;
/** Datagrams read and not yet decoded, at most (about 45 MB of SIP; 5 s at 20,000 packets/s). */
const UDP_BACKLOG_PACKETS = 100_000;

interface TenantQueue {
  rows: TsvValue[][];
  counters: TenantCounters;
  /** The write loop under way, if any (one per instance: a slow storage holds up only its own instance). */
  draining: Promise<void> | null;
}

export async function startHepListener(
  deps: ListenerDeps,
  options: { host: string; port: number; limits?: Partial<ListenerLimits> },
): Promise<HepListener> {
  const requested = { ...DEFAULT_LIMITS, ...options.limits };
  const fdLimit = openFilesLimit();
  const limits: ListenerLimits = { ...requested, maxConnections: fdLimit ? Math.max(1, Math.min(requested.maxConnections, Math.floor(fdLimit / 4))) : requested.maxConnections };
  const counters: ListenerCounters = {
    received: 0, accepted: 0, stored: 0, malformed: 0, unauthorized: 0, writeFailures: 0, shed: 0, lookupsShed: 0, backlogShed: 0, connectionsRefused: 0, connectionsCut: 0,
  };
  // Valid keys are few (one per token) and kept apart from unknown ones, so that a flood of random keys cannot
  // push the valid ones out of the cache.
  const grants = new Map<string, { grant: KeyGrant; until: number }>();
  const unknown = new Map<string, number>();
  const lookups = new Map<string, Promise<KeyGrant | undefined>>();
  // Bumped by invalidate(): a lookup that was under way when the keys changed may carry the old answer (read before
  // the change committed), so it is neither cached nor shared with packets that arrive after the change.
  let generation = 0;
  const queues = new Map<string, TenantQueue>();
  let buffered = 0;
  let closed = false;

  async function grantOf(plainKey: string): Promise<KeyGrant | undefined | 'busy'> {
    // The caches hold hashes, not keys: a heap dump of the platform shows no usable key either.
    const key = hashIngestKey(plainKey);
    const now = Date.now();
    const hit = grants.get(key);
    if (hit && hit.until > now) return hit.grant;
    const miss = unknown.get(key);
    if (miss !== undefined && miss > now) return undefined;
    let pending = lookups.get(key);
    if (!pending) {
      if (lookups.size >= limits.keyLookups) return 'busy';
      const started = deps.lookupKey(key).finally(() => {
        if (lookups.get(key) === started) lookups.delete(key);
      });
      pending = started;
      lookups.set(key, pending);
    }
    const asked = generation;
    const grant = await pending;
    if (asked !== generation) return grant;
    if (grant) grants.set(key, { grant, until: now + limits.keyCacheMs });
    else {
      if (unknown.size >= NEGATIVE_KEYS) unknown.clear();
      unknown.set(key, now + limits.keyCacheMs);
    }
    return grant;
  }

  function queueOf(instanceId: string): TenantQueue {
    let queue = queues.get(instanceId);
    if (!queue) queues.set(instanceId, (queue = { rows: [], counters: { accepted: 0, stored: 0, shed: 0, failed: 0, queued: 0 }, draining: null }));
    return queue;
  }

  /** Queues one decoded packet's row for its instance, or drops and counts it (no valid key, queue full). */
  function admit(grant: KeyGrant | undefined | 'busy', now: number, row: () => TsvValue[]): void {
    if (grant === 'busy') {
      counters.lookupsShed++;
      counters.unauthorized++;
      return;
    }
    // Expiry is checked on every packet against the business clock, so a cached grant never outlives its token.
    if (!grant || (grant.expiresAtMs !== null && grant.expiresAtMs <= now)) {
      counters.unauthorized++;
      return;
    }
    const queue = queueOf(grant.instanceId);
    if (queue.rows.length >= limits.tenantQueueRows || buffered >= limits.totalQueueRows) {
      counters.shed++;
      queue.counters.shed++;
      return;
    }
    counters.accepted++;
    queue.counters.accepted++;
    queue.rows.push(row());
    buffered++;
    if (queue.rows.length >= MAX_BATCH && !queue.draining) void drain(grant.instanceId, queue);
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
    admit(grant, now, () => toRow(decoded.packet, transport, now));
  }

  /**
   * A batch from the UDP worker: each distinct key is looked up once, then the packets are admitted in the order
   * they were read. Receive times are moved onto the business clock (the worker reads by the wall clock).
   */
  async function acceptUdp(batch: UdpBatch): Promise<void> {
    counters.received += batch.received;
    counters.malformed += batch.malformed;
    counters.backlogShed += batch.backlogShed;
    const keys = [...new Set(batch.keys)].filter((key) => key !== '');
    const grants = await Promise.all(keys.map((key) => grantOf(key).catch(() => undefined)));
    const byKey = new Map(keys.map((key, i) => [key, grants[i]]));
    const now = deps.nowMs();
    const offset = now - Date.now();
    for (let i = 0; i < batch.rows.length; i++) {
      admit(batch.keys[i] === '' ? undefined : byKey.get(batch.keys[i]), now, () => {
        const row = batch.rows[i];
        if (offset !== 0) setReceived(row, batch.receivedMs[i] + offset);
        return row;
      });
    }
  }

  // Batches from the UDP worker whose keys are being looked up: flush() waits for them.
  const admitting = new Set<Promise<void>>();
  const onUdpBatch = (batch: UdpBatch) => {
    const run = acceptUdp(batch)
      .catch((error: unknown) => {
        counters.malformed += batch.rows.length;
        deps.log(`[hepic] UDP packets refused: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => admitting.delete(run));
    admitting.add(run);
  };

  /** Writes an instance's queue until it is empty; rows that arrive meanwhile go in the next insert. */
  function drain(instanceId: string, queue: TenantQueue): Promise<void> {
    if (queue.draining) return queue.draining;
    const run = async () => {
      while (queue.rows.length > 0) {
        const rows = queue.rows.splice(0, MAX_INSERT_ROWS);
        try {
          await deps.write(instanceId, rows);
          counters.stored += rows.length;
          queue.counters.stored += rows.length;
        } catch (error) {
          counters.writeFailures += rows.length;
          queue.counters.failed += rows.length;
          deps.log(`[hepic] ${rows.length} packets of instance ${instanceId} were not stored: ${error instanceof Error ? error.message : String(error)}`);
        } finally {
          buffered -= rows.length;
        }
      }
    };
    // Cleared in a .finally callback, which always runs after this assignment (even when run() finishes at once).
    queue.draining = run().finally(() => {
      queue.draining = null;
    });
    return queue.draining;
  }

  async function flush(instanceId?: string): Promise<void> {
    // What the UDP worker has read is handed over and admitted first, so that flush() writes it too.
    await udp.flush();
    await Promise.all([...admitting]);
    const targets = instanceId === undefined ? [...queues.entries()] : queues.has(instanceId) ? [[instanceId, queues.get(instanceId)!] as const] : [];
    return Promise.all(targets.map(([id, queue]) => drain(id, queue))).then(() => undefined);
  }

  // Each tick starts the write of every instance that has rows and no write under way; an instance whose write
  // is stalled is simply skipped (its queue grows up to its own cap).
  const timer = setInterval(() => {
    for (const [id, queue] of queues) if (queue.rows.length > 0 && !queue.draining) void drain(id, queue);
  }, FLUSH_INTERVAL_MS);
  timer.unref();

  const handle = (bytes: Buffer, transport: Transport) => {
    void accept(bytes, transport).catch((error: unknown) => {
      counters.malformed++;
      deps.log(`[hepic] packet refused: ${error instanceof Error ? error.message : String(error)}`);
    });
  };

  const tcpSockets = new Set<TcpSocket>();
  const perAddress = new Map<string, number>();
  const tcp: Server = createServer((socket) => {
    const address = socket.remoteAddress ?? '';
    const fromAddress = perAddress.get(address) ?? 0;
    if (closed || tcpSockets.size >= limits.maxConnections || fromAddress >= limits.maxConnectionsPerAddress) {
      counters.connectionsRefused++;
      socket.on('error', () => undefined);
      socket.destroy();
      return;
    }
    tcpSockets.add(socket);
    perAddress.set(address, fromAddress + 1);
    let buffer: Buffer = Buffer.alloc(0);
    const cut = () => {
      counters.connectionsCut++;
      socket.destroy();
    };
    // Until a packet is complete the connection has packetTimeoutMs; between whole packets, idleTimeoutMs. A
    // connection that opens and sends nothing (or dribbles a packet) is closed within a few seconds.
    let deadline = setTimeout(cut, limits.packetTimeoutMs);
    const rearm = (ms: number) => {
      clearTimeout(deadline);
      deadline = setTimeout(cut, ms);
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      const { packets, rest, broken } = splitStream(buffer);
      for (const packet of packets) handle(Buffer.from(packet), 'tcp');
      if (broken || rest.length > MAX_TCP_BUFFER) {
        // A stream that lost its framing cannot be read further: the sender reconnects.
        counters.malformed++;
        cut();
        return;
      }
      if (packets.length > 0) rearm(rest.length > 0 ? limits.packetTimeoutMs : limits.idleTimeoutMs);
      buffer = Buffer.from(rest);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(deadline);
      tcpSockets.delete(socket);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
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

  let udp: Awaited<ReturnType<typeof startUdpReader>>;
  try {
    udp = await startUdpReader(
      { host: options.host, port, receiveBufferBytes: limits.udpReceiveBufferBytes, batchPackets: UDP_BATCH_PACKETS, batchMs: UDP_BATCH_MS, maxBacklogPackets: UDP_BACKLOG_PACKETS },
      onUdpBatch,
      deps.log,
    );
  } catch (error) {
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
    throw error;
  }
  // Linux reports twice the granted size; less than twice the request means net.core.rmem_max capped it.
  const capped = process.platform === 'linux' && udp.receiveBufferBytes < 2 * limits.udpReceiveBufferBytes;
  deps.log(
    `[hepic] HEP endpoint on port ${port}: UDP receive buffer ${udp.receiveBufferBytes} bytes (asked for ${limits.udpReceiveBufferBytes}` +
      (capped ? '; capped by net.core.rmem_max: raise it as root, see scripts/install-udp-buffers.sh)' : ')'),
  );

  return {
    port,
    counters,
    limits,
    udpReceiveBufferBytes: udp.receiveBufferBytes,
    tenant(instanceId) {
      const queue = queues.get(instanceId);
      return queue ? { ...queue.counters, queued: queue.rows.length } : { accepted: 0, stored: 0, shed: 0, failed: 0, queued: 0 };
    },
    connections: () => tcpSockets.size,
    flush,
    invalidate: () => {
      generation++;
      grants.clear();
      unknown.clear();
      lookups.clear();
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      // The worker closes its socket and hands over what it read before its thread ends.
      await udp.close();
      for (const socket of tcpSockets) socket.destroy();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
      await Promise.all([...admitting]);
      // What is queued is written, but a stalled storage does not hold up the platform's shutdown.
      await Promise.race([flush(), new Promise((resolve) => setTimeout(resolve, CLOSE_FLUSH_MS).unref())]);
    },
  };
}
