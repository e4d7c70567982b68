import type { ServerResponse } from 'node:http';
import { DEFAULT_LIMITS, runQuery, type EngineLimits } from '../../../packages/logql/engine/evaluate';
import { LogQLQueryError } from '../../../packages/logql/engine/errors';
import { LogQLParseError } from '../../../packages/logql/syntax/parse';
import { parseDurationNs } from '../../../packages/logql/syntax/units';
import { RegexError } from '../../../packages/re2-pattern/re2-pattern';
import { formParams, success, type ReadRequest } from './gateway-http';
import { createLogsQuerier } from './logs-querier';
import { ReadError } from './read-error';
import { parseTime } from './time-params';

// The Loki query calls of an instance: query (instant) and query_range, evaluated by the LogQL engine
// (packages/logql) over the instance's ClickHouse database. Errors are answered as Loki answers them: plain text
// with the status (400 for the client's query, 504 for a timeout). loki-metadata-api.ts has the calls about streams.

const NS_PER_S = 1_000_000_000n;
const HOUR = 3600n * NS_PER_S;

/** Limits and settings of the query calls (docs/qryn.md); the environment may override them. */
export function lokiQueryLimits(env: NodeJS.ProcessEnv = process.env): EngineLimits & { timeoutMs: number } {
  const num = (name: string, fallback: number) => {
    const v = Number(env[name]);
    return Number.isFinite(v) && v > 0 ? v : fallback;
  };
  return {
    maxEntries: num('QRYN_LOKI_MAX_ENTRIES', DEFAULT_LIMITS.maxEntries),
    maxSeries: num('QRYN_LOKI_MAX_SERIES', DEFAULT_LIMITS.maxSeries),
    maxQueryLengthNs: BigInt(num('QRYN_LOKI_MAX_QUERY_LENGTH_HOURS', 8785)) * HOUR,
    maxPoints: DEFAULT_LIMITS.maxPoints,
    maxLinesRead: num('QRYN_LOKI_MAX_LINES_READ', DEFAULT_LIMITS.maxLinesRead),
    timeoutMs: num('QRYN_LOKI_QUERY_TIMEOUT_MS', 60_000),
  };
}

function plain(res: ServerResponse, status: number, message: string) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(message) });
  res.end(message);
}

/** Loki's times: ns since the epoch (long integers), seconds with fraction, or RFC 3339. */
function lokiTime(value: string | null, fallback: bigint, name: string): bigint {
  try {
    return parseTime(value ?? undefined, fallback, 'loki');
  } catch (error) {
    // Loki's wording, with the reason when the time parses but is out of the range this store keeps (1970–9999).
    const reason = error instanceof Error && /out of range/.test(error.message) ? ` (${error.message})` : '';
    throw new LogQLQueryError(`invalid ${name} parameter: cannot parse "${(value ?? '').slice(0, 40)}" to a valid timestamp${reason}`);
  }
}

/** A step or interval: a duration (`15s`, `1m30s`) or seconds (`15`, `0.5`). */
function lokiDuration(value: string, name: string): bigint {
  if (/^\d+(\.\d+)?$/.test(value)) {
    const [whole, frac = ''] = value.split('.');
    return BigInt(whole) * NS_PER_S + BigInt(frac.padEnd(9, '0').slice(0, 9));
  }
  const ns = parseDurationNs(value, true);
  if (Number.isNaN(ns)) throw new LogQLQueryError(`invalid ${name} parameter: cannot parse "${value.slice(0, 40)}" to a valid duration`);
  return BigInt(Math.round(ns));
}

export async function lokiApi(r: ReadRequest): Promise<boolean> {
  const { req, res, method, path, url } = r;
  if ((method !== 'GET' && method !== 'POST') || (path !== '/loki/api/v1/query_range' && path !== '/loki/api/v1/query')) return false;
  const limits = lokiQueryLimits();
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  try {
    const params = await formParams(req, url);
    const query = params.get('query');
    if (!query) throw new LogQLQueryError('query parameter is required');
    const instant = path === '/loki/api/v1/query';
    const now = r.nowNs;
    let startNs: bigint;
    let endNs: bigint;
    let stepNs = 0n;
    let intervalNs = 0n;
    if (instant) {
      endNs = lokiTime(params.get('time'), now, 'time');
      startNs = endNs;
    } else {
      endNs = lokiTime(params.get('end'), now, 'end');
      const since = params.get('since');
      const defaultStart = since ? endNs - lokiDuration(since, 'since') : endNs - HOUR;
      startNs = lokiTime(params.get('start'), defaultStart, 'start');
      if (endNs < startNs) throw new LogQLQueryError('end timestamp must not be before or equal to start time');
      const step = params.get('step');
      // Loki's default: about 250 points over the range, at least a second.
      const defaultStep = (endNs - startNs) / 250n;
      stepNs = step ? lokiDuration(step, 'step') : ((defaultStep + NS_PER_S - 1n) / NS_PER_S) * NS_PER_S || NS_PER_S;
      if (stepNs <= 0n) throw new LogQLQueryError('zero or negative query resolution step widths are not accepted. Try a positive integer');
      const interval = params.get('interval');
      intervalNs = interval ? lokiDuration(interval, 'interval') : 0n;
      if (intervalNs < 0n) throw new LogQLQueryError('negative interval widths are not accepted');
    }
    const limitText = params.get('limit');
    const limit = limitText === null || limitText === '' ? 100 : Number(limitText);
    if (!Number.isInteger(limit) || limit <= 0) throw new LogQLQueryError('limit must be a positive value');
    const direction = (params.get('direction') ?? 'backward').toLowerCase();
    if (direction !== 'backward' && direction !== 'forward') throw new LogQLQueryError(`invalid direction '${direction.slice(0, 20)}'`);
    const querier = createLogsQuerier(r.storage, r.access.instance.database_name);
    const { data, stats } = await runQuery(querier, { query, startNs, endNs, stepNs, instant, limit, direction, intervalNs }, limits, controller.signal);
    if (controller.signal.aborted) throw new LogQLQueryError('Request timed out, decrease the duration of the request or add more label matchers to your query.', 504);
    const execTime = (performance.now() - started) / 1000;
    const returned = data.resultType === 'streams' ? data.result.reduce((n, s) => n + s.values.length, 0) : 0;
    success(res, {
      ...data,
      stats: {
        summary: {
          bytesProcessedPerSecond: execTime > 0 ? Math.round(stats.bytesRead / execTime) : 0,
          linesProcessedPerSecond: execTime > 0 ? Math.round(stats.linesRead / execTime) : 0,
          totalBytesProcessed: stats.bytesRead,
          totalLinesProcessed: stats.linesRead,
          totalPostFilterLines: stats.postFilterLines,
          execTime,
          queueTime: 0,
          subqueries: 0,
          totalEntriesReturned: returned,
          splits: 0,
          shards: 0,
          totalStructuredMetadataBytesProcessed: 0,
        },
        querier: { store: { totalChunksRef: 0, totalChunksDownloaded: 0, chunksDownloadTime: 0, chunk: { decompressedBytes: stats.bytesRead, decompressedLines: stats.linesRead, totalDuplicates: 0 } } },
        ingester: { totalReached: 0, totalChunksMatched: 0, totalBatches: 0, totalLinesSent: 0 },
      },
    });
  } catch (error) {
    if (controller.signal.aborted) {
      plain(res, 504, 'Request timed out, decrease the duration of the request or add more label matchers to your query.');
    } else if (error instanceof LogQLParseError || error instanceof RegexError || error instanceof ReadError) {
      plain(res, 400, error.message);
    } else if (error instanceof LogQLQueryError) {
      plain(res, error.status, error.message);
    } else throw error;
  } finally {
    clearTimeout(timer);
  }
  return true;
}
