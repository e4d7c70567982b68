import { compileLabelFilter, compilePipeline, ERROR_DETAILS_LABEL, ERROR_LABEL, parseGoFloat, type Entry } from '../log/pipeline';
import { planLogSelector } from '../planner/plan';
import type { Grouping, MetricExpr, RangeOp } from '../syntax/ast';
import { parseGoDurationNs } from '../syntax/duration';
import { parseBytes } from '../syntax/units';
import { pipelineError, seriesLimitError } from './errors';
import { canceled, linesInOrder, linesReadError, ReadCounter, runPipelineOver } from './log-query';
import { labelsKey, labelsString, type Labels } from './labels';
import type { Ctx, StepEvaluator, StepSample, StepValue } from './metric-value';
import { RangeStepEvaluator, type Sample } from './range-step-evaluator';
import { ownLabel } from '../../labels/own-label';

// Range aggregations (count_over_time, rate, the unwrapped *_over_time …) as Loki's range vector step evaluator:
// the range's lines go through the pipeline into samples per series, and for each step the samples of its window
// (t − offset − range, t − offset] are aggregated. Counting ones whose stages the store can run are answered from
// the store's counts per step bucket (pushedCounts).


export const INJECTABLE = new Set<RangeOp>(['bytes_over_time', 'bytes_rate', 'sum_over_time', 'rate', 'count_over_time']);

export async function* rangeAggregation(ctx: Ctx, e: Extract<MetricExpr, { kind: 'range_agg' }>, injected?: Grouping): StepEvaluator {
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
      if (pushed) {
        yield* pushed;
        return;
      }
    }
  }
  // The range's lines one by one from the store (not held: each becomes a sample or nothing), counted against
  // maxLinesRead as they arrive, read only as far as the step asked for needs.
  const lines = linesInOrder(
    ctx.querier,
    { matchers: range.selector.matchers, startNs: first - off - R + 1n, endNs: last - off + 1n, lineFilters: plan.pushed, direction: 'forward', windowed: false },
    ctx.limits,
    ctx.signal,
  );
  const evaluator = new RangeStepEvaluator(
    ctx.steps,
    R,
    off,
    op === 'absent_over_time' ? () => 1 : (win, start, end) => aggregateWindow(op, win, R, e.param, start, end),
  );
  const extract = sampleExtractor(e, injected);
  const run = compilePipeline(plan.rest);
  const counter = new ReadCounter(ctx.stats, ctx.limits, ctx.signal);
  const checked = op === 'absent_over_time' ? absentStep(e) : checkedStep(ctx, true);
  // Streams are numbered in the order they first come; a stream's lines are numbered within it.
  const streams = new Map<Labels, { index: number; lines: number }>();
  for await (const batch of lines) {
    for (const row of batch) {
      while (evaluator.readyBefore(row.tsNs)) yield checked(evaluator.step());
      counter.line(row.line);
      let stream = streams.get(row.labels);
      if (!stream) streams.set(row.labels, (stream = { index: streams.size, lines: 0 }));
      const lineIndex = stream.lines++;
      const entry = run(row.line, row.labels, row.tsNs);
      if (entry) {
        ctx.stats.postFilterLines++;
        const sample = extract(entry);
        if (sample) evaluator.add(labelsKey(sample.labels), sample.labels, { ts: entry.tsNs, value: sample.value, stream: stream.index }, lineIndex);
      }
      await counter.pause();
    }
    if (ctx.signal?.aborted) throw canceled();
  }
  while (!evaluator.done) yield checked(evaluator.step());
}

/**
 * A step of a range aggregation as answered: a series that still carries `__error__` fails the query (Loki's
 * pipeline error); with `bounded`, more distinct series than four times the series limit (samples of the pipeline,
 * which nothing else bounds) stop it before the answer's own check.
 */
function checkedStep(ctx: Ctx, bounded: boolean): (samples: StepSample[]) => StepValue {
  // A series' labels are one object over its steps (the step evaluator's), so the object stands for the series.
  const seen = new Set<Labels>();
  const bound = bounded ? ctx.limits.maxSeries * 4 : Infinity;
  return (samples) => {
    for (const s of samples) {
      const err = s.labels[ERROR_LABEL];
      if (err !== undefined && err !== '') throw pipelineError(labelsString(s.labels), err);
      if (bounded && seen.size <= bound) seen.add(s.labels);
    }
    if (seen.size > bound) throw seriesLimitError(ctx.limits.maxSeries);
    return { kind: 'vector', samples };
  };
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
      const ns = parseGoDurationNs(v);
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

export function populationVariance(values: number[]): number {
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

/** absent_over_time: 1 at the steps where no series has a sample in the window, with the selector's equality labels. */
function absentStep(e: Extract<MetricExpr, { kind: 'range_agg' }>): (samples: StepSample[]) => StepValue {
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
  return (samples) => ({ kind: 'vector', samples: samples.length > 0 ? [] : [{ labels, value: 1 }] });
}

async function pushedCounts(
  ctx: Ctx,
  e: Extract<MetricExpr, { kind: 'range_agg' }>,
  plan: ReturnType<typeof planLogSelector>,
  grouping: Grouping | undefined,
  jsonKeys: string[] | undefined,
): Promise<StepEvaluator | undefined> {
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
  // What this count reads passes its stages whole: its lines count as post-filter lines, added to those of the
  // query's other selectors (which may read at the same time, a step each).
  const readBefore = ctx.stats.linesRead;
  const postBefore = ctx.stats.postFilterLines;
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
  // Prefix sums turn each window into two lookups; the buckets are the range's windows, held for the steps to come.
  const counted: { labels: Labels; prefix: Float64Array; linePrefix: Float64Array }[] = [];
  for (const b of merged.values()) {
    const src = bytes ? b.bytes : b.lines;
    const prefix = new Float64Array(count + 1);
    const linePrefix = new Float64Array(count + 1);
    for (let k = 0; k < count; k++) {
      prefix[k + 1] = prefix[k] + src[k];
      linePrefix[k + 1] = linePrefix[k] + b.lines[k];
    }
    counted.push({ labels: b.labels, prefix, linePrefix });
  }
  merged.clear();
  ctx.stats.postFilterLines = postBefore + (ctx.stats.linesRead - readBefore);
  const checked = checkedStep(ctx, false);
  return (async function* countedSteps() {
    for (const t of ctx.steps) {
      const startBucket = Number((t - first) / g);
      const endBucket = startBucket + per;
      const samples: StepSample[] = [];
      for (const c of counted) {
        if (c.linePrefix[endBucket] - c.linePrefix[startBucket] === 0) continue;
        const v = c.prefix[endBucket] - c.prefix[startBucket];
        samples.push({ labels: c.labels, value: perSecond ? v / seconds : v });
      }
      yield checked(samples);
    }
  })();
}

function gcd(a: bigint, b: bigint): bigint {
  while (b > 0n) [a, b] = [b, a % b];
  return a;
}
