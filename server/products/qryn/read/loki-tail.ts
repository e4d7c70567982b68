import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { compileLogSelector, type CompiledLogSelector } from '../../../../packages/logql/log/stream-pipeline';
import { LogQLParseError } from '../../../../packages/logql/syntax/parse';
import { RegexError } from '../../../../packages/re2-pattern/re2-pattern';
import { IngestError } from '../ingest/batch';
import { HttpError, SESSION_BEARER, type Access } from '../http/gateway-http';
import type { QrynInstanceRow } from '../instances/qryn-repository';
import { StorageError, identifier, type StorageClient } from '../storage/storage-client';
import { dateClause, fingerprintsSql, labelsByFingerprint } from '../query/label-index';
import { parseTime } from '../http/time-params';
import { TAIL_CLOSE_REVOKED, TAIL_CLOSE_TOKEN_EXPIRED, TAIL_REVOKED_REASON, TAIL_TOKEN_EXPIRED_REASON } from '../../../../contract/qryn-tail';

// Loki's live tail, GET {instance}/loki/api/v1/tail?query=…&start=…&limit=…&delay_for=… as a WebSocket (what
// Grafana's Explore opens for "Live"). The storage is polled from a cursor: first the `limit` newest lines since
// `start` (as Loki sends its history), then every POLL_MS the lines after the cursor in the order
// (timestamp, stream fingerprint, hash of the line), at most BATCH at a time. Each frame is Loki's tail answer
// `{"streams":[{"stream":{…},"values":[["<ns>","<line>"]]}]}`: consecutive lines of one stream share an entry, so
// the lines in a frame, read in order, are in timestamp order. The query's pipeline (packages/logql) runs on each
// line. Lines that arrive with a timestamp older than what was already sent are not shown (Loki shows lines as its
// ingesters receive them); `delay_for` (up to 5 s) holds the newest seconds back so that slow senders catch up.

const NS_PER_S = 1_000_000_000n;
const POLL_MS = 1_000;
const BATCH = 1_000;
const MAX_PER_INSTANCE = 10;
const MAX_TOTAL = 200;
const MAX_DELAY_S = 5;
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 5_000;
/** A connection that has this much unsent is not read for until it drains. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const PING_MS = 30_000;
const MAX_UINT64 = '18446744073709551615';

export const TAIL_PATH = /^\/qryn\/([^/]+)\/loki\/api\/v1\/tail$/;

// A browser cannot set headers on a WebSocket, so the console's explorer offers two subprotocols: `loki-tail` and
// `qryn-auth.<base64url of the Authorization header's value>`. The credential then travels in a header (never in
// the URL, which proxies and access logs keep), the gateway authenticates it exactly as the header, and the answer
// selects `loki-tail` only, so the credential is never echoed. Clients that send Authorization (Grafana) are
// unchanged: the header wins.
export const TAIL_PROTOCOL = 'loki-tail';
const AUTH_PROTOCOL = /^qryn-auth\.([A-Za-z0-9_-]{1,2048})$/;

/** The Authorization value carried in the `qryn-auth.` subprotocol, if the request has one and no header. */
export function subprotocolAuthorization(req: IncomingMessage): string | undefined {
  if (req.headers.authorization) return undefined;
  const offered = String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim());
  if (!offered.includes(TAIL_PROTOCOL)) return undefined;
  for (const protocol of offered) {
    const match = AUTH_PROTOCOL.exec(protocol);
    if (match) return Buffer.from(match[1], 'base64url').toString('utf8');
  }
  return undefined;
}

export interface LiveTailDeps {
  /** Authenticates as the gateway does and requires the read scope (throws HttpError). */
  authorize(req: IncomingMessage, instanceId: string): Promise<Access>;
  storage(instance: QrynInstanceRow): Promise<StorageClient>;
  nowMs(): number;
  log(message: string): void;
  pollMs?: number;
  /**
   * How often an open tail's credential is checked again (the gateway's auth cache, authCacheMs: a revocation
   * closes the tail within twice this).
   */
  recheckMs: number;
  maxPerInstance?: number;
  maxTotal?: number;
}

interface Cursor {
  ts: bigint;
  fp: string;
  hash: string;
}

interface Row {
  fp: string;
  ts: string;
  hash: string;
  line: string;
}

interface Session {
  instanceId: string;
  ws: WebSocket;
  stop(): void;
}

export function createLiveTail(deps: LiveTailDeps) {
  const pollMs = deps.pollMs ?? POLL_MS;
  const maxPerInstance = deps.maxPerInstance ?? MAX_PER_INSTANCE;
  const maxTotal = deps.maxTotal ?? MAX_TOTAL;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, handleProtocols: (protocols) => (protocols.has(TAIL_PROTOCOL) ? TAIL_PROTOCOL : false) });
  const sessions = new Set<Session>();
  // Slots are taken before the first await, so that concurrent upgrades cannot pass the limits together.
  const reserved = new Map<string, number>();
  let reservedTotal = 0;
  let closed = false;

  function reserve(instanceId: string): () => void {
    if (reservedTotal >= maxTotal) throw new HttpError(429, `Too many live tails on this server (at most ${maxTotal}); try again later.`);
    if ((reserved.get(instanceId) ?? 0) >= maxPerInstance) throw new HttpError(429, `Too many live tails on this instance (at most ${maxPerInstance} at a time); close one first.`);
    reserved.set(instanceId, (reserved.get(instanceId) ?? 0) + 1);
    reservedTotal++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      reservedTotal--;
      const left = (reserved.get(instanceId) ?? 1) - 1;
      if (left > 0) reserved.set(instanceId, left);
      else reserved.delete(instanceId);
    };
  }

  function refuse(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
    const body = JSON.stringify({ status: 'error', errorType: status === 400 ? 'bad_data' : 'error', error: message, message });
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      'Connection: close',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    if (socket.writable) socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    else socket.destroy();
  }

  function parseParams(url: URL, nowNs: bigint) {
    const params = url.searchParams;
    const query = params.get('query');
    if (!query) throw new HttpError(400, 'The query parameter is required.');
    let selector: CompiledLogSelector;
    try {
      selector = compileLogSelector(query);
    } catch (error) {
      if (error instanceof LogQLParseError || error instanceof RegexError) throw new HttpError(400, error.message);
      throw error;
    }
    const limit = Number(params.get('limit') ?? DEFAULT_LIMIT);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new HttpError(400, `The limit must be a whole number from 1 to ${MAX_LIMIT}.`);
    const delay = Number(params.get('delay_for') ?? 0);
    if (!Number.isInteger(delay) || delay < 0) throw new HttpError(400, 'delay_for must be a whole number of seconds.');
    if (delay > MAX_DELAY_S) throw new HttpError(400, `delay_for can't be greater than ${MAX_DELAY_S}`);
    const startNs = parseTime(params.get('start') ?? undefined, nowNs - 3600n * NS_PER_S, 'loki');
    return { selector, limit, delayNs: BigInt(delay) * NS_PER_S, startNs };
  }

/**
   * Checks the tail's credential again. A refusal closes the tail: with TAIL_CLOSE_TOKEN_EXPIRED when it is a console
   * token past its expiry (the console reconnects with a fresh one), else TAIL_CLOSE_REVOKED. Any other failure (the
   * database busy) leaves the tail open until the next check.
   */
  async function recheck(req: IncomingMessage, instanceId: string): Promise<{ code: number; reason: string } | undefined> {
    try {
      await deps.authorize(req, instanceId);
      return undefined;
    } catch (error) {
      if (!(error instanceof HttpError) || (error.status !== 401 && error.status !== 403)) return undefined;
      return tokenExpired(req.headers.authorization ?? '', deps.nowMs())
        ? { code: TAIL_CLOSE_TOKEN_EXPIRED, reason: TAIL_TOKEN_EXPIRED_REASON }
        : { code: TAIL_CLOSE_REVOKED, reason: TAIL_REVOKED_REASON };
    }
  }

  function startSession(
    ws: WebSocket,
    req: IncomingMessage,
    instanceId: string,
    client: StorageClient,
    database: string,
    options: ReturnType<typeof parseParams>,
    release: () => void,
  ) {
    const db = identifier(database);
    const { selector } = options;
    const labelsByFp = new Map<string, Record<string, string>>();
    let cursor: Cursor | undefined;
    let timer: NodeJS.Timeout | undefined;
    let alive = true;
    let stopped = false;

    const stop = () => {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      clearInterval(ping);
      clearInterval(check);
      sessions.delete(session);
      release();
    };
    const session: Session = { instanceId, ws, stop };
    sessions.add(session);
    const ping = setInterval(() => {
      if (!alive) return void ws.terminate();
      alive = false;
      ws.ping();
    }, PING_MS);
    ws.on('pong', () => (alive = true));
    let checking = false;
    const check = setInterval(() => {
      if (checking || stopped) return;
      checking = true;
      void recheck(req, instanceId)
        .then((refused) => {
          if (!refused || stopped) return;
          deps.log(`[qryn] live tail of ${instanceId} closed: ${refused.reason}`);
          ws.close(refused.code, refused.reason);
          stop();
        })
        .finally(() => (checking = false));
    }, deps.recheckMs);
    ws.on('close', stop);
    ws.on('error', stop);
    // The client sends nothing but close frames; anything else is ignored.
    ws.on('message', () => undefined);

    const schedule = (ms: number) => {
      if (!stopped) timer = setTimeout(() => void poll(), ms);
    };

    async function poll(): Promise<void> {
      if (stopped) return;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) return schedule(pollMs);
      const nowNs = BigInt(deps.nowMs()) * 1_000_000n;
      const upper = nowNs - options.delayNs;
      try {
        let rows: Row[];
        if (!cursor) {
          // History first: the newest `limit` lines since start, sent oldest first.
          const range = { startNs: options.startNs, endNs: upper };
          rows = (
            await client.query<Row>(
              `SELECT toString(fingerprint) AS fp, toString(timestamp_ns) AS ts, toString(cityHash64(line)) AS hash, line FROM ${db}.log_samples
               WHERE ${dateClause(range)} AND timestamp_ns >= ${options.startNs} AND timestamp_ns <= ${upper}
                 AND fingerprint IN (${fingerprintsSql(db, 'logs', selector.matchers, range)})
               ORDER BY timestamp_ns DESC, fingerprint DESC, cityHash64(line) DESC LIMIT ${options.limit}`,
            )
          ).reverse();
          cursor = { ts: options.startNs - 1n, fp: MAX_UINT64, hash: MAX_UINT64 };
        } else {
          const range = { startNs: cursor.ts, endNs: upper > cursor.ts ? upper : cursor.ts };
          rows = await client.query<Row>(
            `SELECT toString(fingerprint) AS fp, toString(timestamp_ns) AS ts, toString(cityHash64(line)) AS hash, line FROM ${db}.log_samples
             WHERE ${dateClause(range)} AND timestamp_ns <= ${upper}
               AND (timestamp_ns > ${cursor.ts} OR (timestamp_ns = ${cursor.ts} AND (fingerprint > ${cursor.fp} OR (fingerprint = ${cursor.fp} AND cityHash64(line) > ${cursor.hash}))))
               AND fingerprint IN (${fingerprintsSql(db, 'logs', selector.matchers, range)})
             ORDER BY timestamp_ns, fingerprint, cityHash64(line) LIMIT ${BATCH}`,
          );
        }
        if (stopped) return;
        if (rows.length > 0) {
          const last = rows[rows.length - 1];
          cursor = { ts: BigInt(last.ts), fp: last.fp, hash: last.hash };
          const unknown = [...new Set(rows.map((r) => r.fp))].filter((fp) => !labelsByFp.has(fp));
          for (const [fp, labels] of await labelsByFingerprint(client, db, 'logs', unknown)) labelsByFp.set(fp, labels);
          const streams: { stream: Record<string, string>; values: [string, string][] }[] = [];
          let current: { key: string; entry: (typeof streams)[number] } | undefined;
          for (const row of rows) {
            const out = selector.process(row.line, labelsByFp.get(row.fp) ?? {}, BigInt(row.ts));
            if (!out) continue;
            const key = JSON.stringify(out.labels);
            if (!current || current.key !== key) {
              current = { key, entry: { stream: out.labels, values: [] } };
              streams.push(current.entry);
            }
            current.entry.values.push([row.ts, out.line]);
          }
          if (streams.length > 0 && ws.readyState === ws.OPEN) ws.send(JSON.stringify({ streams }));
        }
        // A full batch means more is waiting: read on at once.
        schedule(rows.length >= BATCH ? 0 : pollMs);
      } catch (error) {
        if (stopped) return;
        const message = error instanceof StorageError ? 'The storage is not available at the moment.' : 'The live tail stopped on an error.';
        deps.log(`[qryn] live tail of ${instanceId} stopped: ${error instanceof Error ? error.message : String(error)}`);
        ws.close(1011, message);
        stop();
      }
    }

    void poll();
  }

  return {
    /** Takes the upgrade when the path is a live tail (and answers it, accepted or refused); false otherwise. */
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
      const url = new URL(req.url ?? '/', 'http://gateway.invalid');
      const match = TAIL_PATH.exec(url.pathname);
      if (!match) return false;
      socket.on('error', () => undefined);
      const instanceId = match[1];
      let release: (() => void) | undefined;
      void (async () => {
        try {
          if (closed) throw new HttpError(503, 'The server is shutting down.');
          if (req.method !== 'GET') throw new HttpError(405, 'Open the live tail with GET.');
          if (!/^[a-f0-9]{16,40}$/.test(instanceId)) throw new HttpError(404, 'There is no qryn instance at this address.');
          release = reserve(instanceId);
          const carried = subprotocolAuthorization(req);
          if (carried) req.headers.authorization = carried;
          const access = await deps.authorize(req, instanceId);
          const options = parseParams(url, BigInt(deps.nowMs()) * 1_000_000n);
          const client = await deps.storage(access.instance);
          if (closed || socket.destroyed) throw new HttpError(503, 'The server is shutting down.');
          const taken = release;
          wss.handleUpgrade(req, socket, head, (ws) => {
            if (closed) {
              ws.close(1001, 'The server is shutting down.');
              return taken();
            }
            startSession(ws, req, instanceId, client, access.instance.database_name, options, taken);
          });
        } catch (error) {
          release?.();
          if (error instanceof HttpError) return refuse(socket, error.status, error.message, error.headers);
          if (error instanceof IngestError) return refuse(socket, error.status, error.message);
          if (error instanceof StorageError) return refuse(socket, 503, 'The storage is not available at the moment. Try again later.');
          deps.log(`[qryn] unexpected error opening a live tail: ${error instanceof Error ? error.stack : String(error)}`);
          refuse(socket, 500, 'Something went wrong on our side. Please try again later.');
        }
      })();
      return true;
    },

    /** The open live tails (of one instance, or all). */
    count(instanceId?: string): number {
      return [...sessions].filter((s) => !instanceId || s.instanceId === instanceId).length;
    },

    /** Closes every live tail (close frame 1001, then the socket) and refuses new ones; no timer is left. */
    async close(): Promise<void> {
      closed = true;
      const open = [...sessions];
      for (const session of open) {
        session.stop();
        session.ws.close(1001, 'The server is shutting down.');
      }
      await Promise.all(
        open.map(
          (s) =>
            new Promise<void>((resolve) => {
              if (s.ws.readyState === s.ws.CLOSED) return resolve();
              const force = setTimeout(() => {
                s.ws.terminate();
                resolve();
              }, 1_000);
              s.ws.once('close', () => {
                clearTimeout(force);
                resolve();
              });
            }),
        ),
      );
      wss.close();
    },
  };
}

export type LiveTail = ReturnType<typeof createLiveTail>;

/** Whether `authorization` is a console access token (a JWT) whose `exp` has passed. */
export function tokenExpired(authorization: string, nowMs: number): boolean {
  const match = SESSION_BEARER.exec(authorization);
  if (!match) return false;
  try {
    const payload = JSON.parse(Buffer.from(match[1].split('.')[1], 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' && payload.exp * 1000 <= nowMs;
  } catch {
    return false;
  }
}
