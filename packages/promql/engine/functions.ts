// PromQL's functions with Prometheus 2.42's semantics. Range functions read a window [lo, hi) of a series' points
// straight from its arrays (the evaluator slides the window with two indices); per-sample functions map values.

import { compileRe2 } from '../../re2-pattern/re2-pattern';
import { goExpandMatch } from '../../re2-pattern/go-expand';
import type { Labels } from '../storage/querier';
import { LABEL_NAME_RE } from '../parser/lex';
import { executionError } from './errors';
import { ownLabel } from '../../labels/own-label';

/** What a range function knows besides its window: the step time, the window bounds and scalar arguments. */
export interface RangeEnv {
  /** The evaluation time (Prometheus' enh.Ts). */
  ts: number;
  rangeStart: number;
  rangeEnd: number;
  rangeMs: number;
  /** Scalar arguments at this step, in argument order without the range argument. */
  params: number[];
  /** The whole series never decreases (no counter reset to look for in any window). */
  monotonic: boolean;
}

export type RangeFunction = (t: Float64Array, v: Float64Array, lo: number, hi: number, env: RangeEnv) => number | undefined;

/** Neumaier's compensated sum step, as Prometheus' kahanSumInc. */
function kahanInc(inc: number, sum: number, c: number, out: [number, number]): void {
  const t = sum + inc;
  if (Math.abs(sum) >= Math.abs(inc)) c += sum - t + inc;
  else c += inc - t + sum;
  out[0] = t;
  out[1] = c;
}
const kb: [number, number] = [0, 0];

/** rate, increase and delta: the change over the window extrapolated towards its ends (Prometheus 2.42). */
function extrapolatedRate(isCounter: boolean, isRate: boolean): RangeFunction {
  return (t, v, lo, hi, env) => {
    const n = hi - lo;
    if (n < 2) return undefined;
    let result = v[hi - 1] - v[lo];
    if (isCounter && !env.monotonic) {
      let prev = v[lo];
      for (let i = lo + 1; i < hi; i++) {
        const cur = v[i];
        if (cur < prev) result += prev;
        prev = cur;
      }
    }
    let durationToStart = (t[lo] - env.rangeStart) / 1000;
    const durationToEnd = (env.rangeEnd - t[hi - 1]) / 1000;
    const sampledInterval = (t[hi - 1] - t[lo]) / 1000;
    const averageDurationBetweenSamples = sampledInterval / (n - 1);
    if (isCounter && result > 0 && v[lo] >= 0) {
      // A counter cannot go below zero: extrapolate at most to where it would have been zero.
      const durationToZero = sampledInterval * (v[lo] / result);
      if (durationToZero < durationToStart) durationToStart = durationToZero;
    }
    const threshold = averageDurationBetweenSamples * 1.1;
    let extrapolateToInterval = sampledInterval;
    extrapolateToInterval += durationToStart < threshold ? durationToStart : averageDurationBetweenSamples / 2;
    extrapolateToInterval += durationToEnd < threshold ? durationToEnd : averageDurationBetweenSamples / 2;
    let factor = extrapolateToInterval / sampledInterval;
    if (isRate) factor /= env.rangeMs / 1000;
    return result * factor;
  };
}

function instantValue(isRate: boolean): RangeFunction {
  return (t, v, lo, hi) => {
    if (hi - lo < 2) return undefined;
    const last = v[hi - 1];
    const prev = v[hi - 2];
    let result = isRate && last < prev ? last : last - prev;
    const sampledInterval = t[hi - 1] - t[hi - 2];
    if (sampledInterval === 0) return undefined;
    if (isRate) result /= sampledInterval / 1000;
    return result;
  };
}

/** Least squares over the window: [slope, intercept] at interceptTime (Prometheus' linearRegression, Kahan sums). */
function linearRegression(t: Float64Array, v: Float64Array, lo: number, hi: number, interceptTime: number): [number, number] {
  let n = 0;
  let sumX = 0, cX = 0, sumY = 0, cY = 0, sumXY = 0, cXY = 0, sumX2 = 0, cX2 = 0;
  const initY = v[lo];
  let constY = true;
  for (let i = lo; i < hi; i++) {
    const y = v[i];
    if (constY && i > lo && y !== initY) constY = false;
    n += 1;
    const x = (t[i] - interceptTime) / 1000;
    kahanInc(x, sumX, cX, kb); sumX = kb[0]; cX = kb[1];
    kahanInc(y, sumY, cY, kb); sumY = kb[0]; cY = kb[1];
    kahanInc(x * y, sumXY, cXY, kb); sumXY = kb[0]; cXY = kb[1];
    kahanInc(x * x, sumX2, cX2, kb); sumX2 = kb[0]; cX2 = kb[1];
  }
  if (constY) {
    if (!Number.isFinite(initY) && !Number.isNaN(initY)) return [NaN, NaN];
    return [0, initY];
  }
  sumX += cX;
  sumY += cY;
  sumXY += cXY;
  sumX2 += cX2;
  const covXY = sumXY - (sumX * sumY) / n;
  const varX = sumX2 - (sumX * sumX) / n;
  const slope = covXY / varX;
  const intercept = sumY / n - (slope * sumX) / n;
  return [slope, intercept];
}

/** Prometheus' quantile (linear interpolation between closest ranks) over the values sorted with NaN first, as 2.42. */
export function quantileOf(q: number, values: number[]): number {
  if (values.length === 0 || Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  // Prometheus' vectorByValueHeap order: NaN before every number.
  values.sort((a, b) => (a !== a ? (b !== b ? 0 : -1) : b !== b ? 1 : a - b));
  const n = values.length;
  const rank = q * (n - 1);
  const lower = Math.max(0, Math.floor(rank));
  const upper = Math.min(n - 1, lower + 1);
  const weight = rank - Math.floor(rank);
  return values[lower] * (1 - weight) + values[upper] * weight;
}

function goMax(a: number, b: number): number {
  return Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.max(a, b);
}
function goMin(a: number, b: number): number {
  return Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.min(a, b);
}

export const RANGE_FUNCTIONS: Record<string, RangeFunction> = {
  rate: extrapolatedRate(true, true),
  increase: extrapolatedRate(true, false),
  delta: extrapolatedRate(false, false),
  irate: instantValue(true),
  idelta: instantValue(false),
  deriv: (t, v, lo, hi) => (hi - lo < 2 ? undefined : linearRegression(t, v, lo, hi, t[lo])[0]),
  predict_linear: (t, v, lo, hi, env) => {
    if (hi - lo < 2) return undefined;
    const [slope, intercept] = linearRegression(t, v, lo, hi, env.ts);
    return slope * env.params[0] + intercept;
  },
  resets: (_t, v, lo, hi) => {
    let resets = 0;
    let prev = v[lo];
    for (let i = lo + 1; i < hi; i++) {
      const cur = v[i];
      if (cur < prev) resets++;
      prev = cur;
    }
    return resets;
  },
  changes: (_t, v, lo, hi) => {
    let changes = 0;
    let prev = v[lo];
    for (let i = lo + 1; i < hi; i++) {
      const cur = v[i];
      if (cur !== prev && !(Number.isNaN(cur) && Number.isNaN(prev))) changes++;
      prev = cur;
    }
    return changes;
  },
  avg_over_time: (_t, v, lo, hi) => {
    let mean = 0;
    let count = 0;
    let c = 0;
    for (let i = lo; i < hi; i++) {
      const x = v[i];
      count++;
      if (mean === Infinity || mean === -Infinity) {
        // An infinite mean stays as it is unless an opposite infinity or NaN arrives.
        if ((x === Infinity || x === -Infinity) && mean > 0 === x > 0) continue;
        if (Number.isFinite(x)) continue;
      }
      kahanInc(x / count - mean / count, mean, c, kb);
      mean = kb[0];
      c = kb[1];
    }
    if (mean === Infinity || mean === -Infinity) return mean;
    return mean + c;
  },
  sum_over_time: (_t, v, lo, hi) => {
    let sum = 0;
    let c = 0;
    for (let i = lo; i < hi; i++) {
      kahanInc(v[i], sum, c, kb);
      sum = kb[0];
      c = kb[1];
    }
    if (sum === Infinity || sum === -Infinity) return sum;
    return sum + c;
  },
  count_over_time: (_t, _v, lo, hi) => hi - lo,
  min_over_time: (_t, v, lo, hi) => {
    let min = v[lo];
    for (let i = lo + 1; i < hi; i++) if (v[i] < min || Number.isNaN(min)) min = v[i];
    return min;
  },
  max_over_time: (_t, v, lo, hi) => {
    let max = v[lo];
    for (let i = lo + 1; i < hi; i++) if (v[i] > max || Number.isNaN(max)) max = v[i];
    return max;
  },
  stddev_over_time: (_t, v, lo, hi) => Math.sqrt(variance(v, lo, hi)),
  stdvar_over_time: (_t, v, lo, hi) => variance(v, lo, hi),
  quantile_over_time: (_t, v, lo, hi, env) => quantileOf(env.params[0], Array.from(v.subarray(lo, hi))),
  last_over_time: (_t, v, _lo, hi) => v[hi - 1],
  present_over_time: () => 1,
  // Presence per step; the evaluator turns it into absence.
  absent_over_time: () => 1,
  holt_winters: (_t, v, lo, hi, env) => {
    const sf = env.params[0];
    const tf = env.params[1];
    if (!(sf > 0 && sf < 1)) throw executionError(`invalid smoothing factor. Expected: 0 < sf < 1, got: ${sf.toFixed(6)}`);
    if (!(tf > 0 && tf < 1)) throw executionError(`invalid trend factor. Expected: 0 < tf < 1, got: ${tf.toFixed(6)}`);
    const n = hi - lo;
    if (n < 2) return undefined;
    let s0 = 0;
    let s1 = v[lo];
    let b = v[lo + 1] - v[lo];
    for (let i = 1; i < n; i++) {
      const x = sf * v[lo + i];
      if (i - 1 !== 0) b = tf * (s1 - s0) + (1 - tf) * b;
      const y = (1 - sf) * (s1 + b);
      s0 = s1;
      s1 = x + y;
    }
    return s1;
  },
};

function variance(v: Float64Array, lo: number, hi: number): number {
  let count = 0;
  let mean = 0, cMean = 0, aux = 0, cAux = 0;
  for (let i = lo; i < hi; i++) {
    const x = v[i];
    count++;
    const delta = x - (mean + cMean);
    kahanInc(delta / count, mean, cMean, kb);
    mean = kb[0];
    cMean = kb[1];
    kahanInc(delta * (x - (mean + cMean)), aux, cAux, kb);
    aux = kb[0];
    cAux = kb[1];
  }
  return (aux + cAux) / count;
}

/** Per-sample math functions (they drop the metric name). */
export const MATH_FUNCTIONS: Record<string, (v: number) => number> = {
  abs: Math.abs,
  ceil: Math.ceil,
  floor: Math.floor,
  exp: Math.exp,
  sqrt: Math.sqrt,
  ln: Math.log,
  log2: Math.log2,
  log10: Math.log10,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  sinh: Math.sinh,
  cosh: Math.cosh,
  tanh: Math.tanh,
  asinh: Math.asinh,
  acosh: Math.acosh,
  atanh: Math.atanh,
  deg: (v) => (v * 180) / Math.PI,
  rad: (v) => (v * Math.PI) / 180,
  sgn: (v) => (v < 0 ? -1 : v > 0 ? 1 : v),
};

export function clamp(v: number, min: number, max: number): number {
  return goMax(min, goMin(max, v));
}
export { goMax, goMin };

/** round(v, toNearest) as Prometheus: floor(v / toNearest + 0.5) * toNearest via the inverse. */
export function round(v: number, toNearest: number): number {
  const inverse = 1 / toNearest;
  return Math.floor(v * inverse + 0.5) / inverse;
}

/** Date functions over a value in Unix seconds, in UTC. */
export const DATE_FUNCTIONS: Record<string, (seconds: number) => number> = {
  day_of_month: (s) => toDate(s).getUTCDate(),
  day_of_week: (s) => toDate(s).getUTCDay(),
  day_of_year: (s) => {
    const d = toDate(s);
    return Math.floor((Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1;
  },
  days_in_month: (s) => {
    const d = toDate(s);
    return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  },
  hour: (s) => toDate(s).getUTCHours(),
  minute: (s) => toDate(s).getUTCMinutes(),
  month: (s) => toDate(s).getUTCMonth() + 1,
  year: (s) => toDate(s).getUTCFullYear(),
};

function toDate(seconds: number): Date {
  // Go: time.Unix(int64(v), 0): the fraction is dropped towards zero.
  return new Date(Math.trunc(seconds) * 1000);
}

interface Bucket {
  upperBound: number;
  count: number;
}

/** histogram_quantile over classic buckets (Prometheus 2.42's bucketQuantile with its monotonicity fix). */
export function bucketQuantile(q: number, buckets: Bucket[]): number {
  if (Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  buckets.sort((a, b) => a.upperBound - b.upperBound);
  if (buckets.length === 0 || buckets[buckets.length - 1].upperBound !== Infinity) return NaN;
  // Buckets with the same bound (e.g. `le="1"` and `le="1.0"`) count as one.
  const merged: Bucket[] = [];
  for (const b of buckets) {
    const last = merged[merged.length - 1];
    if (last && last.upperBound === b.upperBound) last.count += b.count;
    else merged.push({ upperBound: b.upperBound, count: b.count });
  }
  let max = -Infinity;
  for (const b of merged) {
    if (b.count > max) max = b.count;
    else if (b.count < max) b.count = max;
  }
  if (merged.length < 2) return NaN;
  const observations = merged[merged.length - 1].count;
  if (observations === 0) return NaN;
  let rank = q * observations;
  // The first bucket (among all but the last) whose count reaches the rank.
  let b = merged.length - 1;
  for (let i = 0; i < merged.length - 1; i++) {
    if (merged[i].count >= rank) {
      b = i;
      break;
    }
  }
  if (b === merged.length - 1) return merged[merged.length - 2].upperBound;
  if (b === 0 && merged[0].upperBound <= 0) return merged[0].upperBound;
  let bucketStart = 0;
  const bucketEnd = merged[b].upperBound;
  let count = merged[b].count;
  if (b > 0) {
    bucketStart = merged[b - 1].upperBound;
    count -= merged[b - 1].count;
    rank -= merged[b - 1].count;
  }
  return bucketStart + (bucketEnd - bucketStart) * (rank / count);
}

/** A float as Go's strconv.ParseFloat reads it (the `le` label); undefined when it is not one. */
export function parseGoFloat(text: string): number | undefined {
  const t = text.trim() === text ? text : '';
  const lower = t.toLowerCase();
  if (lower === 'inf' || lower === '+inf' || lower === 'infinity' || lower === '+infinity') return Infinity;
  if (lower === '-inf' || lower === '-infinity') return -Infinity;
  if (lower === 'nan') return NaN;
  if (/^[+-]?(\d[\d_]*\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number(t.replace(/_/g, ''));
  if (/^[+-]?0[xX][0-9a-fA-F]+$/.test(t)) return Number.parseInt(t, 16);
  return undefined;
}

/** label_replace's labels for one series, or the series' own labels when the regex does not match. */
export function labelReplacer(dst: string, replacement: string, src: string, regex: string): (labels: Labels) => Labels {
  let re;
  try {
    re = compileRe2(`^(?:${regex})$`);
  } catch (error) {
    throw executionError(`invalid regular expression in label_replace(): ${regex}`);
  }
  if (!LABEL_NAME_RE.test(dst)) throw executionError(`invalid destination label name in label_replace(): ${dst}`);
  return (labels) => {
    const result = goExpandMatch(re, ownLabel(labels, src) ?? '', replacement);
    if (result === undefined) return labels;
    const out: Labels = { ...labels };
    if (result === '') delete out[dst];
    else out[dst] = result;
    return out;
  };
}

/** label_join's labels for one series. */
export function labelJoiner(dst: string, separator: string, srcs: string[]): (labels: Labels) => Labels {
  if (!LABEL_NAME_RE.test(dst)) throw executionError(`invalid destination label name in label_join(): ${dst}`);
  for (const s of srcs) if (!LABEL_NAME_RE.test(s)) throw executionError(`invalid source label name in label_join(): ${s}`);
  return (labels) => {
    const value = srcs.map((s) => ownLabel(labels, s) ?? '').join(separator);
    const out: Labels = { ...labels };
    if (value === '') delete out[dst];
    else out[dst] = value;
    return out;
  };
}
