import type { LogQuerier } from '../storage/querier';
import type { Expr, MetricExpr } from '../syntax/ast';
import { parseLogQL } from '../syntax/parse';
import { binary } from './binary-ops';
import { LogQLQueryError, seriesLimitError } from './errors';
import { logQuery } from './log-query';
import { compareLabels, formatValue, sortedLabels, stepSeconds, type Labels } from './labels';
import type { Ctx, Value } from './metric-value';
import { INJECTABLE, rangeAggregation } from './range-aggregation';
import { labelReplace, vectorAggregation } from './vector-aggregation';

// The LogQL engine: log queries (the log selection iterator of log-query.ts: pipeline, limit, direction → streams)
// and metric queries (range aggregations over log ranges, vector aggregations, binary operators, vector(),
// label_replace → matrix or vector), answered in the shape of Loki's HTTP API. Work over many lines is done in chunks
// that yield to the event loop (see docs/qryn.md).

export interface EngineLimits {
  /** Loki's max_entries_limit_per_query. */
  maxEntries: number;
  /** Loki's max_query_series: series of a metric query's answer. */
  maxSeries: number;
  /** Loki's max_query_length in ns (0: none). */
  maxQueryLengthNs: bigint;
  /** Points per series of a range query. */
  maxPoints: number;
  /** Lines a query may read from the store before it is refused (a safety net for pipelines the store cannot run). */
  maxLinesRead: number;
}

export const DEFAULT_LIMITS: EngineLimits = {
  maxEntries: 5000,
  maxSeries: 500,
  // Loki's default is 721h; qryn keeps data up to a year (its longest retention), so a year and a day.
  maxQueryLengthNs: 8785n * 3600n * 1_000_000_000n,
  maxPoints: 11_000,
  maxLinesRead: 5_000_000,
};

export interface QueryRequest {
  query: string;
  startNs: bigint;
  endNs: bigint;
  /** 0 for an instant query. */
  stepNs: bigint;
  /** Instant query (/loki/api/v1/query): evaluated at endNs. */
  instant: boolean;
  limit: number;
  direction: 'forward' | 'backward';
  /**
   * Loki's `interval` (range log queries only): an entry is returned only when it is at least this far, in the
   * query's direction, from the last entry returned (over all streams, in the answer's order); 0 or absent: all.
   */
  intervalNs?: bigint;
}

export interface QueryStats {
  linesRead: number;
  bytesRead: number;
  postFilterLines: number;
}

export type QueryData =
  | { resultType: 'streams'; result: { stream: Labels; values: [string, string][] }[] }
  | { resultType: 'matrix'; result: { metric: Labels; values: [number, string][] }[] }
  | { resultType: 'vector'; result: { metric: Labels; value: [number, string] }[] }
  | { resultType: 'scalar'; result: [number, string] };


export async function runQuery(querier: LogQuerier, req: QueryRequest, limits: EngineLimits = DEFAULT_LIMITS, signal?: AbortSignal): Promise<{ data: QueryData; stats: QueryStats }> {
  const expr: Expr = parseLogQL(req.query);
  if (req.limit > limits.maxEntries) {
    throw new LogQLQueryError(`max entries limit per query exceeded, limit > max_entries_limit_per_query (${req.limit} > ${limits.maxEntries})`);
  }
  const stats: QueryStats = { linesRead: 0, bytesRead: 0, postFilterLines: 0 };
  if (expr.kind === 'log') {
    if (req.instant) {
      throw new LogQLQueryError('log queries are not supported as an instant query type, please change your query to a range query type');
    }
    checkLength(req.endNs - req.startNs, limits);
    return { data: await logQuery(querier, expr, req, limits, stats, signal), stats };
  }
  const steps: bigint[] = [];
  if (req.instant) steps.push(req.endNs);
  else {
    if (req.stepNs <= 0n) throw new LogQLQueryError('zero or negative query resolution step widths are not accepted. Try a positive integer');
    if ((req.endNs - req.startNs) / req.stepNs + 1n > BigInt(limits.maxPoints)) {
      throw new LogQLQueryError(`exceeded maximum resolution of ${limits.maxPoints.toLocaleString('en-US')} points per timeseries. Try decreasing the query resolution (?step=XX)`);
    }
    for (let t = req.startNs; t <= req.endNs; t += req.stepNs) steps.push(t);
  }
  checkLength(req.endNs - req.startNs + maxRange(expr), limits);
  const ctx: Ctx = { querier, steps, stats, limits, signal, stepNs: req.stepNs };
  const value = await evalMetric(ctx, expr);
  if (value.kind === 'scalar') {
    if (req.instant) return { data: { resultType: 'scalar', result: [stepSeconds(steps[0]), formatValue(value.values[0])] }, stats };
    return { data: { resultType: 'matrix', result: [{ metric: {}, values: steps.map((t, i) => [stepSeconds(t), formatValue(value.values[i])] as [number, string]) }] }, stats };
  }
  const series = value.series.filter((s) => s.values.some((v) => v !== undefined));
  if (series.length > limits.maxSeries) throw seriesLimitError(limits.maxSeries);
  if (req.instant) {
    const sorted = value.ordered ? series : [...series].sort((a, b) => compareLabels(a.labels, b.labels));
    return { data: { resultType: 'vector', result: sorted.map((s) => ({ metric: sortedLabels(s.labels), value: [stepSeconds(steps[0]), formatValue(s.values[0]!)] })) }, stats };
  }
  series.sort((a, b) => compareLabels(a.labels, b.labels));
  return {
    data: {
      resultType: 'matrix',
      result: series.map((s) => ({
        metric: sortedLabels(s.labels),
        values: s.values.flatMap((v, i) => (v === undefined ? [] : [[stepSeconds(steps[i]), formatValue(v)] as [number, string]])),
      })),
    },
    stats,
  };
}

function checkLength(lengthNs: bigint, limits: EngineLimits) {
  if (limits.maxQueryLengthNs > 0n && lengthNs > limits.maxQueryLengthNs) {
    throw new LogQLQueryError(`the query time range exceeds the limit (query length: ${goDuration(lengthNs)}, limit: ${goDuration(limits.maxQueryLengthNs)})`);
  }
}

function goDuration(ns: bigint): string {
  let s = ns / 1_000_000_000n;
  const h = s / 3600n;
  s -= h * 3600n;
  const m = s / 60n;
  s -= m * 60n;
  return `${h > 0n ? `${h}h` : ''}${h > 0n || m > 0n ? `${m}m` : ''}${s}s`;
}

function maxRange(e: MetricExpr): bigint {
  switch (e.kind) {
    case 'range_agg':
      return e.range.rangeNs + e.range.offsetNs;
    case 'vector_agg':
    case 'label_replace':
      return maxRange(e.expr);
    case 'binary': {
      const a = maxRange(e.left);
      const b = maxRange(e.right);
      return a > b ? a : b;
    }
    default:
      return 0n;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Metric queries: each kind of expression has its evaluator (range-aggregation.ts, vector-aggregation.ts,
// binary-ops.ts) over values of every step (metric-value.ts).

async function evalMetric(ctx: Ctx, e: MetricExpr): Promise<Value> {
  switch (e.kind) {
    case 'literal':
      return { kind: 'scalar', values: ctx.steps.map(() => e.value) };
    case 'vector':
      return { kind: 'vector', series: [{ labels: {}, values: ctx.steps.map(() => e.value) }] };
    case 'range_agg':
      return { kind: 'vector', series: await rangeAggregation(ctx, e) };
    case 'vector_agg': {
      // As Loki does, a sum over a range aggregation without its own grouping takes the sum's grouping already when
      // samples are extracted (the series of the range aggregation are the sum's groups; errors keep all labels).
      const inject = e.op === 'sum' && e.expr.kind === 'range_agg' && !e.expr.grouping && INJECTABLE.has(e.expr.op);
      const inner =
        inject && e.expr.kind === 'range_agg'
          ? { kind: 'vector' as const, series: await rangeAggregation(ctx, e.expr, e.grouping ?? { without: false, labels: [] }) }
          : await evalMetric(ctx, e.expr);
      if (inner.kind === 'scalar') throw new LogQLQueryError(`unexpected scalar in ${e.op}`);
      return vectorAggregation(ctx, e, inner.series);
    }
    case 'label_replace': {
      const inner = await evalMetric(ctx, e.expr);
      if (inner.kind === 'scalar') throw new LogQLQueryError('label_replace takes a vector');
      return { kind: 'vector', series: labelReplace(inner.series, e) };
    }
    case 'binary':
      return binary(ctx, e, await evalMetric(ctx, e.left), await evalMetric(ctx, e.right));
  }
}
