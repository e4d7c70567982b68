import { compilePipeline, type Entry } from '../log/pipeline';
import { planLogSelector } from '../planner/plan';
import type { LogQuerier, LogSelectParams, StoredLine, StoredStream } from '../storage/querier';
import type { LogSelectorExpr } from '../syntax/ast';
import { LogQLQueryError } from './errors';
import { labelsString, sortedLabels, type Labels } from './labels';
import type { EngineLimits, QueryData, QueryRequest, QueryStats } from './evaluate';

// Log queries as Loki's log selection iterator: the store's lines come in the query's direction (time, then stream)
// and go through the pipeline one by one; the reading stops (and the store stops its query) as soon as no later line
// can be among the `limit` answered ones: `limit` lines passed the pipeline and the store is past their last time.
// The lines read are counted as they arrive, so maxLinesRead refuses before the rest is read.

/** Lines between two turns of the event loop (and checks of the signal). */
export const CHUNK = 20_000;
export const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export const canceled = () => new LogQLQueryError('context canceled', 499);

export const linesReadError = (read: number, limit: number) =>
  new LogQLQueryError(`the query would read too many lines (${read} > ${limit}); narrow the selector or the time range, or add line filters`);

/** Counts lines read from the store against maxLinesRead, and yields to the event loop now and then. */
export class ReadCounter {
  private sinceYield = 0;
  constructor(
    private readonly stats: QueryStats,
    private readonly limits: EngineLimits,
    private readonly signal?: AbortSignal,
  ) {}

  /** A line read: counted, refused past the limit. */
  line(text: string): void {
    this.stats.linesRead++;
    this.stats.bytesRead += Buffer.byteLength(text);
    if (this.stats.linesRead > this.limits.maxLinesRead) throw linesReadError(this.stats.linesRead, this.limits.maxLinesRead);
  }

  async pause(): Promise<void> {
    if (++this.sinceYield % CHUNK === 0) {
      await yieldLoop();
      if (this.signal?.aborted) throw canceled();
    }
  }
}

/** Runs a pipeline over stored streams, counting what was read and what passed. */
export async function runPipelineOver(streams: StoredStream[], stages: LogSelectorExpr['stages'], stats: QueryStats, each: (e: Entry) => void, signal?: AbortSignal) {
  const run = compilePipeline(stages);
  let done = 0;
  for (const s of streams) {
    for (let i = 0; i < s.lines.length; i++) {
      const line = s.lines[i];
      stats.linesRead++;
      stats.bytesRead += Buffer.byteLength(line);
      const e = run(line, s.labels, s.timestamps[i]);
      if (e) {
        stats.postFilterLines++;
        each(e);
      }
      if (++done % CHUNK === 0) {
        await yieldLoop();
        if (signal?.aborted) throw canceled();
      }
    }
  }
}

interface Passed {
  key: string;
  labels: Labels;
  ts: bigint;
  line: string;
  order: number;
}

/** The store's lines in the query's direction, one by one (from a streaming store, or from whole streams merged). */
export async function* linesInOrder(querier: LogQuerier, params: LogSelectParams & { windowed: boolean }, limits: EngineLimits, signal?: AbortSignal): AsyncGenerator<StoredLine[]> {
  if (querier.streamLogs) {
    yield* querier.streamLogs(params, signal);
    return;
  }
  const stored = await querier.selectLogs(params, signal);
  const n = stored.reduce((a, s) => a + s.lines.length, 0);
  if (n > limits.maxLinesRead) throw linesReadError(n, limits.maxLinesRead);
  // In time order as a streaming store answers (equal times in the order of the streams), for the evaluators that
  // go through the lines once in time order.
  const rows = stored.flatMap((s, stream) => s.lines.map((line, i) => ({ row: { labels: s.labels, tsNs: s.timestamps[i], line }, stream })));
  rows.sort((a, b) => (a.row.tsNs < b.row.tsNs ? -1 : a.row.tsNs > b.row.tsNs ? 1 : a.stream - b.stream));
  yield rows.map((r) => r.row);
}

export async function logQuery(querier: LogQuerier, expr: LogSelectorExpr, req: QueryRequest, limits: EngineLimits, stats: QueryStats, signal?: AbortSignal): Promise<QueryData> {
  const plan = planLogSelector(expr);
  const interval = req.instant ? 0n : (req.intervalNs ?? 0n);
  const thinning = interval > 0n;
  const forward = req.direction === 'forward';
  // With an interval the lines the limit keeps are not the first `limit` ones: everything is read.
  const stopEarly = !thinning && querier.streamLogs !== undefined;
  const params = {
    matchers: expr.matchers,
    startNs: req.startNs,
    endNs: req.endNs,
    lineFilters: plan.pushed,
    limit: plan.storeOnly && !thinning ? req.limit : undefined,
    direction: req.direction,
    windowed: stopEarly,
  };
  const run = compilePipeline(plan.rest);
  const counter = new ReadCounter(stats, limits, signal);
  const entries: Passed[] = [];
  // The time of the limit-th line that passed: a later line (in the direction) cannot be answered any more.
  let cutoff: bigint | undefined;
  reading: for await (const batch of linesInOrder(querier, params, limits, signal)) {
    for (const row of batch) {
      if (cutoff !== undefined && (forward ? row.tsNs > cutoff : row.tsNs < cutoff)) break reading;
      counter.line(row.line);
      const e = run(row.line, row.labels, row.tsNs);
      if (e) {
        stats.postFilterLines++;
        entries.push({ key: labelsString(e.labels), labels: e.labels, ts: e.tsNs, line: e.line, order: entries.length });
        if (stopEarly && cutoff === undefined && entries.length >= req.limit) cutoff = row.tsNs;
      }
      await counter.pause();
    }
    if (signal?.aborted) throw canceled();
  }
  entries.sort((a, b) => (a.ts !== b.ts ? (a.ts < b.ts ? -1 : 1) * (forward ? 1 : -1) : a.key !== b.key ? (a.key < b.key ? -1 : 1) : a.order - b.order));
  let kept = entries;
  if (thinning) {
    // As Loki's readStreams: the first entry, then each entry at or beyond the last returned one plus (forward) or
    // minus (backward) the interval.
    kept = [];
    let last: bigint | undefined;
    for (const e of entries) {
      if (kept.length >= req.limit) break;
      if (last !== undefined && (forward ? e.ts < last + interval : e.ts > last - interval)) continue;
      kept.push(e);
      last = e.ts;
    }
  } else kept = entries.slice(0, req.limit);
  const streams = new Map<string, { stream: Labels; values: [string, string][] }>();
  for (const e of kept) {
    let s = streams.get(e.key);
    if (!s) {
      s = { stream: sortedLabels(e.labels), values: [] };
      streams.set(e.key, s);
    }
    s.values.push([e.ts.toString(), e.line]);
  }
  const result = [...streams.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, s]) => s);
  return { resultType: 'streams', result };
}
