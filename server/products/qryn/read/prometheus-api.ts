import type { ServerResponse } from 'node:http';
import type { LabelMatcher } from '../../../../packages/promql/storage/querier';
import { RegexError } from '../../../../packages/re2-pattern/re2-pattern';
import { LABEL_NAME } from '../ingest/batch';
import { formParams, HttpError, type ReadRequest } from '../http/gateway-http';
import { createMetricsQuerier } from '../query/metrics-querier';
import { createPromqlPool, errorBody, type PromqlAnswer, type PromqlPool, type PromqlQuery } from '../query/promql-pool';
import { parseSecondsOrDuration } from '../../../../packages/promql/parser/duration';
import { promqlSettings, type PromqlSettings } from '../query/promql-settings';
import { promqlThroughCache } from '../query/range-cache-calls';
import { PromQLError } from '../../../../packages/promql/engine/errors';
import { parseExpr } from '../../../../packages/promql/parser/parse';
import { workerEndpoint } from '../query/query-worker-loop';
import { readScheduler, ReadRefused, ReadTimedOut } from '../query/read-scheduler';
import { bodyBytes, writeBody } from '../http/answer-json';
import { scheduledCall } from '../query/read-scheduler-calls';

// The Prometheus HTTP API of an instance (what Grafana's Prometheus datasource calls), answered as Prometheus 2.42
// shapes it: `{status: 'success', data, warnings?}`, errors `{status: 'error', errorType, error}` with 400 bad_data,
// 422 execution, 503 timeout. query and query_range are evaluated by the PromQL engine in the query workers
// (promql-pool.ts), each when the read scheduler gives the instance its turn (read-scheduler.ts: past the instance's
// share 429 too_many_requests with Retry-After, as Mimir answers); the metadata calls read the label index in this
// thread (they are single ClickHouse queries).

const DAY_MS = 86_400_000;
/** The version whose API and PromQL features are implemented; Grafana picks its query features by it. */
export const PROMETHEUS_VERSION = '2.42.0';

/** A client error answered in Prometheus' shape. */
class PromError extends Error {
  constructor(
    readonly errorType: 'bad_data' | 'execution' | 'timeout' | 'canceled' | 'unavailable' | 'internal' | 'too_many_requests',
    message: string,
    readonly status = errorType === 'bad_data' ? 400 : errorType === 'execution' ? 422 : errorType === 'internal' ? 500 : 503,
  ) {
    super(message);
  }
}

let settings: PromqlSettings | undefined;
let pool: PromqlPool | undefined;
function workers(): { pool: PromqlPool; settings: PromqlSettings } {
  settings ??= promqlSettings();
  pool ??= createPromqlPool(settings);
  return { pool, settings };
}

/** Stops the query workers (the platform's close); the next query starts them again. */
export async function closePromqlWorkers(): Promise<void> {
  const running = pool;
  pool = undefined;
  await running?.close();
}

function send(res: ServerResponse, answer: { status: number; body: string }, headers: Record<string, string> = {}): void {
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer.body), 'cache-control': 'no-store', ...headers });
  res.end(answer.body);
}

/** A query's answer, its pieces written as the client takes them (answer-json.ts). */
async function sendAnswer(res: ServerResponse, answer: PromqlAnswer, bytes: number): Promise<void> {
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes, 'cache-control': 'no-store' });
  await writeBody(res, answer.body);
}

const success = (res: ServerResponse, data: unknown) => send(res, { status: 200, body: JSON.stringify({ status: 'success', data }) });

/** 0001-01-01T00:00:00Z (Date.UTC would read the year 1 as 1901). */
const MIN_TIME_MS = -62_135_596_800_000;
const MAX_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Prometheus' time parameter: seconds since the epoch (with a fraction) or RFC 3339; in ms. */
function timeParam(params: URLSearchParams, name: string, fallbackMs?: number): number {
  const value = params.get(name);
  if (value === null || value === '') {
    if (fallbackMs === undefined) throw new PromError('bad_data', `invalid parameter "${name}": cannot parse "" to a valid timestamp`);
    return fallbackMs;
  }
  const ms = /^[+-]?\d+(\.\d+)?$/.test(value) ? Math.round(Number(value) * 1000) : /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new PromError('bad_data', `invalid parameter "${name}": cannot parse "${value.slice(0, 60)}" to a valid timestamp`);
  // Years 1 to 9999 (what RFC 3339 can write): beyond them a time is a client's mistake, not a query to run.
  if (ms < MIN_TIME_MS || ms > MAX_TIME_MS) throw new PromError('bad_data', `invalid parameter "${name}": "${value.slice(0, 60)}" is out of range: times between the years 1 and 9999 are accepted`);
  return ms;
}

function durationParam(params: URLSearchParams, name: string): number | undefined {
  const value = params.get(name);
  if (value === null || value === '') return undefined;
  return apiDuration(name, value);
}

function apiDuration(name: string, value: string): number {
  try {
    return parseSecondsOrDuration(value);
  } catch (error) {
    throw new PromError('bad_data', `invalid parameter "${name}": ${(error as Error).message}`);
  }
}

/** match[] series selectors, read by the engine's parser (the same grammar and checks as queries). */
function selectorsParam(params: URLSearchParams): LabelMatcher[][] {
  return params.getAll('match[]').map((text) => {
    let expr;
    try {
      expr = parseExpr(text);
    } catch (error) {
      if (error instanceof PromQLError || error instanceof RegexError) throw new PromError('bad_data', `invalid parameter "match[]": ${error.message}`);
      throw error;
    }
    if (expr.kind !== 'VectorSelector') throw new PromError('bad_data', `invalid parameter "match[]": "${text.slice(0, 100)}" is not a series selector`);
    return expr.matchers;
  });
}

/** start/end of the metadata calls (labels, label values, series): the last day by default. */
function rangeParams(params: URLSearchParams, nowMs: number) {
  const endMs = timeParam(params, 'end', nowMs);
  const startMs = timeParam(params, 'start', endMs - DAY_MS);
  if (endMs < startMs) throw new PromError('bad_data', 'invalid parameter "end": end timestamp must not be before start time');
  return { startNs: BigInt(startMs) * 1_000_000n, endNs: BigInt(endMs) * 1_000_000n + 999_999n };
}

const TIMED_OUT = { status: 503, body: errorBody('timeout', 'query timed out in query execution') };

async function evaluate(r: ReadRequest, query: PromqlQuery, params: URLSearchParams): Promise<void> {
  const { pool, settings } = workers();
  const asked = durationParam(params, 'timeout');
  const timeoutMs = asked === undefined ? settings.timeoutMs : Math.min(asked, settings.timeoutMs);
  const endpoint = await workerEndpoint(r.storage.endpoint);
  // The client going away cancels the evaluation in the worker, or the read while it waits for its turn.
  const gone = new AbortController();
  const onClose = () => {
    if (!r.res.writableEnded) gone.abort();
  };
  r.res.on('close', onClose);
  const instanceId = r.access.instance.id;
  const scheduler = readScheduler();
  try {
    // A range query's kept intervals come from the results cache; what is left is one evaluation, in the instance's turn.
    const answer = await promqlThroughCache(r, query, (q) =>
      scheduler.run(
        instanceId,
        'promql',
        async (signal, start) => {
          // The worker gets what is left of the deadline after the wait for the turn.
          const job = { endpoint, database: r.access.instance.database_name, query: q, timeoutMs: start.remainingMs() };
          const answer = await pool.run(job, signal, start.background ? 'low' : 'normal');
          // The deadline's abort may reach the worker before its own timer: the answer is the timeout either way.
          return signal.reason instanceof ReadTimedOut ? TIMED_OUT : answer;
        },
        { signal: gone.signal, timeoutMs },
      ),
    );
    const bytes = bodyBytes(answer.body);
    await sendAnswer(r.res, answer, bytes);
    scheduler.answered(instanceId, bytes);
  } catch (error) {
    if (error instanceof ReadRefused) {
      send(r.res, { status: 429, body: errorBody('too_many_requests', error.message) }, { 'retry-after': String(error.retryAfterSeconds) });
    } else if (error instanceof ReadTimedOut) send(r.res, TIMED_OUT);
    else if (gone.signal.aborted) send(r.res, { status: 503, body: errorBody('canceled', 'query was canceled in query execution') });
    else throw error;
  } finally {
    r.res.off('close', onClose);
  }
}

const GET_PATHS = new Set(['/api/v1/metadata', '/api/v1/rules', '/api/v1/alerts', '/api/v1/status/buildinfo', '/api/v1/status/runtimeinfo']);
const QUERY_PATHS = new Set(['/api/v1/query', '/api/v1/query_range', '/api/v1/format_query', '/api/v1/query_exemplars', '/api/v1/series', '/api/v1/labels']);

export async function prometheusApi(r: ReadRequest): Promise<boolean> {
  const { res, method, path } = r;
  const get = method === 'GET';
  const getOrPost = get || method === 'POST';
  const labelValues = /^\/api\/v1\/label\/([^/]+)\/values$/.exec(path);
  const known = (getOrPost && QUERY_PATHS.has(path)) || (get && (labelValues || GET_PATHS.has(path)));
  if (!known) return false;
  try {
    await answer(r, labelValues?.[1]);
  } catch (error) {
    if (error instanceof PromError) send(res, { status: error.status, body: errorBody(error.errorType, error.message) });
    else if (error instanceof RegexError) send(res, { status: 400, body: errorBody('bad_data', error.message) });
    else if (error instanceof HttpError && error.status < 500 && error.status !== 404) send(res, { status: error.status, body: errorBody('bad_data', error.message) });
    else throw error;
  }
  return true;
}

/**
 * A metadata call's reads (series, labels, label values, metadata) in the instance's turn (read-scheduler-calls.ts);
 * refused past the instance's queue or deadline in Prometheus' shapes, as the queries are.
 */
async function metadataRead<T>(r: ReadRequest, work: (store: ReturnType<typeof createMetricsQuerier>) => Promise<T>): Promise<T> {
  try {
    return await scheduledCall(r, 'promql', (storage) => work(createMetricsQuerier(storage, r.access.instance.database_name)));
  } catch (error) {
    if (error instanceof ReadRefused) {
      r.res.setHeader('retry-after', String(error.retryAfterSeconds));
      throw new PromError('too_many_requests', error.message, 429);
    }
    if (error instanceof ReadTimedOut) throw new PromError('timeout', 'query timed out in query execution');
    throw error;
  }
}

async function answer(r: ReadRequest, labelName: string | undefined): Promise<void> {
  const { req, res, path, url } = r;
  const nowMs = Number(r.nowNs / 1_000_000n);

  if (path === '/api/v1/query') {
    const params = await formParams(req, url);
    const query = params.get('query') ?? '';
    const timeMs = timeParam(params, 'time', nowMs);
    return evaluate(r, { kind: 'instant', query, timeMs }, params);
  }
  if (path === '/api/v1/query_range') {
    const params = await formParams(req, url);
    const query = params.get('query') ?? '';
    const startMs = timeParam(params, 'start');
    const endMs = timeParam(params, 'end');
    if (endMs < startMs) throw new PromError('bad_data', 'invalid parameter "end": end timestamp must not be before start time');
    const stepText = params.get('step') ?? '';
    const stepMs = apiDuration('step', stepText);
    if (stepMs <= 0) throw new PromError('bad_data', 'invalid parameter "step": zero or negative query resolution step widths are not accepted. Try a positive integer');
    const { settings } = workers();
    // As Prometheus: a range query may not ask for more points per series than the limit.
    if ((endMs - startMs) / stepMs > settings.maxPointsPerSeries) {
      throw new PromError('bad_data', `exceeded maximum resolution of ${settings.maxPointsPerSeries.toLocaleString('en-US')} points per timeseries. Try decreasing the query resolution (?step=XX)`);
    }
    return evaluate(r, { kind: 'range', query, startMs, endMs, stepMs }, params);
  }
  if (path === '/api/v1/format_query') {
    const params = await formParams(req, url);
    return evaluate(r, { kind: 'format', query: params.get('query') ?? '' }, params);
  }
  if (path === '/api/v1/query_exemplars') {
    // Exemplars are not stored: an empty answer, after the same parameter checks Prometheus makes.
    const params = await formParams(req, url);
    const range = rangeParams(params, nowMs);
    void range;
    return success(res, []);
  }
  if (path === '/api/v1/series') {
    const params = await formParams(req, url);
    const selectors = selectorsParam(params);
    if (selectors.length === 0) throw new PromError('bad_data', 'no match[] parameter provided');
    const range = rangeParams(params, nowMs);
    const key = `${path}|${range.startNs}..${range.endNs}|${JSON.stringify(params.getAll('match[]'))}`;
    return success(res, await r.lookup(key, () => metadataRead(r, (store) => store.series(selectors, range))));
  }
  if (path === '/api/v1/labels') {
    const params = await formParams(req, url);
    const selectors = selectorsParam(params);
    const range = rangeParams(params, nowMs);
    // Without match[] the label index answers by day; with it, the series with samples in the exact range.
    const key = selectors.length === 0 ? `${path}|${r.dayKey(range)}` : `${path}|${range.startNs}..${range.endNs}|${JSON.stringify(params.getAll('match[]'))}`;
    return success(res, await r.lookup(key, () => metadataRead(r, (store) => store.labelNames(selectors, range))));
  }
  if (labelName !== undefined) {
    const name = decodeURIComponent(labelName);
    if (!LABEL_NAME.test(name)) throw new PromError('bad_data', `invalid label name: "${name.slice(0, 100)}"`);
    const params = url.searchParams;
    const selectors = selectorsParam(params);
    const range = rangeParams(params, nowMs);
    const key = selectors.length === 0 ? `${path}|${r.dayKey(range)}` : `${path}|${range.startNs}..${range.endNs}|${JSON.stringify(params.getAll('match[]'))}`;
    return success(res, await r.lookup(key, () => metadataRead(r, (store) => store.labelValues(name, selectors, range))));
  }
  if (path === '/api/v1/metadata') {
    const params = url.searchParams;
    const limitText = params.get('limit');
    const limit = limitText === null || limitText === '' ? undefined : Number(limitText);
    if (limit !== undefined && !Number.isInteger(limit)) throw new PromError('bad_data', 'limit must be a number');
    return success(res, await metadataRead(r, (store) => store.metadata(params.get('metric') ?? undefined, limit)));
  }
  // Recording and alerting rules are not evaluated by qryn: empty lists, as a Prometheus without rule files answers.
  if (path === '/api/v1/rules') return success(res, { groups: [] });
  if (path === '/api/v1/alerts') return success(res, { alerts: [] });
  if (path === '/api/v1/status/buildinfo') {
    return success(res, { version: PROMETHEUS_VERSION, revision: 'qryn-platform', branch: 'qryn', buildUser: 'platform', buildDate: '', goVersion: '' });
  }
  if (path === '/api/v1/status/runtimeinfo') {
    const { settings } = workers();
    return success(res, {
      startTime: new Date(Date.now() - Math.round(process.uptime() * 1000)).toISOString(),
      CWD: '/',
      reloadConfigSuccess: true,
      lastConfigTime: new Date(0).toISOString(),
      corruptionCount: 0,
      goroutineCount: 0,
      GOMAXPROCS: settings.workers,
      GOGC: '',
      GODEBUG: '',
      storageRetention: `${r.access.instance.ttl_days}d`,
    });
  }
  throw new HttpError(404, `There is no qryn call at ${path}.`);
}
