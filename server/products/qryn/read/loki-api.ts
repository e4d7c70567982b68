import type { ServerResponse } from 'node:http';
import { DEFAULT_LIMITS, type EngineLimits } from '../../../../packages/logql/engine/evaluate';
import { LogQLQueryError } from '../../../../packages/logql/engine/errors';
import { parseModelDurationNs, parseSecondsOrDurationNs } from '../../../../packages/logql/syntax/duration';
import { formParams, type ReadRequest } from '../http/gateway-http';
import { evaluateLogql } from '../query/logql-evaluate';
import { createLogqlPool, LOKI_TIMEOUT_MESSAGE, lokiPlain, type LogqlAnswer, type LogqlJob, type LogqlPool } from '../query/logql-pool';
import { logqlThroughCache } from '../query/range-cache-calls';
import { workerEndpoint } from '../query/query-worker-loop';
import { readScheduler, ReadRefused, ReadTimedOut } from '../query/read-scheduler';
import { ReadError } from '../http/read-error';
import { StorageError } from '../storage/storage-client';
import { parseTime } from '../http/time-params';
import { bodyBytes, writeBody } from '../http/answer-json';

// The Loki query calls of an instance: query (instant) and query_range, evaluated by the LogQL engine
// (packages/logql) over the instance's ClickHouse database in the LogQL query workers (logql-pool.ts), so that a
// heavy pipeline never stalls ingestion or the other calls; this thread only reads and checks the parameters and
// hands the evaluation to the read scheduler (read-scheduler.ts), which runs it in the instance's turn or refuses it
// past the instance's share (429 `too many outstanding requests` with Retry-After, as Loki's query frontend).
// Errors are answered as Loki answers them: plain text with the status (400 for the client's query, 504 for a
// timeout). loki-metadata-api.ts has the calls about streams.

const NS_PER_S = 1_000_000_000n;
const HOUR = 3600n * NS_PER_S;

/** Limits and settings of the query calls (docs/qryn.md); the environment may override them. */
export function lokiQueryLimits(env: NodeJS.ProcessEnv = process.env): EngineLimits & { timeoutMs: number; workers: number } {
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
    workers: workerCount(env.QRYN_LOKI_WORKERS),
  };
}

/** QRYN_LOKI_WORKERS: worker threads (default 2); 0 evaluates in the gateway's thread. */
function workerCount(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 2;
  if (!/^\d+$/.test(raw.trim())) throw new Error(`QRYN_LOKI_WORKERS must be a whole number (0 evaluates in the gateway's thread), not "${raw}".`);
  return Number(raw.trim());
}

let pool: LogqlPool | undefined;

/** The LogQL query workers running now (their thread ids), for the platform's status and the tests. */
export const logqlWorkerThreads = (): number[] => pool?.threadIds() ?? [];

/** Stops the LogQL query workers (the platform's close); the next query starts them again. */
export async function closeLogqlWorkers(): Promise<void> {
  const running = pool;
  pool = undefined;
  await running?.close();
}

/**
 * Evaluates a query in a worker (or in this thread without workers) in the instance's turn; the client going away
 * cancels it there, or while it waits.
 */
async function evaluate(r: ReadRequest, job: LogqlJob, workers: number): Promise<LogqlAnswer> {
  const gone = new AbortController();
  const onClose = () => {
    if (!r.res.writableEnded) gone.abort();
  };
  r.res.on('close', onClose);
  try {
    return await readScheduler().run(
      r.access.instance.id,
      'logql',
      async (signal, start) => {
        // The evaluation gets what is left of the deadline after the wait for the turn.
        const timed = { ...job, timeoutMs: start.remainingMs() };
        let answer: LogqlAnswer;
        if (workers === 0) answer = await evaluateLogql(timed, signal, r.storage);
        else {
          pool ??= createLogqlPool(workers);
          answer = await pool.run(timed, signal, start.background ? 'low' : 'normal');
        }
        // The deadline's abort may reach the engine before its own timer: the answer is the timeout either way.
        return signal.reason instanceof ReadTimedOut ? lokiPlain(504, LOKI_TIMEOUT_MESSAGE) : answer;
      },
      { signal: gone.signal, timeoutMs: job.timeoutMs },
    );
  } catch (error) {
    // The client went away while the query waited for its turn: Loki's answer to a canceled query, to nobody.
    if (gone.signal.aborted && error === gone.signal.reason) return lokiPlain(499, 'context canceled');
    throw error;
  } finally {
    r.res.off('close', onClose);
  }
}

/** The answer; its pieces, if any, written as the client takes them (answer-json.ts). Returns the body's bytes. */
async function send(res: ServerResponse, answer: LogqlAnswer, headers: Record<string, string> = {}): Promise<number> {
  if ('error' in answer) {
    // Answered (and logged) by the gateway as every storage or unexpected error of a read call.
    if (answer.error.kind === 'storage') throw new StorageError(answer.error.message, answer.error.status, answer.error.code);
    throw new Error(answer.error.message);
  }
  const bytes = bodyBytes(answer.body);
  res.writeHead(answer.status, {
    'content-type': answer.contentType,
    'cache-control': 'no-store',
    'content-length': bytes,
    ...(answer.contentType.startsWith('text/plain') ? { 'x-content-type-options': 'nosniff' } : {}),
    ...headers,
  });
  await writeBody(res, answer.body);
  return bytes;
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

/** A step or interval: seconds (`15`, `0.5`) or a duration (`15s`, `1m30s`), as Loki reads them. */
function lokiDuration(value: string, name: string): bigint {
  try {
    return BigInt(parseSecondsOrDurationNs(value));
  } catch (error) {
    throw new LogQLQueryError(`invalid ${name} parameter: ${(error as Error).message}`);
  }
}

/** `since`: a duration only (model.ParseDuration), as Loki's determineBounds. */
function sinceDuration(value: string): bigint {
  const ns = parseModelDurationNs(value);
  if (Number.isNaN(ns)) throw new LogQLQueryError(`invalid since parameter: cannot parse "${value.slice(0, 40)}" to a valid duration`);
  return BigInt(ns);
}

export async function lokiApi(r: ReadRequest): Promise<boolean> {
  const { req, res, method, path, url } = r;
  if ((method !== 'GET' && method !== 'POST') || (path !== '/loki/api/v1/query_range' && path !== '/loki/api/v1/query')) return false;
  const limits = lokiQueryLimits();
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
      const defaultStart = since ? endNs - sinceDuration(since) : endNs - HOUR;
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
    const request = { query, startNs, endNs, stepNs, instant, limit, direction, intervalNs } as const;
    const job: LogqlJob = { endpoint: await workerEndpoint(r.storage.endpoint), database: r.access.instance.database_name, request, limits, timeoutMs: limits.timeoutMs };
    // A metric range query's kept intervals come from the results cache; what is left is one scheduled evaluation.
    const answer = await logqlThroughCache(r, job, (j) => evaluate(r, j, limits.workers));
    const bytes = await send(res, answer);
    readScheduler().answered(r.access.instance.id, bytes);
  } catch (error) {
    if (error instanceof ReadRefused) {
      await send(res, lokiPlain(429, error.message), { 'retry-after': String(error.retryAfterSeconds) });
    } else if (error instanceof ReadTimedOut) {
      await send(res, lokiPlain(504, LOKI_TIMEOUT_MESSAGE));
    } else if (error instanceof ReadError) {
      await send(res, lokiPlain(400, error.message));
    } else if (error instanceof LogQLQueryError) {
      await send(res, lokiPlain(error.status, error.message));
    } else throw error;
  }
  return true;
}
