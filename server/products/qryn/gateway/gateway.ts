import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Queryable } from '../../../db/database';
import { Batch, IngestError } from '../ingest/batch';
import { decodeBulk } from '../ingest/elastic';
import { decodeInflux } from '../ingest/influx';
import { decodeLokiJson, decodeLokiProto } from '../ingest/loki';
import { decodeRemoteWrite } from '../ingest/prometheus';
import { decodeOtlp, decodeOtlpProto, decodeZipkin } from '../ingest/traces';
import type { Writer } from '../ingest/writer';
import { findInstance, findInstanceByCredentials, findToken, hashSecret, type QrynInstanceRow } from '../instances/qryn-repository';
import { StorageError, type StorageClient } from '../storage/storage-client';
import { STORAGE_RETRY_AFTER_S } from '../storage/storage-availability';
import {
  contentType, empty, HttpError, parseJsonBody as json, preloadForm, readBody as readRaw, sendError, sendJson, text, unsnappy,
  SESSION_BEARER, type Access, type ReadApi, type ReadRequest, type Scope,
} from '../http/gateway-http';
import { createGatewayGuards, gatewayLimits, type GatewayLimits } from './gateway-limits';
import type { SessionAuthenticator } from './gateway-session';
import { lokiApi, lokiQueryLimits } from '../read/loki-api';
import { createStoredBytesQuota, measureStoredBytes } from './stored-bytes';
import { lokiMetadataApi } from '../read/loki-metadata-api';
import { prometheusApi } from '../read/prometheus-api';
import { promqlSettings } from '../query/promql-settings';
import { readSchedulerSettings } from '../query/read-scheduler-settings';
import { instanceStorage } from '../query/read-scheduler-calls';
import { readSettings } from '../query/read-settings';
import { tempoApi } from '../read/tempo-api';

// The ingestion gateway and read side of every instance, on the platform's origin under GATEWAY_PREFIX:
//   {PUBLIC_URL}/qryn/{instanceId}/loki/api/v1/push, …/api/v1/prom/remote/write, …/api/v1/query_range, …
// Authentication (docs/qryn.md): HTTP basic with the API key and secret (read and write); or a scoped token as
// `Authorization: Bearer <token>`, `Authorization: Token <token>` (InfluxDB clients), or basic auth with any user
// name and the token as password (Grafana datasources); or the console's sign-in (gateway-session.ts), once the
// platform's API has handed the gateway its session check. Write paths need the write scope, read paths the read scope.

export const GATEWAY_PREFIX = '/qryn';

/**
 * How long `/ready` waits for the storage's answer: a stalled node must make it answer 503 quickly (a load balancer's
 * probe, and the status page's gateway check, which gives up after 2 s and would read the gateway itself as down).
 */
export const READY_PROBE_MS = 1_000;

/** `promise`'s answer, or false when it takes longer than `ms`. */
function within(promise: Promise<boolean>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });
}

/** How long the server-side cache (the Config page's switch) keeps a label or series lookup. */
export const LOOKUP_CACHE_MS = 30_000;
const LOOKUP_CACHE_ENTRIES = 5_000;
export { DRILLDOWN_OFF_MESSAGE } from '../read/loki-metadata-api';

/** The read APIs, asked in turn for a path that is not a push. */
const READ_APIS: ReadApi[] = [prometheusApi, lokiApi, lokiMetadataApi, tempoApi];

export interface GatewayDeps {
  db: Queryable;
  writer: Writer;
  /** The storage client of an instance (resolved from its cloud resource). */
  storage(instance: QrynInstanceRow): Promise<StorageClient>;
  /** Whether the shared storage answers on every node (the readiness probe `/ready`); absent: always ready. */
  storageReady?: () => Promise<boolean>;
  nowMs(): number;
  log(message: string): void;
  /** The gateway's limits (gateway-limits.ts); from the environment when not given. */
  limits?: GatewayLimits;
}

/** Credentials that signed in lately pass even while their key or address is throttled (only guesses are slowed). */
const KNOWN_GOOD_MS = 60 * 60_000;

/**
 * The query calls read their settings when the first query needs them; checking them when the gateway is made stops
 * the platform's start on a malformed value, naming the setting, instead of answering every query with 500.
 */
export function checkReadSettings(env: NodeJS.ProcessEnv): void {
  promqlSettings(env);
  lokiQueryLimits(env);
  readSchedulerSettings(env);
  readSettings(env);
}

export function createGateway(deps: GatewayDeps) {
  checkReadSettings(process.env);
  const limits = deps.limits ?? gatewayLimits(process.env);
  const guards = createGatewayGuards(limits);
  const storedBytes = createStoredBytesQuota<QrynInstanceRow>({
    maxBytes: limits.maxStoredBytes,
    refreshMs: limits.storedBytesRefreshMs,
    measure: async (instance) => measureStoredBytes(await deps.storage(instance), instance.database_name),
    log: deps.log,
  });
  const knownGood = new Map<string, number>();
  const accessCache = new Map<string, { until: number; access: Access | null }>();
  const lookupCache = new Map<string, { until: number; value: unknown }>();
  let sessions: SessionAuthenticator | undefined;

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

  /** `instanceId` undefined: the path carries none (a client resolved its push path relative to the instance URL). */
  async function authenticate(req: IncomingMessage, instanceId: string | undefined): Promise<Access> {
    const header = req.headers.authorization ?? '';
    // The console's qryn View sends x-qryn-view: a refusal then carries no challenge, so the browser shows no
    // login prompt of its own (the View asks for the credential itself).
    const challenge: Record<string, string> = req.headers['x-qryn-view'] ? {} : { 'www-authenticate': 'Basic realm="qryn"' };
    if (!header) throw new HttpError(401, 'Authentication is required: basic auth with the API key and secret, or a token.', challenge);
    // The console's access token: verified and cached by the API's caller resolver, not throttled as a guess (a
    // signed token cannot be guessed), and only on a path that names the instance.
    if (sessions && SESSION_BEARER.test(header)) {
      if (instanceId === undefined) throw new HttpError(401, 'The credentials are not valid for this instance.', challenge);
      try {
        return await sessions(req, () => findInstance(deps.db, instanceId));
      } catch (error) {
        if (error instanceof HttpError && error.status === 401) throw new HttpError(401, error.message, challenge);
        throw error;
      }
    }
    const key = `${instanceId ?? ''}|${hashSecret(header)}`;
    // Failed sign-ins are counted per credential (the API key, or the instance for tokens) and per address; past
    // the allowance only credentials that signed in lately get through until the window ends.
    const throttleKeys = [`key:${instanceId ?? ''}|${credentialName(header)}`, `addr:${req.socket.remoteAddress ?? ''}`];
    if ((knownGood.get(key) ?? 0) <= Date.now()) guards.checkLogin(instanceId ?? '', throttleKeys);
    const cached = accessCache.get(key);
    let access: Access | null;
    if (cached && cached.until > Date.now()) access = cached.access;
    else {
      access = await resolveAccess(header, instanceId);
      if (accessCache.size > 10_000) accessCache.clear();
      accessCache.set(key, { until: Date.now() + limits.authCacheMs, access });
    }
    if (!access) {
      guards.failedLogin(throttleKeys);
      throw new HttpError(401, 'The credentials are not valid for this instance.', challenge);
    }
    if (knownGood.size > 10_000) knownGood.clear();
    knownGood.set(key, Date.now() + KNOWN_GOOD_MS);
    return access;
  }

  /** Without an instance id the credential names the instance: a key pair and a token each belong to exactly one. */
  async function resolveAccess(header: string, instanceId: string | undefined): Promise<Access | null> {
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
      if (instance) return instanceId === undefined || instance.id === instanceId ? { instance, scopes: new Set(['read', 'write']) } : null;
    }
    const token = await findToken(deps.db, secret);
    if (!token || (instanceId !== undefined && token.instance_id !== instanceId)) return null;
    const instance = await findInstance(deps.db, token.instance_id);
    if (!instance) return null;
    return { instance, scopes: new Set(token.scope.split(' ') as Scope[]) };
  }

  function require(access: Access, scope: Scope) {
    if (!access.scopes.has(scope)) {
      throw new HttpError(403, scope === 'write' ? 'This token may only read: pushing data needs a token with the write scope.' : 'This token may only write: reading needs a token with the read scope.');
    }
  }

  async function push(access: Access, batch: Batch): Promise<void> {
    if (batch.size === 0) return;
    guards.admit(access.instance.id, { series: batch.series.size, samples: batch.size });
    const client = await deps.storage(access.instance);
    await deps.writer.write({ id: access.instance.id, database: access.instance.database_name, client, fingerprintLimit: access.instance.fingerprint_limit }, batch);
  }

  /** The stored-bytes quota (stored-bytes.ts), before the body is read: over it the push is refused unread. */
  async function admitStoredBytes(req: IncomingMessage, access: Access): Promise<void> {
    try {
      await storedBytes.admit(access.instance);
    } catch (error) {
      guards.overQuota(access.instance.id);
      req.resume();
      throw error;
    }
  }

  const nowNs = () => BigInt(deps.nowMs()) * 1_000_000n;

  /** One push: the body read under the in-flight bound, decoded, checked against the limits, written. */
  async function pushCall(req: IncomingMessage, res: ServerResponse, access: Access, path: string, url: URL, account: (bytes: number) => void): Promise<void> {
    const batch = new Batch();
    const raw = await readRaw(req, account);
    const type = contentType(req);
    if (path === '/loki/api/v1/push' || path === '/api/prom/push') {
      if (type === 'application/x-protobuf') decodeLokiProto(unsnappy(raw, account), batch);
      else decodeLokiJson(json(raw), batch);
      await push(access, batch);
      return empty(res, 204);
    }
    if (/^\/(api\/v1\/prom\/remote\/write|api\/prom\/remote\/write|prom\/remote\/write|api\/v1\/write)$/.test(path)) {
      decodeRemoteWrite(unsnappy(raw, account), batch);
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
    throw new HttpError(404, `There is no qryn call at ${path}.`);
  }

  /**
   * Query parameters over the documented length are refused before any read API parses them (413). A
   * form-encoded read carries them in its body: read here (bounded: percent-encoding may triple a character, plus
   * room for the other parameters), checked the same way, and handed to the read API through formParams.
   */
  async function checkQuerySize(req: IncomingMessage, url: URL): Promise<void> {
    const max = guards.limits.maxQueryLength;
    let params = url.searchParams;
    if (req.method === 'POST' && contentType(req) === 'application/x-www-form-urlencoded') {
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > 3 * max + 8192) {
        req.resume();
        throw new HttpError(413, `The form body is ${declared} bytes long; queries of at most ${max} characters are accepted.`);
      }
      params = await preloadForm(req, url);
    }
    for (const [name, value] of params) {
      if (value.length > max) throw new HttpError(413, `The parameter "${name.slice(0, 40)}" is ${value.length} characters long; at most ${max} characters are accepted.`);
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse, instanceId: string | undefined, path: string, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    if (path === '/ready' && method === 'GET') {
      // Ready means a push and a read would be served now: the storage answers on every node.
      if (deps.storageReady && !(await within(deps.storageReady(), READY_PROBE_MS))) {
        return sendError(res, 503, 'The storage is not available at the moment (a storage node does not answer). Try again later.', { 'retry-after': String(STORAGE_RETRY_AFTER_S) });
      }
      return text(res, 200, 'ready');
    }
    const access = await authenticate(req, instanceId);
    const isPush = method === 'POST' && PUSH_PATHS.some((p) => p.test(path));
    require(access, isPush ? 'write' : 'read');

    if (isPush) {
      await admitStoredBytes(req, access);
      const ticket = guards.ticket(access.instance.id);
      try {
        await pushCall(req, res, access, path, url, ticket.add);
      } finally {
        ticket.release();
      }
      return;
    }

    await checkQuerySize(req, url);
    const request: ReadRequest = {
      req, res, method, path, url, access,
      storage: instanceStorage(await deps.storage(access.instance), access.instance.read_limits),
      nowNs: nowNs(),
      lookup: (key, compute) => lookup(res, access, key, compute),
      dayKey,
      log: deps.log,
    };
    for (const api of READ_APIS) if (await api(request)) return;
    if (PUSH_PATHS.some((p) => p.test(path))) throw new HttpError(405, 'Use POST to push data.', { allow: 'POST' });
    throw new HttpError(404, `There is no qryn call at ${path}.`);
  }

  return {
    prefix: GATEWAY_PREFIX,
    /** What was refused of an instance (in-flight bound, limits, sign-in throttle) since the platform started. */
    refusals: guards.refusals,
    limits: guards.limits,
    /** The stored-bytes quota's last measure per instance (undefined before the first push measured it). */
    storedBytes: storedBytes.stored,
    /** Accepts the console's sign-in from now on (the API's caller resolver and membership rules). */
    acceptSessions(authenticator: SessionAuthenticator): void {
      sessions = authenticator;
    },
    /** Authenticates a request as every gateway read is (the live tail's WebSocket upgrade): read scope required. */
    async authorizeRead(req: IncomingMessage, instanceId: string): Promise<Access> {
      const access = await authenticate(req, instanceId);
      require(access, 'read');
      return access;
    },
    /** Forget cached credentials (after a rotation, a token deletion or a release). */
    invalidate(): void {
      accessCache.clear();
      knownGood.clear();
      lookupCache.clear();
      // A release, or a limit change: the next push measures again.
      storedBytes.forget();
    },
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const url = new URL(req.url ?? '/', 'http://gateway.invalid');
      try {
        try {
          decodeURIComponent(url.pathname);
        } catch {
          throw new HttpError(400, 'The path is not valid: a "%" must be followed by two hexadecimal digits of UTF-8.');
        }
        const target = gatewayTarget(url.pathname);
        if (!target) throw new HttpError(404, 'Add the instance id to the path: /qryn/{instanceId}/…');
        await route(req, res, target.instanceId, target.path, url);
      } catch (error) {
        if (res.headersSent) return void res.destroy();
        if (error instanceof HttpError) return sendError(res, error.status, error.message, error.headers);
        if (error instanceof IngestError) return sendError(res, error.status, error.message);
        if (error instanceof StorageError) {
          // A bad regular expression that passed our check but not RE2's is the query's fault.
          if (error.code === 427) return sendError(res, 400, 'The regular expression is not valid.');
          deps.log(`[qryn] storage error on ${req.method} ${url.pathname}: ${error.message}`);
          return sendError(res, 503, 'The storage is not available at the moment. Try again later.', { 'retry-after': String(STORAGE_RETRY_AFTER_S) });
        }
        deps.log(`[qryn] unexpected error on ${req.method} ${url.pathname}: ${error instanceof Error ? error.stack : String(error)}`);
        return sendError(res, 500, 'Something went wrong on our side. Please try again later.');
      }
    },
  };
}

/** What an instance id looks like (generated: lower-case hex); no call's first path segment does. */
const INSTANCE_ID = /^[a-f0-9]{16,40}$/;

/**
 * The instance and the call a gateway path names. Loki clients build the push URL from the instance URL
 * ({PUBLIC_URL}/qryn/{id}, no trailing slash) in three ways, and each must reach the instance:
 * - appending (winston-loki: host + '/loki/api/v1/push'): /qryn/{id}/loki/api/v1/push;
 * - appending to the URL given with a trailing slash: /qryn/{id}//loki/api/v1/push (repeated slashes count as one);
 * - resolving relative to it (pino-loki: new URL('loki/api/v1/push', host)), which replaces the last segment, the
 *   id: /qryn/loki/api/v1/push. Then the path names no instance (`instanceId` undefined) and the credential does:
 *   an API key pair and a token each belong to exactly one instance, so there is nothing to guess.
 * A first segment shaped like an instance id is always taken as one (no call's path starts with such a segment).
 */
export function gatewayTarget(pathname: string): { instanceId: string | undefined; path: string } | undefined {
  const squeezed = pathname.replace(/\/{2,}/g, '/');
  const match = /^\/qryn\/([^/]+)(\/.*)?$/.exec(squeezed);
  if (!match) return undefined;
  // `/qryn/{anything}/ready` is the readiness probe (no instance, no credential), as it always was.
  if (INSTANCE_ID.test(match[1]) || trimSlash(match[2] ?? '') === '/ready') return { instanceId: match[1], path: trimSlash(match[2] ?? '/') };
  return { instanceId: undefined, path: trimSlash(squeezed.slice('/qryn'.length)) };
}

const trimSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/** The name a credential signs in with: the API key of basic auth, '' for a token (counted per instance). */
function credentialName(header: string): string {
  const [scheme, value = ''] = header.trim().split(/\s+/, 2);
  if (!/^basic$/i.test(scheme)) return '';
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  return decoded.slice(0, Math.max(0, decoded.indexOf(':'))).slice(0, 200);
}

const PUSH_PATHS = [
  /^\/loki\/api\/v1\/push$/,
  /^\/api\/prom\/push$/,
  /^\/(api\/v1\/prom\/remote\/write|api\/prom\/remote\/write|prom\/remote\/write|api\/v1\/write)$/,
  /^\/(write|api\/v2\/write|influx\/write|influx\/api\/v2\/write)$/,
  /^\/(?:[^/_][^/]*\/)?_bulk$/,
  /^\/(api\/v2\/spans|tempo\/api\/push|tempo\/spans)$/,
  /^\/v1\/traces$/,
];

export type Gateway = ReturnType<typeof createGateway>;
