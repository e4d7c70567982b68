import { fieldText, refText, type FieldExpr, type MetricsExpr, type SecondStage } from './ast';
import { attributeValue, evalField, type EvalSpan, type EvalTrace, type Value } from './field-eval';
import { evaluatePipeline } from './evaluate';
import { compareSeries } from './metrics-compare';

// TraceQL metrics over spans held in memory, as Tempo computes them (pkg/traceql/engine_metrics.go): each span the
// pipeline matches counts in the step interval its start falls in, in the series of its by() values (without by(),
// one series named by the function, `__name__`). rate() is the count per second of the step, count_over_time() the
// count, min/max/avg/sum_over_time() reduce an attribute's numeric values (durations in seconds), quantile_over_time()
// and histogram_over_time() read Tempo's power-of-two buckets (`__bucket`, the bucket's upper bound) and interpolate
// between them as Tempo does; second stages (topk, bottomk, a comparison) apply per step; arithmetic joins series
// with the same labels, or a series with a number.

export interface MetricsWindow {
  startNs: bigint;
  endNs: bigint;
  stepNs: bigint;
}

export type Label = [string, Value];
export interface Series {
  labels: Label[];
  /** Per step interval (index from the window's start); NaN where the series has no value. */
  values: number[];
}

export class MetricsUnsupported extends Error {}

/** The number of step intervals of a window (the last one may be partial). */
export function stepCount(w: MetricsWindow): number {
  return Number((w.endNs - w.startNs + w.stepNs - 1n) / w.stepNs);
}

/** Tempo's Log2Bucketize: the power of two a value rounds up to (-1 below 2). */
export function log2Bucket(v: number): number {
  if (v < 2) return -1;
  return 2 ** Math.ceil(Math.log2(v));
}

/** Tempo's Log2Quantile over buckets sorted by their upper bound. */
export function log2Quantile(p: number, buckets: { max: number; count: number }[]): number {
  const total = buckets.reduce((n, b) => n + b.count, 0);
  if (Number.isNaN(p) || p < 0 || p > 1 || total === 0) return 0;
  const maxSamples = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  let bucket = 0;
  for (let i = 0; i < buckets.length; i++) {
    bucket = i;
    if (seen + buckets[i].count > maxSamples) break;
    seen += buckets[i].count;
    if (seen === maxSamples) return buckets[i].max;
  }
  const interp = (maxSamples - seen) / buckets[bucket].count;
  const maxV = Math.log2(buckets[bucket].max);
  const minV = bucket > 0 ? Math.log2(buckets[bucket - 1].max) : maxV - 1;
  return 2 ** (minV + (maxV - minV) * interp);
}

function numeric(v: Value, isDuration: boolean): number | undefined {
  if (!v) return undefined;
  let n: number | undefined;
  if (v.t === 'number') n = v.v;
  else if (v.t === 'text' && /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(v.v)) n = Number(v.v);
  if (n === undefined || Number.isNaN(n)) return undefined;
  return isDuration ? n / 1e9 : n;
}

/** Quantile and histogram series are told apart by `p` and `__bucket`; without by() they carry no name of their own. */
const ownLabels = (labels: Label[]) => labels.filter(([k]) => k !== '__name__');

const labelKey = (labels: Label[]) => JSON.stringify(labels.map(([k, v]) => [k, v ? v.t : 'nil', v ? v.v : null]));

interface Accumulator {
  labels: Label[];
  count: number[];
  sum: number[];
  min: number[];
  max: number[];
  /** bucket upper bound → count, per step (quantile and histogram). */
  buckets: Map<number, number>[];
}

/** The series of one metrics pipeline (`{…} | fn(…) by (…)`) over the spans of the given traces. */
export function metricsOfPipeline(expr: Extract<MetricsExpr, { kind: 'metrics' }>, traces: EvalTrace[], w: MetricsWindow): Series[] {
  const { fn } = expr;
  if (fn.fn === 'compare') return compareSeries(expr, traces, w);
  const n = stepCount(w);
  const groups = new Map<string, Accumulator>();
  const attribute = 'attribute' in fn ? fn.attribute : undefined;
  const isDuration = attribute !== undefined && attribute.scope === 'intrinsic' && (attribute.name === 'duration' || attribute.name === 'traceDuration' || attribute.name === 'eventTimeSinceStart');
  const byLabel = (e: FieldExpr) => (e.kind === 'attribute' ? refText(e.ref) : fieldText(e));
  for (const trace of traces) {
    const matched = new Set<EvalSpan>(evaluatePipeline(expr.pipeline, trace).flatMap((s) => s.spans));
    for (const span of matched) {
      if (span.startNs < w.startNs || span.startNs >= w.endNs) continue;
      const i = Number((span.startNs - w.startNs) / w.stepNs);
      let value = 1;
      if (attribute) {
        const v = numeric(attributeValue(attribute, span, trace, {}), isDuration);
        if (v === undefined) continue;
        value = v;
      }
      const labels: Label[] = expr.by.length ? expr.by.map((e): Label => [byLabel(e), evalField(e, span, trace, {})]) : [['__name__', { t: 'string', v: fn.fn }]];
      const key = labelKey(labels);
      let acc = groups.get(key);
      if (!acc) {
        acc = { labels, count: Array(n).fill(0), sum: Array(n).fill(0), min: Array(n).fill(Infinity), max: Array(n).fill(-Infinity), buckets: Array.from({ length: n }, () => new Map()) };
        groups.set(key, acc);
      }
      acc.count[i]++;
      acc.sum[i] += value;
      acc.min[i] = Math.min(acc.min[i], value);
      acc.max[i] = Math.max(acc.max[i], value);
      if (fn.fn === 'quantile_over_time' || fn.fn === 'histogram_over_time') {
        // Buckets are taken on the raw value (nanoseconds for durations), as Tempo bucketizes before converting.
        const raw = isDuration ? Math.round(value * 1e9) : value;
        const b = log2Bucket(raw);
        acc.buckets[i].set(b, (acc.buckets[i].get(b) ?? 0) + 1);
      }
    }
  }
  const stepSeconds = Number(w.stepNs) / 1e9;
  const out: Series[] = [];
  for (const acc of groups.values()) {
    const nan = (i: number, v: number) => (acc.count[i] === 0 ? NaN : v);
    switch (fn.fn) {
      case 'rate':
        out.push({ labels: acc.labels, values: acc.count.map((c) => c / stepSeconds) });
        break;
      case 'count_over_time':
        out.push({ labels: acc.labels, values: [...acc.count] });
        break;
      case 'min_over_time':
        out.push({ labels: acc.labels, values: acc.min.map((v, i) => nan(i, v)) });
        break;
      case 'max_over_time':
        out.push({ labels: acc.labels, values: acc.max.map((v, i) => nan(i, v)) });
        break;
      case 'sum_over_time':
        out.push({ labels: acc.labels, values: acc.sum.map((v, i) => nan(i, v)) });
        break;
      case 'avg_over_time':
        out.push({ labels: acc.labels, values: acc.sum.map((v, i) => nan(i, v / acc.count[i])) });
        break;
      case 'quantile_over_time':
        for (const q of fn.quantiles) {
          const values = acc.buckets.map((m) => {
            if (m.size === 0) return NaN;
            const buckets = [...m.entries()].map(([max, count]) => ({ max: max < 0 ? 1 : max, count })).sort((a, b) => a.max - b.max);
            const v = log2Quantile(q, buckets);
            return isDuration ? v / 1e9 : v;
          });
          out.push({ labels: [...ownLabels(acc.labels), ['p', { t: 'number', v: q }]], values });
        }
        break;
      case 'histogram_over_time': {
        const bounds = new Set<number>();
        for (const m of acc.buckets) for (const b of m.keys()) bounds.add(b);
        for (const b of [...bounds].sort((x, y) => x - y)) {
          const upper = isDuration ? b / 1e9 : b;
          out.push({ labels: [...ownLabels(acc.labels), ['__bucket', { t: 'number', v: upper }]], values: acc.buckets.map((m) => m.get(b) ?? 0) });
        }
        break;
      }
    }
  }
  return applySecond(out, expr.second);
}

export function applySecond(series: Series[], second: SecondStage[]): Series[] {
  let out = series;
  for (const stage of second) {
    if (stage.kind === 'filter') {
      const keep = (v: number) => ({ '=': v === stage.value, '!=': v !== stage.value, '>': v > stage.value, '>=': v >= stage.value, '<': v < stage.value, '<=': v <= stage.value })[stage.op as '='] ?? false;
      out = out.map((s) => ({ labels: s.labels, values: s.values.map((v) => (Number.isNaN(v) || !keep(v) ? NaN : v)) }));
    } else {
      // Per step, the k largest (smallest) values keep their place; the rest of that step is dropped.
      const steps = out[0]?.values.length ?? 0;
      const kept = out.map((s) => ({ labels: s.labels, values: Array<number>(steps).fill(NaN) }));
      for (let i = 0; i < steps; i++) {
        const order = out.map((s, j) => [s.values[i], j] as const).filter(([v]) => !Number.isNaN(v));
        order.sort((a, b) => (stage.kind === 'topk' ? b[0] - a[0] : a[0] - b[0]));
        for (const [v, j] of order.slice(0, stage.n)) kept[j].values[i] = v;
      }
      out = kept;
    }
    out = out.filter((s) => s.values.some((v) => !Number.isNaN(v)));
  }
  return out;
}

/** A whole metrics expression: pipelines, numbers and the arithmetic between them. */
export function evaluateMetrics(expr: MetricsExpr, traces: EvalTrace[], w: MetricsWindow): Series[] | number {
  if (expr.kind === 'number') return expr.value;
  if (expr.kind === 'metrics') return metricsOfPipeline(expr, traces, w);
  const left = evaluateMetrics(expr.left, traces, w);
  const right = evaluateMetrics(expr.right, traces, w);
  const op = (a: number, b: number) => (expr.op === '+' ? a + b : expr.op === '-' ? a - b : expr.op === '*' ? a * b : a / b);
  let out: Series[];
  if (typeof left === 'number' && typeof right === 'number') return op(left, right);
  if (typeof left === 'number') out = (right as Series[]).map((s) => ({ labels: s.labels, values: s.values.map((v) => op(left, v)) }));
  else if (typeof right === 'number') out = left.map((s) => ({ labels: s.labels, values: s.values.map((v) => op(v, right)) }));
  else {
    // Series of both sides meet on their labels (the function's `__name__` aside, which differs between functions).
    const key = (s: Series) => labelKey(s.labels.filter(([k]) => k !== '__name__'));
    const byKey = new Map(right.map((s) => [key(s), s]));
    out = left.flatMap((s) => {
      const other = byKey.get(key(s));
      return other ? [{ labels: s.labels, values: s.values.map((v, i) => op(v, other.values[i])) }] : [];
    });
  }
  return applySecond(out, expr.second);
}

/** The metrics pipelines of an expression, left to right. */
export function metricsPipelines(expr: MetricsExpr): Extract<MetricsExpr, { kind: 'metrics' }>[] {
  if (expr.kind === 'metrics') return [expr];
  if (expr.kind === 'math') return [...metricsPipelines(expr.left), ...metricsPipelines(expr.right)];
  return [];
}
