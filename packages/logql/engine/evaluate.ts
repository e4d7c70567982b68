import { compileRe2 } from '../../re2-pattern/re2-pattern';
import { goExpandMatch } from '../log/go-regexp';
import { compileLabelFilter, compilePipeline, ERROR_DETAILS_LABEL, ERROR_LABEL, parseGoFloat, type Entry } from '../log/pipeline';
import { planLogSelector } from '../planner/plan';
import type { LogQuerier } from '../storage/querier';
import type { BinaryOp, Expr, Grouping, MetricExpr, RangeOp } from '../syntax/ast';
import { parseLogQL } from '../syntax/parse';
import { parseBytes, parseDurationNs } from '../syntax/units';
import { LogQLQueryError, pipelineError, seriesLimitError } from './errors';
import { linesReadError, logQuery, readStreams, runPipelineOver } from './log-query';
import { compareLabels, formatValue, labelsKey, labelsString, sortedLabels, stepSeconds, type Labels } from './labels';
import { ownLabel } from '../../labels/own-label';

// The LogQL engine: log queries (pipeline, limit, direction → streams) and metric queries (range aggregations over
// log ranges, vector aggregations, binary operators, vector(), label_replace → matrix or vector), answered in the
// shape of Loki's HTTP API. Work over many lines is done in chunks that yield to the event loop (see docs/qryn.md).

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
// Log queries

// ---------------------------------------------------------------------------------------------------------------
// Metric queries

interface Ctx {
  querier: LogQuerier;
  steps: bigint[];
  stepNs: bigint;
  stats: QueryStats;
  limits: EngineLimits;
  signal?: AbortSignal;
}

interface Series {
  labels: Labels;
  values: (number | undefined)[];
}

type Value = { kind: 'scalar'; values: number[] } | { kind: 'vector'; series: Series[]; ordered?: boolean };

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

/** One sample of a log range: time, value, and the labels of its series. */
interface Sample {
  ts: bigint;
  value: number;
}

const INJECTABLE = new Set<RangeOp>(['bytes_over_time', 'bytes_rate', 'sum_over_time', 'rate', 'count_over_time']);

async function rangeAggregation(ctx: Ctx, e: Extract<MetricExpr, { kind: 'range_agg' }>, injected?: Grouping): Promise<Series[]> {
  const { range, op } = e;
  const R = range.rangeNs;
  const off = range.offsetNs;
  const first = ctx.steps[0];
  const last = ctx.steps[ctx.steps.length - 1];
  const plan = planLogSelector(range.selector);
  const counting = op === 'count_over_time' || op === 'rate' || op === 'bytes_over_time' || op === 'bytes_rate';
  if (counting && !range.unwrap && ctx.querier.countBuckets) {
    const grouping = e.grouping ?? injected;
    // Stages that only drop or keep stream labels (Grafana's logs volume: `| drop __error__`) are applied to the
    // counted streams; a lone `| json` under `sum by (…)` is counted per extracted value where the lines are flat.
    const labelOnly = plan.rest.every((s) => s.kind === 'drop' || s.kind === 'keep');
    const jsonOnly =
      plan.rest.length === 1 && plan.rest[0].kind === 'json' && plan.rest[0].extractions.length === 0 &&
      grouping !== undefined && !grouping.without && grouping.labels.every((l) => !l.endsWith('_extracted') && !l.startsWith('__'));
    if (labelOnly || jsonOnly) {
      const pushed = await pushedCounts(ctx, e, plan, grouping, jsonOnly ? grouping!.labels : undefined);
      if (pushed) return pushed;
    }
  }
  const stored = await readStreams(
    ctx.querier,
    { matchers: range.selector.matchers, startNs: first - off - R + 1n, endNs: last - off + 1n, lineFilters: plan.pushed, direction: 'forward' },
    ctx.limits,
    ctx.signal,
  );
  const bySeries = new Map<string, { labels: Labels; samples: Sample[] }>();
  const extract = sampleExtractor(e, injected);
  await runPipelineOver(stored, plan.rest, ctx.stats, (entry) => {
    const s = extract(entry);
    if (!s) return;
    const key = labelsKey(s.labels);
    let series = bySeries.get(key);
    if (!series) {
      series = { labels: s.labels, samples: [] };
      bySeries.set(key, series);
    }
    series.samples.push({ ts: entry.tsNs, value: s.value });
  }, ctx.signal);
  if (op === 'absent_over_time') return absent(ctx, e, [...bySeries.values()].map((s) => s.samples));
  const out: Series[] = [];
  for (const s of bySeries.values()) {
    if (s.samples.length > 1) s.samples.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
    const values = windows(ctx.steps, R, off, s.samples, (win, start, end) => aggregateWindow(op, win, R, e.param, start, end));
    if (values.some((v) => v !== undefined)) {
      const err = s.labels[ERROR_LABEL];
      if (err !== undefined && err !== '') throw pipelineError(labelsString(s.labels), err);
      out.push({ labels: s.labels, values });
    }
    if (out.length > ctx.limits.maxSeries * 4) throw seriesLimitError(ctx.limits.maxSeries);
  }
  return out;
}

/** For each step t the samples in (t - offset - range, t - offset], handed to `agg` (which may answer undefined). */
function windows(steps: bigint[], R: bigint, off: bigint, samples: Sample[], agg: (win: Sample[], start: bigint, end: bigint) => number | undefined): (number | undefined)[] {
  let lo = 0;
  let hi = 0;
  return steps.map((t) => {
    const end = t - off;
    const start = end - R;
    while (hi < samples.length && samples[hi].ts <= end) hi++;
    while (lo < hi && samples[lo].ts <= start) lo++;
    if (lo >= hi) return undefined;
    return agg(samples.slice(lo, hi), start, end);
  });
}

function sampleExtractor(e: Extract<MetricExpr, { kind: 'range_agg' }>, injected?: Grouping): (entry: Entry) => { labels: Labels; value: number } | null {
  const { op, range } = e;
  const grouping = e.grouping ?? injected;
  if (!range.unwrap) {
    const bytes = op === 'bytes_over_time' || op === 'bytes_rate';
    return (entry) => ({ labels: grouping ? groupLabels(entry.labels, grouping, undefined) : entry.labels, value: bytes ? Buffer.byteLength(entry.line) : 1 });
  }
  const { label, conv, filters } = range.unwrap;
  const post = filters.map(compileLabelFilter);
  const convert = (v: string): { value: number; error?: string } => {
    if (conv === 'bytes') {
      const b = parseBytes(v);
      return b === undefined ? { value: 0, error: `strconv.ParseFloat: parsing ${JSON.stringify(v)}: invalid syntax` } : { value: b };
    }
    if (conv === 'duration' || conv === 'duration_seconds') {
      const ns = parseDurationNs(v, false);
      return Number.isNaN(ns) ? { value: 0, error: `time: invalid duration ${JSON.stringify(v)}` } : { value: ns / 1e9 };
    }
    const n = parseGoFloat(v);
    return n === undefined ? { value: 0, error: `strconv.ParseFloat: parsing ${JSON.stringify(v)}: invalid syntax` } : { value: n };
  };
  return (entry) => {
    const raw = ownLabel(entry.labels, label);
    if (raw === undefined || raw === '') return null;
    const c = convert(raw);
    if (c.error !== undefined) {
      entry.labels[ERROR_LABEL] = 'SampleExtractionErr';
      entry.labels[ERROR_DETAILS_LABEL] = c.error;
    }
    for (const f of post) if (!f(entry)) return null;
    return { labels: groupLabels(entry.labels, grouping, label), value: c.value };
  };
}

/** The labels of an unwrapped sample: grouped `by`, or without the listed labels and the unwrapped one. */
function groupLabels(labels: Labels, grouping: Grouping | undefined, unwrapped: string | undefined): Labels {
  // A sample with an error keeps all its labels, so that the error is reported (as Loki's GroupedLabels).
  if (labels[ERROR_LABEL] !== undefined) return labels;
  const out: Labels = {};
  if (grouping && !grouping.without) {
    for (const n of grouping.labels) if (ownLabel(labels, n) !== undefined) out[n] = labels[n];
    return out;
  }
  const drop = new Set([...(grouping?.labels ?? []), ...(unwrapped !== undefined ? [unwrapped] : [])]);
  for (const [n, v] of Object.entries(labels)) if (!drop.has(n)) out[n] = v;
  return out;
}

function aggregateWindow(op: RangeOp, win: Sample[], R: bigint, param: number | undefined, start: bigint, end: bigint): number | undefined {
  const seconds = Number(R) / 1e9;
  switch (op) {
    case 'count_over_time':
      return win.length;
    case 'rate':
      return win.reduce((a, s) => a + s.value, 0) / seconds;
    case 'bytes_over_time':
    case 'sum_over_time':
      return win.reduce((a, s) => a + s.value, 0);
    case 'bytes_rate':
      return win.reduce((a, s) => a + s.value, 0) / seconds;
    case 'avg_over_time':
      return win.reduce((a, s) => a + s.value, 0) / win.length;
    case 'min_over_time':
      return win.reduce((a, s) => (s.value < a || Number.isNaN(a) ? s.value : a), win[0].value);
    case 'max_over_time':
      return win.reduce((a, s) => (s.value > a || Number.isNaN(a) ? s.value : a), win[0].value);
    case 'stddev_over_time':
    case 'stdvar_over_time': {
      const variance = populationVariance(win.map((s) => s.value));
      return op === 'stdvar_over_time' ? variance : Math.sqrt(variance);
    }
    case 'quantile_over_time':
      return quantile(param ?? 0, win.map((s) => s.value));
    case 'first_over_time':
      return win[0].value;
    case 'last_over_time':
      return win[win.length - 1].value;
    case 'rate_counter':
      return counterRate(win, start, end);
    case 'absent_over_time':
      return undefined;
  }
}

function populationVariance(values: number[]): number {
  const mean = values.reduce((a, v) => a + v, 0) / values.length;
  return values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
}

/** Prometheus' quantile: linear interpolation between the closest ranks; φ outside [0,1] gives ∓Inf. */
export function quantile(q: number, values: number[]): number {
  if (values.length === 0) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const lower = Math.max(0, Math.floor(rank));
  const upper = Math.min(sorted.length - 1, lower + 1);
  const weight = rank - Math.floor(rank);
  return sorted[lower] * (1 - weight) + sorted[upper] * weight;
}

/** Prometheus' extrapolated counter rate over the window (start, end] (what Loki's rate_counter computes). */
function counterRate(win: Sample[], start: bigint, end: bigint): number | undefined {
  if (win.length < 2) return undefined;
  const first = win[0];
  const last = win[win.length - 1];
  let result = last.value - first.value;
  let prev = first.value;
  for (let i = 1; i < win.length; i++) {
    if (win[i].value < prev) result += prev;
    prev = win[i].value;
  }
  const sec = (ns: bigint) => Number(ns) / 1e9;
  let toStart = sec(first.ts - start);
  const toEnd = sec(end - last.ts);
  const sampled = sec(last.ts - first.ts);
  if (sampled === 0) return undefined;
  const avg = sampled / (win.length - 1);
  if (result > 0 && first.value >= 0) {
    const toZero = sampled * (first.value / result);
    if (toZero < toStart) toStart = toZero;
  }
  const threshold = avg * 1.1;
  let interval = sampled;
  interval += toStart < threshold ? toStart : avg / 2;
  interval += toEnd < threshold ? toEnd : avg / 2;
  return (result * (interval / sampled)) / sec(end - start);
}

function absent(ctx: Ctx, e: Extract<MetricExpr, { kind: 'range_agg' }>, all: Sample[][]): Series[] {
  const merged = all.flat().sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
  const present = windows(ctx.steps, e.range.rangeNs, e.range.offsetNs, merged, () => 1);
  const values = present.map((p) => (p === undefined ? 1 : undefined));
  if (values.every((v) => v === undefined)) return [];
  const labels: Labels = {};
  const seen = new Set<string>();
  for (const m of e.range.selector.matchers) {
    if (m.op !== '=') continue;
    if (seen.has(m.name)) {
      delete labels[m.name];
      continue;
    }
    seen.add(m.name);
    labels[m.name] = m.value;
  }
  return [{ labels, values }];
}

async function pushedCounts(
  ctx: Ctx,
  e: Extract<MetricExpr, { kind: 'range_agg' }>,
  plan: ReturnType<typeof planLogSelector>,
  grouping: Grouping | undefined,
  jsonKeys: string[] | undefined,
): Promise<Series[] | undefined> {
  const R = e.range.rangeNs;
  const off = e.range.offsetNs;
  // Buckets of width gcd(range, step) so that every step's window is a whole number of buckets.
  const g = ctx.steps.length > 1 ? gcd(R, ctx.stepNs) : R;
  const first = ctx.steps[0];
  const last = ctx.steps[ctx.steps.length - 1];
  const origin = first - off - R;
  const count = Number((last - off - origin) / g);
  if (count > 200_000) return undefined;
  const matchers = e.range.selector.matchers;
  const { buckets, others } = await ctx.querier.countBuckets!({ matchers, lineFilters: plan.pushed, originNs: origin, widthNs: g, count, jsonKeys }, ctx.signal);
  const transform = jsonKeys ? undefined : compilePipeline(plan.rest);
  const merged = new Map<string, { labels: Labels; lines: Float64Array; bytes: Float64Array }>();
  const add = (labels: Labels, lines: Float64Array, bytesArr: Float64Array) => {
    const grouped = grouping ? groupLabels(labels, grouping, undefined) : labels;
    const k = labelsKey(grouped);
    const m = merged.get(k);
    if (!m) merged.set(k, { labels: grouped, lines: Float64Array.from(lines), bytes: Float64Array.from(bytesArr) });
    else
      for (let i = 0; i < count; i++) {
        m.lines[i] += lines[i];
        m.bytes[i] += bytesArr[i];
      }
  };
  for (const b of buckets) {
    let labels = b.labels;
    if (transform) labels = transform('', b.labels, 0n)!.labels;
    if (b.json) {
      labels = { ...b.labels };
      for (const [k, v] of Object.entries(b.json)) labels[Object.prototype.hasOwnProperty.call(b.labels, k) ? `${k}_extracted` : k] = v;
    }
    for (const l of b.lines) ctx.stats.linesRead += l;
    for (const x of b.bytes) ctx.stats.bytesRead += x;
    add(labels, b.lines, b.bytes);
  }
  if (jsonKeys) {
    // The lines that are not flat JSON objects go through the whole pipeline here.
    const rest = others ?? [];
    const n = rest.reduce((a, r) => a + r.lines.length, 0);
    if (n > ctx.limits.maxLinesRead) throw linesReadError(n, ctx.limits.maxLinesRead);
    await runPipelineOver(rest, plan.rest, ctx.stats, (entry) => {
      const lines = new Float64Array(count);
      const bytesArr = new Float64Array(count);
      const k = Number((entry.tsNs - origin - 1n) / g);
      lines[k] = 1;
      bytesArr[k] = Buffer.byteLength(entry.line);
      add(entry.labels, lines, bytesArr);
    }, ctx.signal);
  }
  const per = Number(R / g);
  const seconds = Number(R) / 1e9;
  const bytes = e.op === 'bytes_over_time' || e.op === 'bytes_rate';
  const perSecond = e.op === 'rate' || e.op === 'bytes_rate';
  const out: Series[] = [];
  for (const b of merged.values()) {
    const src = bytes ? b.bytes : b.lines;
    // Prefix sums turn each window into two lookups.
    const prefix = new Float64Array(count + 1);
    const linePrefix = new Float64Array(count + 1);
    for (let k = 0; k < count; k++) {
      prefix[k + 1] = prefix[k] + src[k];
      linePrefix[k + 1] = linePrefix[k] + b.lines[k];
    }
    const values = ctx.steps.map((t) => {
      const startBucket = Number((t - first) / g);
      const endBucket = startBucket + per;
      if (linePrefix[endBucket] - linePrefix[startBucket] === 0) return undefined;
      const v = prefix[endBucket] - prefix[startBucket];
      return perSecond ? v / seconds : v;
    });
    if (values.some((v) => v !== undefined)) {
      const err = b.labels[ERROR_LABEL];
      if (err !== undefined && err !== '') throw pipelineError(labelsString(b.labels), err);
      out.push({ labels: b.labels, values });
    }
  }
  ctx.stats.postFilterLines = ctx.stats.linesRead;
  return out;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b > 0n) [a, b] = [b, a % b];
  return a;
}

// ---------------------------------------------------------------------------------------------------------------
// Vector aggregations, label_replace, binary operators (Prometheus' semantics, which Loki follows)

function groupKey(labels: Labels, g: Grouping | undefined): { key: string; labels: Labels } {
  const out: Labels = {};
  if (!g) return { key: '', labels: out };
  if (g.without) {
    const drop = new Set(g.labels);
    for (const [n, v] of Object.entries(labels)) if (!drop.has(n)) out[n] = v;
  } else for (const n of g.labels) if (ownLabel(labels, n) !== undefined && labels[n] !== '') out[n] = labels[n];
  return { key: labelsKey(out), labels: out };
}

function vectorAggregation(ctx: Ctx, e: Extract<MetricExpr, { kind: 'vector_agg' }>, input: Series[]): Value {
  const n = ctx.steps.length;
  if (e.op === 'sort' || e.op === 'sort_desc') {
    // Only an instant answer has an order; a matrix is ordered by labels anyway.
    if (n === 1) {
      const sign = e.op === 'sort' ? 1 : -1;
      const present = input.filter((s) => s.values[0] !== undefined);
      present.sort((a, b) => {
        const x = a.values[0]!;
        const y = b.values[0]!;
        if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
        return (x - y) * sign || compareLabels(a.labels, b.labels);
      });
      return { kind: 'vector', series: present, ordered: true };
    }
    return { kind: 'vector', series: input };
  }
  if (e.op === 'topk' || e.op === 'bottomk') {
    const k = e.param!;
    const out = input.map((s) => ({ labels: s.labels, values: new Array<number | undefined>(n).fill(undefined) }));
    for (let i = 0; i < n; i++) {
      const groups = new Map<string, number[]>();
      input.forEach((s, idx) => {
        if (s.values[i] === undefined) return;
        const { key } = groupKey(s.labels, e.grouping ?? { without: false, labels: [] });
        const list = groups.get(key) ?? [];
        list.push(idx);
        groups.set(key, list);
      });
      for (const list of groups.values()) {
        list.sort((a, b) => {
          const x = input[a].values[i]!;
          const y = input[b].values[i]!;
          if (x !== y && !(Number.isNaN(x) && Number.isNaN(y))) {
            if (Number.isNaN(x)) return 1;
            if (Number.isNaN(y)) return -1;
            return e.op === 'topk' ? y - x : x - y;
          }
          return compareLabels(input[a].labels, input[b].labels);
        });
        for (const idx of list.slice(0, k)) out[idx].values[i] = input[idx].values[i];
      }
    }
    if (n === 1) {
      // An instant topk answers in rank order.
      const ranked = out.filter((s) => s.values[0] !== undefined);
      ranked.sort((a, b) => {
        const x = a.values[0]!;
        const y = b.values[0]!;
        return x !== y ? (e.op === 'topk' ? y - x : x - y) : compareLabels(a.labels, b.labels);
      });
      return { kind: 'vector', series: ranked };
    }
    return { kind: 'vector', series: out };
  }
  const groups = new Map<string, { labels: Labels; acc: number[][] }>();
  // In label order, so that sums of fractions come out the same whatever order the store answered in.
  for (const s of [...input].sort((a, b) => compareLabels(a.labels, b.labels))) {
    const { key, labels } = groupKey(s.labels, e.grouping);
    let g = groups.get(key);
    if (!g) {
      g = { labels, acc: Array.from({ length: n }, () => [] as number[]) };
      groups.set(key, g);
    }
    for (let i = 0; i < n; i++) {
      const v = s.values[i];
      if (v === undefined) continue;
      g.acc[i].push(v);
    }
  }
  const series: Series[] = [];
  for (const g of groups.values()) {
    series.push({
      labels: g.labels,
      values: g.acc.map((vs) => {
        if (vs.length === 0) return undefined;
        const sum = vs.reduce((a, v) => a + v, 0);
        switch (e.op) {
          case 'sum':
            return sum;
          case 'avg':
            return sum / vs.length;
          case 'min':
            return vs.reduce((a, v) => (v < a || Number.isNaN(a) ? v : a));
          case 'max':
            return vs.reduce((a, v) => (v > a || Number.isNaN(a) ? v : a));
          case 'count':
            return vs.length;
          case 'stdvar':
            return populationVariance(vs);
          case 'stddev':
            return Math.sqrt(populationVariance(vs));
          default:
            return undefined;
        }
      }),
    });
  }
  return { kind: 'vector', series };
}

function labelReplace(input: Series[], e: Extract<MetricExpr, { kind: 'label_replace' }>): Series[] {
  const re = compileRe2(`^(?:${e.regex})$`);
  const byKey = new Map<string, Series>();
  for (const s of input) {
    const src = ownLabel(s.labels, e.src) ?? '';
    const replaced = goExpandMatch(re, src, e.replacement);
    let labels = s.labels;
    if (replaced !== undefined) {
      labels = { ...s.labels };
      if (replaced === '') delete labels[e.dst];
      else labels[e.dst] = replaced;
    }
    const key = labelsKey(labels);
    const prev = byKey.get(key);
    if (prev) {
      for (let i = 0; i < s.values.length; i++) {
        if (s.values[i] !== undefined && prev.values[i] !== undefined) throw new LogQLQueryError('vector cannot contain metrics with the same labelset');
        if (s.values[i] !== undefined) prev.values[i] = s.values[i];
      }
    } else byKey.set(key, { labels, values: [...s.values] });
  }
  return [...byKey.values()];
}

const COMPARISON = new Set<BinaryOp>(['==', '!=', '>', '>=', '<', '<=']);

function arith(op: BinaryOp, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
    case '^':
      return a ** b;
    case '==':
      return a === b ? 1 : 0;
    case '!=':
      return a !== b ? 1 : 0;
    case '>':
      return a > b ? 1 : 0;
    case '>=':
      return a >= b ? 1 : 0;
    case '<':
      return a < b ? 1 : 0;
    case '<=':
      return a <= b ? 1 : 0;
    default:
      return NaN;
  }
}

function binary(ctx: Ctx, e: Extract<MetricExpr, { kind: 'binary' }>, l: Value, r: Value): Value {
  const n = ctx.steps.length;
  const cmp = COMPARISON.has(e.op);
  if (l.kind === 'scalar' && r.kind === 'scalar') {
    if (cmp && !e.bool) throw new LogQLQueryError('comparisons between scalars must use BOOL modifier');
    return { kind: 'scalar', values: l.values.map((a, i) => arith(e.op, a, r.values[i])) };
  }
  if (l.kind === 'scalar' || r.kind === 'scalar') {
    const vec = (l.kind === 'vector' ? l : r) as Extract<Value, { kind: 'vector' }>;
    const sc = (l.kind === 'scalar' ? l : r) as Extract<Value, { kind: 'scalar' }>;
    const vecLeft = l.kind === 'vector';
    return {
      kind: 'vector',
      series: vec.series.map((s) => ({
        labels: s.labels,
        values: s.values.map((v, i) => {
          if (v === undefined) return undefined;
          const a = vecLeft ? v : sc.values[i];
          const b = vecLeft ? sc.values[i] : v;
          const res = arith(e.op, a, b);
          if (cmp && !e.bool) return res === 1 ? v : undefined;
          return res;
        }),
      })),
    };
  }
  const m = e.matching;
  const signature = (labels: Labels): string => {
    if (m?.on) {
      const out: Labels = {};
      for (const name of m.labels) if (ownLabel(labels, name) !== undefined) out[name] = labels[name];
      return labelsKey(out);
    }
    const ignore = new Set(m?.labels ?? []);
    const out: Labels = {};
    for (const [k, v] of Object.entries(labels)) if (!ignore.has(k)) out[k] = v;
    return labelsKey(out);
  };
  if (e.op === 'and' || e.op === 'or' || e.op === 'unless') {
    const out: Series[] = l.series.map((s) => ({ labels: s.labels, values: new Array<number | undefined>(n).fill(undefined) }));
    const rightOut: Series[] = r.series.map((s) => ({ labels: s.labels, values: new Array<number | undefined>(n).fill(undefined) }));
    const lsig = l.series.map((s) => signature(s.labels));
    const rsig = r.series.map((s) => signature(s.labels));
    for (let i = 0; i < n; i++) {
      const rightHas = new Set(r.series.flatMap((s, j) => (s.values[i] !== undefined ? [rsig[j]] : [])));
      const leftHas = new Set(l.series.flatMap((s, j) => (s.values[i] !== undefined ? [lsig[j]] : [])));
      l.series.forEach((s, j) => {
        const v = s.values[i];
        if (v === undefined) return;
        if (e.op === 'or' || (e.op === 'and' ? rightHas.has(lsig[j]) : !rightHas.has(lsig[j]))) out[j].values[i] = v;
      });
      if (e.op === 'or') {
        r.series.forEach((s, j) => {
          if (s.values[i] !== undefined && !leftHas.has(rsig[j])) rightOut[j].values[i] = s.values[i];
        });
      }
    }
    return { kind: 'vector', series: e.op === 'or' ? [...out, ...rightOut] : out };
  }
  // Arithmetic and comparisons: one-to-one, or many-to-one with group_left / group_right.
  const card = m?.group;
  const [many, one] = card === 'right' ? [r.series, l.series] : [l.series, r.series];
  const manyIsLeft = card !== 'right';
  const oneSig = one.map((s) => signature(s.labels));
  const manySig = many.map((s) => signature(s.labels));
  const results = new Map<string, Series>();
  for (let i = 0; i < n; i++) {
    const oneBySig = new Map<string, number>();
    one.forEach((s, j) => {
      if (s.values[i] === undefined) return;
      if (oneBySig.has(oneSig[j])) {
        throw new LogQLQueryError(
          card ? `found duplicate series for the match group ${labelsString(one[j].labels)} on the ${card === 'left' ? 'right' : 'left'} hand-side of the operation; many-to-many matching not allowed: matching labels must be unique on one side` : 'found duplicate series for the match group on the right hand-side of the operation; many-to-many matching not allowed: matching labels must be unique on one side',
        );
      }
      oneBySig.set(oneSig[j], j);
    });
    const seenMany = new Set<string>();
    many.forEach((s, j) => {
      const v = s.values[i];
      if (v === undefined) return;
      const oj = oneBySig.get(manySig[j]);
      if (oj === undefined) return;
      if (!card) {
        if (seenMany.has(manySig[j])) throw new LogQLQueryError('multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)');
        seenMany.add(manySig[j]);
      }
      const ov = one[oj].values[i]!;
      const [a, b] = manyIsLeft ? [v, ov] : [ov, v];
      const res = arith(e.op, a, b);
      let value: number | undefined = res;
      if (cmp && !e.bool) value = res === 1 ? a : undefined;
      if (value === undefined) return;
      const labels = resultLabels(s.labels, one[oj].labels, m, card);
      const key = labelsKey(labels);
      let series = results.get(key);
      if (!series) {
        series = { labels, values: new Array<number | undefined>(n).fill(undefined) };
        results.set(key, series);
      }
      if (series.values[i] !== undefined) throw new LogQLQueryError('multiple matches for labels: grouping labels must ensure unique matches');
      series.values[i] = value;
    });
  }
  return { kind: 'vector', series: [...results.values()] };
}

function resultLabels(manyLabels: Labels, oneLabels: Labels, m: Extract<MetricExpr, { kind: 'binary' }>['matching'], card: 'left' | 'right' | undefined): Labels {
  const out: Labels = { ...manyLabels };
  if (!card) {
    if (m?.on) {
      const keep = new Set(m.labels);
      for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
    } else if (m) for (const k of m.labels) delete out[k];
    return out;
  }
  for (const name of m?.include ?? []) {
    const v = ownLabel(oneLabels, name);
    if (v !== undefined && v !== '') out[name] = v;
    else delete out[name];
  }
  return out;
}
