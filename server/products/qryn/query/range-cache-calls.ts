import { parseLogQL } from '../../../../packages/logql/syntax/parse';
import type { ReadRequest } from '../http/gateway-http';
import type { LogqlAnswer, LogqlJob } from './logql-pool';
import type { PromqlAnswer, PromqlQuery } from './promql-pool';
import { cachedRange, resultsCacheSettings, ResultsCache, type WorkCounts } from './range-cache';

// The results cache (range-cache.ts) around the evaluation of the Prometheus and Loki query calls: one cache for the
// process, shared by both languages and bounded as a whole and per instance. Only range queries go through it
// (PromQL query_range; LogQL query_range of a metric query — log lines are not split); the rest is evaluated as is.

let cache: ResultsCache | undefined;

/** The process' results cache (made on first use from the QRYN_RESULTS_CACHE_* settings). */
export function resultsCache(): ResultsCache {
  cache ??= new ResultsCache(resultsCacheSettings());
  return cache;
}

const NS_PER_MS = 1_000_000n;
const nowMs = (r: ReadRequest) => Number(r.nowNs / NS_PER_MS);

/** A PromQL call: a range query through the cache, anything else straight to `run`. */
export function promqlThroughCache(r: ReadRequest, query: PromqlQuery, run: (query: PromqlQuery) => Promise<PromqlAnswer>): Promise<PromqlAnswer> {
  if (query.kind !== 'range') return run(query);
  const call = { instance: r.access.instance.database_name, scope: 'promql', query: query.query, startMs: query.startMs, endMs: query.endMs, stepMs: query.stepMs, nowMs: nowMs(r) };
  return cachedRange(resultsCache(), call, (startMs, endMs) => run({ ...query, startMs, endMs }));
}

const isMetricQuery = (query: string) => {
  try {
    return parseLogQL(query).kind !== 'log';
  } catch {
    return false;
  }
};

interface LokiStats {
  summary?: { totalBytesProcessed: number; totalLinesProcessed: number; totalPostFilterLines: number };
  querier?: { store?: { chunk?: { decompressedBytes: number; decompressedLines: number } } };
}

/** Loki's stats (logql-evaluate.ts): the lines and bytes processed, as the work counts of a joined answer. */
const LOKI_WORK: WorkCounts = {
  read(data) {
    const summary = (data.stats as LokiStats | undefined)?.summary;
    if (!summary) return undefined;
    return { bytes: summary.totalBytesProcessed, lines: summary.totalLinesProcessed, postFilter: summary.totalPostFilterLines };
  },
  write(data, counts) {
    const stats = data.stats as LokiStats;
    const [bytes, lines, postFilter] = [counts.bytes, counts.lines, counts.postFilter].map((n) => Math.round(n ?? 0));
    stats.summary = { ...stats.summary!, totalBytesProcessed: bytes, totalLinesProcessed: lines, totalPostFilterLines: postFilter };
    const chunk = stats.querier?.store?.chunk;
    if (chunk) stats.querier!.store!.chunk = { ...chunk, decompressedBytes: bytes, decompressedLines: lines };
  },
};

/** A LogQL call: a metric range query on a whole-millisecond grid through the cache, anything else straight to `run`. */
export function logqlThroughCache(r: ReadRequest, job: LogqlJob, run: (job: LogqlJob) => Promise<LogqlAnswer>): Promise<LogqlAnswer> {
  const q = job.request;
  if (q.instant || q.stepNs <= 0n || q.startNs % NS_PER_MS !== 0n || q.stepNs % NS_PER_MS !== 0n || !isMetricQuery(q.query)) return run(job);
  const call = {
    instance: job.database,
    scope: 'logql',
    query: q.query,
    startMs: Number(q.startNs / NS_PER_MS),
    endMs: Number(q.endNs / NS_PER_MS),
    stepMs: Number(q.stepNs / NS_PER_MS),
    nowMs: nowMs(r),
    maxSeries: job.limits.maxSeries,
    work: LOKI_WORK,
  };
  return cachedRange(resultsCache(), call, (startMs, endMs) =>
    run({ ...job, request: { ...q, startNs: BigInt(startMs) * NS_PER_MS, endNs: endMs === call.endMs ? q.endNs : BigInt(endMs) * NS_PER_MS } }),
  );
}
