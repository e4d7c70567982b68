// The PromQL engine: parse, plan the selections, read them from the Querier, evaluate, answer a typed value.
// Limits and defaults are Prometheus 2.42's.

import type { Expr } from '../parser/ast';
import { typeName, typeOf } from '../parser/ast';
import { parseExpr } from '../parser/parse';
import { planQuery } from '../planner/planner';
import type { Querier, Series } from '../storage/querier';
import { PromQLError, QUERY_CANCELED, QUERY_TIMEOUT, TOO_MANY_SAMPLES, executionError } from './errors';
import { Evaluator } from './evaluator';
import type { StepRange, StepScalar, StepString, StepVector } from './step-values';
import { compareLabels } from '../../labels/compare-labels';
import type { Matrix, MatrixSeries, Sample, Value } from './value';

export interface EngineOptions {
  /** How far back an instant selector looks for a sample (default 5 minutes). */
  lookbackDeltaMs?: number;
  /** Most samples loaded at once (default 50,000,000). */
  maxSamples?: number;
  /** Query timeout (default 2 minutes). */
  timeoutMs?: number;
  /** Most points per series of a range query (default 11,000). */
  maxPointsPerSeries?: number;
  /** Step of subqueries written without one (default 1 minute, Prometheus' default evaluation interval). */
  subqueryStepMs?: number;
}

export interface QueryResult {
  value: Value;
  warnings: string[];
  stats: { samples: number };
}

export interface Engine {
  instantQuery(querier: Querier, query: string, timeMs: number, signal?: AbortSignal): Promise<QueryResult>;
  rangeQuery(querier: Querier, query: string, startMs: number, endMs: number, stepMs: number, signal?: AbortSignal): Promise<QueryResult>;
}

const DEFAULTS = {
  lookbackDeltaMs: 300_000,
  maxSamples: 50_000_000,
  timeoutMs: 120_000,
  maxPointsPerSeries: 11_000,
  subqueryStepMs: 60_000,
};

export function createEngine(options: EngineOptions = {}): Engine {
  const opts = { ...DEFAULTS, ...stripUndefined(options) };

  const run = async (
    querier: Querier, query: string, startMs: number, endMs: number, stepMs: number, instant: boolean, signal?: AbortSignal,
  ): Promise<QueryResult> => {
    const expr = parseExpr(query);
    const type = typeOf(expr);
    if (!instant && type !== 'scalar' && type !== 'vector') {
      throw new PromQLError('bad_data', `invalid expression type "${typeName(type)}" for range query, must be Scalar or instant Vector`);
    }
    const deadline = Date.now() + opts.timeoutMs;
    const plan = planQuery(expr, { startMs, endMs, stepMs: instant ? 0 : stepMs, lookbackDeltaMs: opts.lookbackDeltaMs, subqueryStepMs: opts.subqueryStepMs });
    // Samples are counted as the store reads them (a store that streams stops at the limit, before the rest is
    // loaded); one selection's failure stops the others' reads.
    let loaded = 0;
    const samples = {
      add(n: number) {
        loaded += n;
        if (loaded > opts.maxSamples) throw executionError(TOO_MANY_SAMPLES);
      },
    };
    const stop = new AbortController();
    const reads = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    const data = await withDeadline(
      Promise.all(plan.selections.map((s) => querier.select(s.matchers, { ...s.hints, samples }, reads))),
      deadline,
      signal,
    ).catch((error: unknown) => {
      stop.abort();
      throw error;
    });
    let total = 0;
    const sorted: Series[][] = data.map((list) => {
      for (const s of list) total += s.values.length;
      return sortSeries(list);
    });
    if (total > opts.maxSamples) throw executionError(TOO_MANY_SAMPLES);
    const evaluator = new Evaluator(
      {
        lookbackDeltaMs: opts.lookbackDeltaMs, maxSamples: opts.maxSamples, subqueryStepMs: opts.subqueryStepMs,
        deadline, signal, startMs, endMs,
      },
      (vs) => sorted[plan.selectionOf.get(vs)!] ?? [],
    );
    const count = instant ? 1 : Math.floor((endMs - startMs) / stepMs) + 1;
    const steps = new Float64Array(count);
    for (let i = 0; i < count; i++) steps[i] = startMs + i * stepMs;
    const result = evaluator.eval(expr, steps);
    const value = instant ? instantValue(expr, result, startMs) : rangeValue(result, steps);
    return { value, warnings: [], stats: { samples: total } };
  };

  return {
    instantQuery(querier, query, timeMs, signal) {
      return run(querier, query, timeMs, timeMs, 0, true, signal);
    },
    rangeQuery(querier, query, startMs, endMs, stepMs, signal) {
      if (!(stepMs > 0)) {
        return Promise.reject(new PromQLError('bad_data', 'zero or negative query resolution step widths are not accepted. Try a positive integer'));
      }
      if (endMs < startMs) return Promise.reject(new PromQLError('bad_data', 'end timestamp must not be before start time'));
      if (Math.floor((endMs - startMs) / stepMs) > opts.maxPointsPerSeries) {
        return Promise.reject(new PromQLError(
          'bad_data',
          `exceeded maximum resolution of ${opts.maxPointsPerSeries.toLocaleString('en-US')} points per timeseries. Try decreasing the query resolution (?step=XX)`,
        ));
      }
      return run(querier, query, startMs, endMs, stepMs, false, signal);
    },
  };
}

function stripUndefined(o: EngineOptions): Partial<typeof DEFAULTS> {
  const out: Partial<typeof DEFAULTS> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, number>)[k] = v as number;
  return out;
}

/**
 * The store's series in Prometheus' order (by labels: name by name, name then value), each label set's sort key
 * computed once: the sorted names and values joined with NUL, so that one string comparison orders as the label-by-
 * label comparison does (a shorter name or value sorts first, as NUL is below every other character). Label sets
 * that contain NUL themselves are compared label by label.
 */
function sortSeries(list: Series[]): Series[] {
  if (list.length < 2) return list;
  const keyed = list.map((s) => {
    const names = Object.keys(s.labels).sort();
    let key = '';
    let plain = true;
    for (const n of names) {
      const v = s.labels[n];
      if (n.includes('\0') || v.includes('\0')) plain = false;
      key += `${n}\0${v}\0`;
    }
    return { s, names, key: plain ? key : undefined };
  });
  keyed.sort((a, b) => {
    if (a.key !== undefined && b.key !== undefined) return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    const n = Math.min(a.names.length, b.names.length);
    for (let i = 0; i < n; i++) {
      const an = a.names[i];
      const bn = b.names[i];
      if (an !== bn) return an < bn ? -1 : 1;
      const av = a.s.labels[an];
      const bv = b.s.labels[bn];
      if (av !== bv) return av < bv ? -1 : 1;
    }
    return a.names.length - b.names.length;
  });
  return keyed.map((k) => k.s);
}

async function withDeadline<T>(promise: Promise<T>, deadline: number, signal?: AbortSignal): Promise<T> {
  if (signal?.aborted) throw new PromQLError('canceled', QUERY_CANCELED);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PromQLError('timeout', QUERY_TIMEOUT)), Math.max(0, deadline - Date.now()));
    onAbort = () => reject(new PromQLError('canceled', QUERY_CANCELED));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

function instantValue(expr: Expr, result: ReturnType<Evaluator['eval']>, t: number): Value {
  switch (result.kind) {
    case 'scalar':
      return { type: 'scalar', t, v: (result as StepScalar).vals[0] };
    case 'string':
      return { type: 'string', t, v: (result as StepString).value };
    case 'vector': {
      const samples: Sample[] = [];
      for (const s of (result as StepVector).series) if (s.has[0]) samples.push({ labels: s.labels, t, v: s.vals[0] });
      return { type: 'vector', samples };
    }
    case 'matrix': {
      // A range selector or subquery asked for on its own: its raw points in the window.
      const r = result as StepRange;
      const end = (r.at ?? t) - r.offsetMs;
      const start = end - r.rangeMs;
      const series: MatrixSeries[] = [];
      for (const s of r.series) {
        let lo = 0;
        while (lo < s.t.length && s.t[lo] < start) lo++;
        let hi = lo;
        while (hi < s.t.length && s.t[hi] <= end) hi++;
        if (hi > lo) series.push({ labels: s.labels, timestampsMs: s.t.slice(lo, hi), values: s.v.slice(lo, hi) });
      }
      void expr;
      return { type: 'matrix', series };
    }
  }
}

function rangeValue(result: ReturnType<Evaluator['eval']>, steps: Float64Array): Matrix {
  if (result.kind === 'scalar') {
    return { type: 'matrix', series: [{ labels: {}, timestampsMs: steps.slice(), values: (result as StepScalar).vals.slice() }] };
  }
  const series: MatrixSeries[] = [];
  for (const s of (result as StepVector).series) {
    let k = 0;
    for (let i = 0; i < steps.length; i++) k += s.has[i];
    if (k === 0) continue;
    const timestampsMs = new Float64Array(k);
    const values = new Float64Array(k);
    k = 0;
    for (let i = 0; i < steps.length; i++) {
      if (!s.has[i]) continue;
      timestampsMs[k] = steps[i];
      values[k++] = s.vals[i];
    }
    series.push({ labels: s.labels, timestampsMs, values });
  }
  series.sort((a, b) => compareLabels(a.labels, b.labels));
  return { type: 'matrix', series };
}
