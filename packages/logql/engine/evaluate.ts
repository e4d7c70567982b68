import type { LogQuerier } from '../storage/querier';
import type { Expr, MetricExpr } from '../syntax/ast';
import { parseLogQL } from '../syntax/parse';
import { compileRe2 } from '../../re2-pattern/re2-pattern';
import { binary } from './binary-ops';
import { LogQLQueryError, seriesLimitError } from './errors';
import { canceled, logQuery, yieldLoop } from './log-query';
import { compareLabels } from '../../labels/compare-labels';
import { formatValue, labelsKey, sortedLabels, stepSeconds, type Labels } from './labels';
import type { Ctx, StepEvaluator, StepValue } from './metric-value';
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
  return { data: await collectSteps(ctx, evalMetric(ctx, expr), req.instant), stats };
}

/** Steps between two yields to the event loop while an answer is collected. */
const STEPS_PER_YIELD = 256;

/**
 * Pulls the query's steps one at a time into the answer (the only thing that grows with the steps: it is bounded by
 * the series limit and the step count), checking the abort signal between steps.
 */
async function collectSteps(ctx: Ctx, root: StepEvaluator, instant: boolean): Promise<QueryData> {
  const { steps, limits, signal } = ctx;
  const series = new Map<string, { metric: Labels; values: [number, string][] }>();
  const scalar: [number, string][] = [];
  let vector: { metric: Labels; value: [number, string] }[] = [];
  let isScalar = false;
  try {
    for (let i = 0; i < steps.length; i++) {
      if (signal?.aborted) throw canceled();
      if (i > 0 && i % STEPS_PER_YIELD === 0) await yieldLoop();
      const next = await root.next();
      if (next.done) throw new Error(`the step evaluator ended after ${i} of ${steps.length} steps`);
      const value = next.value;
      const t = stepSeconds(steps[i]);
      if (value.kind === 'scalar') {
        isScalar = true;
        scalar.push([t, formatValue(value.value)]);
        continue;
      }
      if (instant) {
        if (value.samples.length > limits.maxSeries) throw seriesLimitError(limits.maxSeries);
        const sorted = value.ordered ? value.samples : [...value.samples].sort((a, b) => compareLabels(a.labels, b.labels));
        vector = sorted.map((s) => ({ metric: sortedLabels(s.labels), value: [t, formatValue(s.value)] }));
        continue;
      }
      for (const s of value.samples) {
        const key = labelsKey(s.labels);
        let out = series.get(key);
        if (!out) {
          if (series.size >= limits.maxSeries) throw seriesLimitError(limits.maxSeries);
          out = { metric: sortedLabels(s.labels), values: [] };
          series.set(key, out);
        }
        out.values.push([t, formatValue(s.value)]);
      }
    }
  } finally {
    await root.return();
  }
  if (isScalar) return instant ? { resultType: 'scalar', result: scalar[0] } : { resultType: 'matrix', result: [{ metric: {}, values: scalar }] };
  if (instant) return { resultType: 'vector', result: vector };
  return { resultType: 'matrix', result: [...series.values()].sort((a, b) => compareLabels(a.metric, b.metric)) };
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
// Metric queries: each kind of expression has its step evaluator (range-aggregation.ts; vector-aggregation.ts and
// binary-ops.ts over one step's values), pulled one step at a time (metric-value.ts).

function evalMetric(ctx: Ctx, e: MetricExpr): StepEvaluator {
  switch (e.kind) {
    case 'literal':
      return constantSteps(ctx, { kind: 'scalar', value: e.value });
    case 'vector':
      return constantSteps(ctx, { kind: 'vector', samples: [{ labels: {}, value: e.value }] });
    case 'range_agg':
      return rangeAggregation(ctx, e);
    case 'vector_agg': {
      // As Loki does, a sum over a range aggregation without its own grouping takes the sum's grouping already when
      // samples are extracted (the series of the range aggregation are the sum's groups; errors keep all labels).
      const inject = e.op === 'sum' && e.expr.kind === 'range_agg' && !e.expr.grouping && INJECTABLE.has(e.expr.op);
      const inner = inject && e.expr.kind === 'range_agg' ? rangeAggregation(ctx, e.expr, e.grouping ?? { without: false, labels: [] }) : evalMetric(ctx, e.expr);
      const instant = ctx.steps.length === 1;
      return mapSteps(inner, (v) => {
        if (v.kind === 'scalar') throw new LogQLQueryError(`unexpected scalar in ${e.op}`);
        return vectorAggregation(e, v.samples, instant);
      });
    }
    case 'label_replace': {
      const re = compileRe2(`^(?:${e.regex})$`);
      return mapSteps(evalMetric(ctx, e.expr), (v) => {
        if (v.kind === 'scalar') throw new LogQLQueryError('label_replace takes a vector');
        return { kind: 'vector', samples: labelReplace(v.samples, e, re) };
      });
    }
    case 'binary':
      return binarySteps(e, evalMetric(ctx, e.left), evalMetric(ctx, e.right));
  }
}

async function* constantSteps(ctx: Ctx, value: StepValue): StepEvaluator {
  for (let i = 0; i < ctx.steps.length; i++) yield value;
}

async function* mapSteps(inner: StepEvaluator, f: (v: StepValue) => StepValue): StepEvaluator {
  for await (const v of inner) yield f(v);
}

/** Both sides advanced together, one step each; either side ending its reads ends the other's. */
async function* binarySteps(e: Extract<MetricExpr, { kind: 'binary' }>, left: StepEvaluator, right: StepEvaluator): StepEvaluator {
  try {
    for (;;) {
      const l = await left.next();
      const r = await right.next();
      if (l.done || r.done) return;
      yield binary(e, l.value, r.value);
    }
  } finally {
    await Promise.all([left.return(), right.return()]);
  }
}
