import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzipSync, inflateSync } from 'node:zlib';
import { uncompressSync } from 'snappy';
import type { Queryable } from '../../db/database';
import { Batch, IngestError } from './ingest/batch';
import { decodeBulk } from './ingest/elastic';
import { decodeInflux } from './ingest/influx';
import { decodeLokiJson, decodeLokiProto } from './ingest/loki';
import { decodeRemoteWrite } from './ingest/prometheus';
import { decodeOtlp, decodeOtlpProto, decodeZipkin } from './ingest/traces';
import type { Writer } from './ingest/writer';
import { findInstance, findInstanceByCredentials, findToken, hashSecret, type QrynInstanceRow } from './qryn-repository';
import { createReader, parseStep, parseTime } from './read';
import { StorageError, type StorageClient } from './storage-client';

// The ingestion gateway and read side of every instance, on the platform's origin under GATEWAY_PREFIX:
//   {PUBLIC_URL}/qryn/{instanceId}/loki/api/v1/push, …/api/v1/prom/remote/write, …/api/v1/query_range, …
// Authentication (docs/qryn.md): HTTP basic with the API key and secret (read and write); or a scoped token as
// `Authorization: Bearer <token>`, `Authorization: Token <token>` (InfluxDB clients), or basic auth with any user
// name and the token as password (Grafana datasources). Write paths need the write scope, read paths the read scope.

export const GATEWAY_PREFIX = '/qryn';

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_DECODED_BYTES = 64 * 1024 * 1024;
const AUTH_CACHE_MS = 2_000;
/** How long the server-side cache (the Config page's switch) keeps a label or series lookup. */
export const LOOKUP_CACHE_MS = 30_000;
const LOOKUP_CACHE_ENTRIES = 5_000;
/** The gateway's answer to the drilldown's calls while the Config page's switch is off. */
export const DRILLDOWN_OFF_MESSAGE = 'Logs drilldown is turned off for this instance: turn it on in the Config page of the console.';

type Scope = 'read' | 'write';
interface Access {
  instance: QrynInstanceRow;
  scopes: Set<Scope>;
}

export interface GatewayDeps {
  db: Queryable;
  writer: Writer;
  /** The storage client of an instance (resolved from its cloud resource). */
  storage(instance: QrynInstanceRow): Promise<StorageClient>;
  nowMs(): number;
  log(message: string): void;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function createGateway(deps: GatewayDeps) {
  const accessCache = new Map<string, { until: number; access: Access | null }>();
  const lookupCache = new Map<string, { until: number; value: unknown }>();

  /**
   * The server-side cache (docs/qryn.md): with the instance's switch on, label names, label values and series
   * lookups are kept for LOOKUP_CACHE_MS under the path, the days of the range (what those lookups read) and the
   * other parameters; the answer says `x-qryn-cache: hit | miss | off`. Writes do not clear it: a series first
   * seen after a lookup shows in that lookup at most LOOKUP_CACHE_MS later.
   */
  async function lookup<T>(res: ServerResponse, access: Access, key: string, compute: () => Promise<T>): Promise<T> {
    if (!access.instance.cache_enabled) {
      res.setHeader('x-qryn-cache', 'off');
      return compute();
    }
    const full = `${access.instance.id}|${key}`;
    const hit = lookupCache.get(full);
    if (hit && hit.until > Date.now()) {
      res.setHeader('x-qryn-cache', 'hit');
      return hit.value as T;
    }
    const value = await compute();
    if (lookupCache.size >= LOOKUP_CACHE_ENTRIES) lookupCache.clear();
    lookupCache.set(full, { until: Date.now() + LOOKUP_CACHE_MS, value });
    res.setHeader('x-qryn-cache', 'miss');
    return value;
  }
  const dayKey = (range: { startNs: bigint; endNs: bigint }) =>
    `${new Date(Number(range.startNs / 1_000_000n)).toISOString().slice(0, 10)}..${new Date(Number(range.endNs / 1_000_000n)).toISOString().slice(0, 10)}`;

  async function authenticate(req: IncomingMessage, instanceId: string): Promise<Access> {
    const header = req.headers.authorization ?? '';
    // The console's qryn View sends x-qryn-view: a refusal then carries no challenge, so the browser shows no
    // login prompt of its own (the View asks for the credential itself).
    const challenge: Record<string, string> = req.headers['x-qryn-view'] ? {} : { 'www-authenticate': 'Basic realm="qryn"' };
    if (!header) throw new HttpError(401, 'Authentication is required: basic auth with the API key and secret, or a token.', challenge);
    const key = `${instanceId}|${hashSecret(header)}`;
    const cached = accessCache.get(key);
    let access: Access | null;
    if (cached && cached.until > Date.now()) access = cached.access;
    else {
      access = await resolveAccess(header, instanceId);
      if (accessCache.size > 10_000) accessCache.clear();
      accessCache.set(key, { until: Date.now() + AUTH_CACHE_MS, access });
    }
    if (!access) throw new HttpError(401, 'The credentials are not valid for this instance.', challenge);
    return access;
  }

  async function resolveAccess(header: string, instanceId: string): Promise<Access | null> {
    const [scheme, ...rest] = header.trim().split(/\s+/);
    const value = rest.join(' ');
    let user: string | undefined;
    let secret: string;
    if (/^basic$/i.test(scheme)) {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return null;
      user = decoded.slice(0, colon);
      secret = decoded.slice(colon + 1);
    } else if (/^(bearer|token)$/i.test(scheme)) {
      const colon = value.indexOf(':');
      if (colon > 0) {
        user = value.slice(0, colon);
        secret = value.slice(colon + 1);
      } else secret = value;
    } else return null;
    if (user) {
      const instance = await findInstanceByCredentials(deps.db, user, secret);
      if (instance) return instance.id === instanceId ? { instance, scopes: new Set(['read', 'write']) } : null;
    }
    const token = await findToken(deps.db, secret);
    if (!token || token.instance_id !== instanceId) return null;
    const instance = await findInstance(deps.db, instanceId);
    if (!instance) return null;
    return { instance, scopes: new Set(token.scope.split(' ') as Scope[]) };
  }

  function require(access: Access, scope: Scope) {
    if (!access.scopes.has(scope)) {
      throw new HttpError(403, scope === 'write' ? 'This token may only read: pushing data needs a token with the write scope.' : 'This token may only write: reading needs a token with the read scope.');
    }
  }

  async function readRaw(req: IncomingMessage): Promise<Buffer> {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      req.resume();
      throw new HttpError(413, `The body must be at most ${MAX_BODY_BYTES} bytes.`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) throw new HttpError(413, `The body must be at most ${MAX_BODY_BYTES} bytes.`);
      chunks.push(chunk as Buffer);
    }
    const raw = Buffer.concat(chunks);
    const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
    try {
      if (encoding === 'gzip') return gunzipSync(raw, { maxOutputLength: MAX_DECODED_BYTES });
      if (encoding === 'deflate') return inflateSync(raw, { maxOutputLength: MAX_DECODED_BYTES });
    } catch (error) {
      if (error instanceof HttpError || error instanceof IngestError) throw error;
      throw new IngestError(`The body could not be decompressed (${encoding}).`);
    }
    // Prometheus sends `Content-Encoding: snappy` with remote write; the protobuf paths always decompress snappy.
    if (encoding && encoding !== 'identity' && encoding !== 'snappy') throw new HttpError(415, `Unsupported content encoding "${encoding.slice(0, 20)}".`);
    return raw;
  }

  const contentType = (req: IncomingMessage) => String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();

  function json(raw: Buffer): unknown {
    try {
      return JSON.parse(raw.toString('utf8'));
    } catch {
      throw new IngestError('The body is not valid JSON.');
    }
  }

  async function formParams(req: IncomingMessage, url: URL): Promise<URLSearchParams> {
    const params = new URLSearchParams(url.search);
    if (req.method === 'POST') {
      if (contentType(req) !== 'application/x-www-form-urlencoded') throw new HttpError(415, 'Send the parameters form-encoded (application/x-www-form-urlencoded).');
      for (const [k, v] of new URLSearchParams((await readRaw(req)).toString('utf8'))) params.append(k, v);
    }
    return params;
  }

  async function push(access: Access, batch: Batch): Promise<void> {
    if (batch.size === 0) return;
    const client = await deps.storage(access.instance);
    await deps.writer.write({ id: access.instance.id, database: access.instance.database_name, client, fingerprintLimit: access.instance.fingerprint_limit }, batch);
  }

  const nowNs = () => BigInt(deps.nowMs()) * 1_000_000n;

  async function route(req: IncomingMessage, res: ServerResponse, instanceId: string, path: string, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    if (path === '/ready' && method === 'GET') return text(res, 200, 'ready');
    if (!/^[a-f0-9]{16,40}$/.test(instanceId)) throw new HttpError(404, 'There is no qryn instance at this address.');
    const access = await authenticate(req, instanceId);
    const isPush = method === 'POST' && PUSH_PATHS.some((p) => p.test(path));
    require(access, isPush ? 'write' : 'read');

    if (isPush) {
      const batch = new Batch();
      const raw = await readRaw(req);
      const type = contentType(req);
      if (path === '/loki/api/v1/push' || path === '/api/prom/push') {
        if (type === 'application/x-protobuf') decodeLokiProto(unsnappy(raw), batch);
        else decodeLokiJson(json(raw), batch);
        await push(access, batch);
        return empty(res, 204);
      }
      if (/^\/(api\/v1\/prom\/remote\/write|api\/prom\/remote\/write|prom\/remote\/write|api\/v1\/write)$/.test(path)) {
        decodeRemoteWrite(unsnappy(raw), batch);
        await push(access, batch);
        return empty(res, 204);
      }
      if (/^\/(write|api\/v2\/write|influx\/write|influx\/api\/v2\/write)$/.test(path)) {
        decodeInflux(raw.toString('utf8'), url.searchParams.get('precision') ?? undefined, nowNs(), batch);
        await push(access, batch);
        return empty(res, 204);
      }
      const bulk = /^\/(?:([^/_][^/]*)\/)?_bulk$/.exec(path);
      if (bulk) {
        const started = Date.now();
        const items = decodeBulk(raw.toString('utf8'), bulk[1] ? decodeURIComponent(bulk[1]) : undefined, nowNs(), batch);
        await push(access, batch);
        return sendJson(res, 200, { took: Date.now() - started, errors: false, items: items.map((i) => ({ [i.action]: { _index: i.index, result: 'created', status: 201 } })) });
      }
      if (/^\/(api\/v2\/spans|tempo\/api\/push|tempo\/spans)$/.test(path)) {
        decodeZipkin(json(raw), batch);
        await push(access, batch);
        return empty(res, 202);
      }
      if (path === '/v1/traces') {
        if (type === 'application/x-protobuf') {
          decodeOtlpProto(raw, batch);
          await push(access, batch);
          res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': 0 });
          return void res.end();
        }
        decodeOtlp(json(raw), batch);
        await push(access, batch);
        return sendJson(res, 200, {});
      }
    }

    const reader = createReader(await deps.storage(access.instance), access.instance.database_name);
    const now = nowNs();
    const hour = 3600n * 1_000_000_000n;
    if (method === 'GET' && path === '/loki/api/v1/labels') {
      const range = lokiRange(url.searchParams, now, hour);
      return success(res, await lookup(res, access, `${path}|${dayKey(range)}`, () => reader.labelNames('logs', range)));
    }
    const lokiValues = /^\/loki\/api\/v1\/label\/([^/]+)\/values$/.exec(path);
    if (method === 'GET' && lokiValues) {
      const range = lokiRange(url.searchParams, now, hour);
      return success(res, await lookup(res, access, `${path}|${dayKey(range)}`, () => reader.labelValues('logs', decodeURIComponent(lokiValues[1]), range)));
    }
    if ((method === 'GET' || method === 'POST') && path === '/loki/api/v1/index/volume') {
      // The logs drilldown's call: answered only while the instance's drilldown switch is on.
      if (!access.instance.use_drilldown) throw new HttpError(404, DRILLDOWN_OFF_MESSAGE);
      const params = await formParams(req, url);
      const query = params.get('query');
      if (!query) throw new IngestError('The query parameter is required.');
      const range = lokiRange(params, now, hour);
      const limit = Number(params.get('limit') ?? 100);
      if (!Number.isInteger(limit) || limit < 1 || limit > 5000) throw new IngestError('The limit must be a whole number from 1 to 5000.');
      const volume = await reader.logVolume(query, range, limit);
      const at = Number(range.endNs / 1_000_000n) / 1000;
      return success(res, {
        resultType: 'vector',
        result: volume.map((v) => ({ metric: v.stream, value: [at, String(v.bytes)], lines: v.lines })),
      });
    }
    if ((method === 'GET' || method === 'POST') && (path === '/loki/api/v1/query_range' || path === '/loki/api/v1/query')) {
      const params = await formParams(req, url);
      const query = params.get('query');
      if (!query) throw new IngestError('The query parameter is required.');
      const range = path.endsWith('query')
        ? { startNs: parseTime(params.get('time') ?? undefined, now, 'loki') - hour, endNs: parseTime(params.get('time') ?? undefined, now, 'loki') }
        : lokiRange(params, now, hour);
      const limit = Number(params.get('limit') ?? 100);
      if (!Number.isInteger(limit) || limit < 1 || limit > 5000) throw new IngestError('The limit must be a whole number from 1 to 5000.');
      const direction = (params.get('direction') ?? 'backward').toLowerCase();
      if (direction !== 'backward' && direction !== 'forward') throw new IngestError('The direction must be backward or forward.');
      const result = await reader.logStreams(query, range, limit, direction);
      return success(res, { resultType: 'streams', result, stats: { summary: { totalEntriesReturned: result.reduce((n, s) => n + s.values.length, 0) } } });
    }
    if ((method === 'GET' || method === 'POST') && path === '/api/v1/query_range') {
      const params = await formParams(req, url);
      const query = params.get('query');
      if (!query) throw new IngestError('The query parameter is required.');
      const start = parseTime(params.get('start') ?? undefined, now - hour, 'prometheus');
      const end = parseTime(params.get('end') ?? undefined, now, 'prometheus');
      return success(res, { resultType: 'matrix', result: await reader.matrix(query, start, end, parseStep(params.get('step') ?? undefined)) });
    }
    if ((method === 'GET' || method === 'POST') && path === '/api/v1/query') {
      const params = await formParams(req, url);
      const query = params.get('query');
      if (!query) throw new IngestError('The query parameter is required.');
      const time = parseTime(params.get('time') ?? undefined, now, 'prometheus');
      const matrix = await reader.matrix(query, time, time, 1_000_000_000n);
      return success(res, { resultType: 'vector', result: matrix.map((m) => ({ metric: m.metric, value: m.values[0] })) });
    }
    if ((method === 'GET' || method === 'POST') && path === '/api/v1/series') {
      const params = await formParams(req, url);
      const selectors = params.getAll('match[]');
      if (selectors.length === 0) throw new IngestError('At least one match[] selector is required.');
      const range = promRange(params, now);
      return success(res, await lookup(res, access, `${path}|${dayKey(range)}|${JSON.stringify(selectors)}`, () => reader.series(selectors, range)));
    }
    if ((method === 'GET' || method === 'POST') && path === '/api/v1/labels') {
      const params = await formParams(req, url);
      const range = promRange(params, now);
      return success(res, await lookup(res, access, `${path}|${dayKey(range)}`, () => reader.labelNames('metrics', range)));
    }
    const promValues = /^\/api\/v1\/label\/([^/]+)\/values$/.exec(path);
    if (method === 'GET' && promValues) {
      const range = promRange(url.searchParams, now);
      return success(res, await lookup(res, access, `${path}|${dayKey(range)}`, () => reader.labelValues('metrics', decodeURIComponent(promValues[1]), range)));
    }
    const trace = /^\/(?:tempo\/)?api\/traces\/([0-9a-fA-F]{1,32})$/.exec(path);
    if (method === 'GET' && trace) {
      const batches = await reader.trace(trace[1]);
      if (batches.length === 0) throw new HttpError(404, 'Trace not found.');
      return sendJson(res, 200, { batches });
    }
    if (method === 'GET' && path === '/api/v1/status/buildinfo') {
      // Prometheus-compatible reads; Grafana reads the version to choose its query features.
      return success(res, { version: '2.45.0', revision: 'qryn-platform', branch: 'qryn', buildUser: 'platform', buildDate: '', goVersion: '' });
    }
    if (PUSH_PATHS.some((p) => p.test(path))) throw new HttpError(405, 'Use POST to push data.', { allow: 'POST' });
    throw new HttpError(404, `There is no qryn call at ${path}.`);
  }

  const DAY = 86_400n * 1_000_000_000n;
  function lokiRange(params: URLSearchParams, now: bigint, hour: bigint) {
    const endNs = parseTime(params.get('end') ?? undefined, now, 'loki');
    const startNs = parseTime(params.get('start') ?? undefined, endNs - hour, 'loki');
    if (startNs > endNs) throw new IngestError('The start time must not be after the end time.');
    return { startNs, endNs };
  }
  function promRange(params: URLSearchParams, now: bigint) {
    const endNs = parseTime(params.get('end') ?? undefined, now, 'prometheus');
    const startNs = parseTime(params.get('start') ?? undefined, endNs - DAY, 'prometheus');
    if (startNs > endNs) throw new IngestError('The start time must not be after the end time.');
    return { startNs, endNs };
  }

  return {
    prefix: GATEWAY_PREFIX,
    /** Forget cached credentials (after a rotation, a token deletion or a release). */
    invalidate(): void {
      accessCache.clear();
      lookupCache.clear();
    },
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const url = new URL(req.url ?? '/', 'http://gateway.invalid');
      const match = /^\/qryn\/([^/]+)(\/.*)?$/.exec(url.pathname);
      try {
        if (!match) throw new HttpError(404, 'Add the instance id to the path: /qryn/{instanceId}/…');
        await route(req, res, match[1], match[2] ?? '/', url);
      } catch (error) {
        if (res.headersSent) return void res.destroy();
        if (error instanceof HttpError) return sendError(res, error.status, error.message, error.headers);
        if (error instanceof IngestError) return sendError(res, error.status, error.message);
        if (error instanceof StorageError) {
          // A bad regular expression that passed our check but not RE2's is the query's fault.
          if (error.code === 427) return sendError(res, 400, 'The regular expression is not valid.');
          deps.log(`[qryn] storage error on ${req.method} ${url.pathname}: ${error.message}`);
          return sendError(res, 503, 'The storage is not available at the moment. Try again later.');
        }
        deps.log(`[qryn] unexpected error on ${req.method} ${url.pathname}: ${error instanceof Error ? error.stack : String(error)}`);
        return sendError(res, 500, 'Something went wrong on our side. Please try again later.');
      }
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;

const PUSH_PATHS = [
  /^\/loki\/api\/v1\/push$/,
  /^\/api\/prom\/push$/,
  /^\/(api\/v1\/prom\/remote\/write|api\/prom\/remote\/write|prom\/remote\/write|api\/v1\/write)$/,
  /^\/(write|api\/v2\/write|influx\/write|influx\/api\/v2\/write)$/,
  /^\/(?:[^/_][^/]*\/)?_bulk$/,
  /^\/(api\/v2\/spans|tempo\/api\/push|tempo\/spans)$/,
  /^\/v1\/traces$/,
];

/** Snappy block format (Loki protobuf, remote write); the declared length is checked before decompressing. */
function unsnappy(raw: Buffer): Buffer {
  let length = 0;
  let shift = 0;
  for (let i = 0; i < Math.min(raw.length, 5); i++) {
    length += (raw[i] & 0x7f) * 2 ** shift;
    shift += 7;
    if ((raw[i] & 0x80) === 0) break;
  }
  if (raw.length === 0) throw new IngestError('The body is empty: a snappy-compressed protobuf message was expected.');
  if (length > MAX_DECODED_BYTES) throw new HttpError(413, 'The decompressed body is too large.');
  try {
    return uncompressSync(raw, { asBuffer: true }) as Buffer;
  } catch {
    throw new IngestError('The body is not snappy-compressed (block format).');
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), 'cache-control': 'no-store' });
  res.end(payload);
}

const success = (res: ServerResponse, data: unknown) => sendJson(res, 200, { status: 'success', data });

function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify({ status: 'error', errorType: status === 400 ? 'bad_data' : 'error', error: message, message });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), 'cache-control': 'no-store', ...headers });
  res.end(payload);
}

function empty(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'cache-control': 'no-store' });
  res.end();
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

