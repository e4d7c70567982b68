// Evaluates a checked syntax tree over all steps of a query at once (instant queries are one step). Selectors read
// the series the planner fetched; every instant-vector node yields one Float64Array per series.

import type { AggregateExpr, BinaryExpr, Call, Expr, MatrixSelector, SubqueryExpr, VectorSelector } from '../parser/ast';
import { typeOf } from '../parser/ast';
import { atTime, subquerySteps } from '../planner/planner';
import type { Labels, Series } from '../storage/querier';
import { aggregate } from './aggregations';
import { scalarScalar, setOperation, vectorScalar, vectorVector } from './binary';
import { PromQLError, QUERY_CANCELED, QUERY_TIMEOUT, TOO_MANY_SAMPLES, executionError } from './errors';
import {
  bucketQuantile, clamp, DATE_FUNCTIONS, goMax, goMin, labelJoiner, labelReplacer, MATH_FUNCTIONS, parseGoFloat,
  RANGE_FUNCTIONS, round, type RangeEnv,
} from './functions';
import {
  checkDistinct, checkDistinctPerStep, isStaleNaN, SeriesBuilder, type RangeSeries, type StepRange, type StepScalar,
  type StepSeries, type StepString, type StepValue, type StepVector,
} from './step-values';
import { dropName, labelsKey } from './value';

export interface EvaluatorOptions {
  lookbackDeltaMs: number;
  maxSamples: number;
  /** Step of subqueries written without one (`[1h:]`); Prometheus uses its global evaluation interval, 1m. */
  subqueryStepMs: number;
  deadline: number;
  signal?: AbortSignal;
  /** The query's start and end (what `@ start()` and `@ end()` name). */
  startMs: number;
  endMs: number;
}

export class Evaluator {
  /** Samples read from the store for the whole query (Prometheus' stats: totalQueryableSamples). */
  samplesRead = 0;
  private checks = 0;
  private readonly rangeCache = new WeakMap<Series, RangeSeries>();

  constructor(
    private readonly opts: EvaluatorOptions,
    private readonly data: (vs: VectorSelector) => Series[],
  ) {}

  checkAbort(): void {
    if (this.opts.signal?.aborted) throw new PromQLError('canceled', QUERY_CANCELED);
    if (Date.now() > this.opts.deadline) throw new PromQLError('timeout', QUERY_TIMEOUT);
  }

  /** Cheap enough to call in inner loops: looks at the clock every 1024 calls. */
  private tick(): void {
    if ((++this.checks & 1023) === 0) this.checkAbort();
  }

  private countSamples(points: number): void {
    if (points > this.opts.maxSamples) throw executionError(TOO_MANY_SAMPLES);
  }

  eval(expr: Expr, steps: Float64Array): StepValue {
    this.checkAbort();
    const n = steps.length;
    switch (expr.kind) {
      case 'NumberLiteral':
        return { kind: 'scalar', vals: new Float64Array(n).fill(expr.value) };
      case 'StringLiteral':
        return { kind: 'string', value: expr.value };
      case 'ParenExpr':
        return this.eval(expr.expr, steps);
      case 'UnaryExpr': {
        const v = this.eval(expr.expr, steps);
        if (expr.op === '+') return v;
        if (v.kind === 'scalar') return { kind: 'scalar', vals: v.vals.map((x) => -x) };
        const vec = v as StepVector;
        const series = vec.series.map((s) => ({ labels: dropName(s.labels), vals: s.vals.map((x) => -x), has: s.has }));
        checkDistinct(series);
        return { kind: 'vector', series };
      }
      case 'VectorSelector':
        return this.vectorSelector(expr, steps, false);
      case 'MatrixSelector':
        return this.matrixSelector(expr);
      case 'SubqueryExpr':
        return this.subquery(expr, steps);
      case 'AggregateExpr':
        return this.aggregate(expr, steps);
      case 'BinaryExpr':
        return this.binary(expr, steps);
      case 'Call':
        return this.call(expr, steps);
    }
  }

  private vector(expr: Expr, steps: Float64Array): StepVector {
    return this.eval(expr, steps) as StepVector;
  }

  private scalar(expr: Expr, steps: Float64Array): StepScalar {
    return this.eval(expr, steps) as StepScalar;
  }

  vectorSelector(vs: VectorSelector, steps: Float64Array, withTimes: boolean): StepVector {
    const n = steps.length;
    const lookback = this.opts.lookbackDeltaMs;
    const at = vs.at ? atTime(vs.at, this.opts.startMs, this.opts.endMs) : undefined;
    const out: StepSeries[] = [];
    let points = 0;
    for (const s of this.data(vs)) {
      this.tick();
      const T = s.timestampsMs;
      const V = s.values;
      const stale = s.stale;
      const vals = new Float64Array(n);
      const has = new Uint8Array(n);
      const times = withTimes ? new Float64Array(n) : undefined;
      let j = -1;
      let any = false;
      for (let i = 0; i < n; i++) {
        const ref = (at ?? steps[i]) - vs.offsetMs;
        while (j + 1 < T.length && T[j + 1] <= ref) j++;
        if (j < 0 || T[j] < ref - lookback) continue;
        // A stale marker ends the series at once.
        if ((stale && stale[j]) || isStaleNaN(V[j])) continue;
        vals[i] = V[j];
        has[i] = 1;
        if (times) times[i] = T[j];
        any = true;
        points++;
      }
      if (any) out.push({ labels: s.labels, vals, has, times });
    }
    this.countSamples(points);
    return { kind: 'vector', series: out };
  }

  /** A series' points without stale markers (range vectors never contain them). */
  private rangeSeries(s: Series): RangeSeries {
    let r = this.rangeCache.get(s);
    if (r) return r;
    let staleCount = 0;
    for (let i = 0; i < s.values.length; i++) if ((s.stale && s.stale[i]) || isStaleNaN(s.values[i])) staleCount++;
    if (staleCount === 0) r = { labels: s.labels, t: s.timestampsMs, v: s.values };
    else {
      const t = new Float64Array(s.values.length - staleCount);
      const v = new Float64Array(t.length);
      let k = 0;
      for (let i = 0; i < s.values.length; i++) {
        if ((s.stale && s.stale[i]) || isStaleNaN(s.values[i])) continue;
        t[k] = s.timestampsMs[i];
        v[k++] = s.values[i];
      }
      r = { labels: s.labels, t, v };
    }
    this.rangeCache.set(s, r);
    return r;
  }

  private matrixSelector(ms: MatrixSelector): StepRange {
    const vs = ms.selector;
    return {
      kind: 'matrix',
      series: this.data(vs).map((s) => this.rangeSeries(s)),
      rangeMs: ms.rangeMs,
      offsetMs: vs.offsetMs,
      at: vs.at ? atTime(vs.at, this.opts.startMs, this.opts.endMs) : undefined,
    };
  }

  private subquery(sq: SubqueryExpr, outer: Float64Array): StepRange {
    const step = sq.stepMs || this.opts.subqueryStepMs;
    const at = sq.at ? atTime(sq.at, this.opts.startMs, this.opts.endMs) : undefined;
    const lo = at ?? outer[0];
    const hi = at ?? outer[outer.length - 1];
    const { start, count } = subquerySteps(lo, hi, sq.rangeMs, sq.offsetMs, step);
    this.countSamples(count);
    const steps = new Float64Array(count);
    for (let i = 0; i < count; i++) steps[i] = start + i * step;
    const series: RangeSeries[] = [];
    if (count > 0) {
      const inner = this.vector(sq.expr, steps);
      let points = 0;
      for (const s of inner.series) {
        let k = 0;
        for (let i = 0; i < count; i++) k += s.has[i];
        const t = new Float64Array(k);
        const v = new Float64Array(k);
        k = 0;
        for (let i = 0; i < count; i++) {
          if (!s.has[i]) continue;
          t[k] = steps[i];
          v[k++] = s.vals[i];
        }
        points += k;
        series.push({ labels: s.labels, t, v });
      }
      this.countSamples(points);
    }
    return { kind: 'matrix', series, rangeMs: sq.rangeMs, offsetMs: sq.offsetMs, at };
  }

  private aggregate(e: AggregateExpr, steps: Float64Array): StepVector {
    const n = steps.length;
    let param: Float64Array | undefined;
    let label: string | undefined;
    if (e.param) {
      const p = this.eval(e.param, steps);
      if (p.kind === 'string') label = p.value;
      else param = (p as StepScalar).vals;
    }
    const input = this.vector(e.expr, steps);
    const grouping = [...e.grouping].sort();
    return aggregate({ op: e.op, input, grouping, without: e.without, n, param, label });
  }

  private binary(e: BinaryExpr, steps: Float64Array): StepValue {
    const n = steps.length;
    const lt = typeOf(e.lhs);
    const rt = typeOf(e.rhs);
    const lhs = this.eval(e.lhs, steps);
    const rhs = this.eval(e.rhs, steps);
    if (lt === 'scalar' && rt === 'scalar') return scalarScalar(e.op, lhs as StepScalar, rhs as StepScalar, n);
    if (lt === 'vector' && rt === 'vector') {
      if (e.op === 'and' || e.op === 'or' || e.op === 'unless') {
        return setOperation(e.op, lhs as StepVector, rhs as StepVector, e.matching!, n);
      }
      return vectorVector(e.op, lhs as StepVector, rhs as StepVector, e.matching!, e.returnBool, n);
    }
    if (lt === 'vector') {
      const r = vectorScalar(e.op, lhs as StepVector, rhs as StepScalar, false, e.returnBool, n);
      checkDistinctPerStep(r.series, n);
      return r;
    }
    const r = vectorScalar(e.op, rhs as StepVector, lhs as StepScalar, true, e.returnBool, n);
    checkDistinctPerStep(r.series, n);
    return r;
  }

  private call(e: Call, steps: Float64Array): StepValue {
    const n = steps.length;
    const name = e.func;
    if (RANGE_FUNCTIONS[name]) return this.rangeFunction(e, steps);
    const mathFn = MATH_FUNCTIONS[name];
    if (mathFn) return this.mapValues(this.vector(e.args[0], steps), mathFn);
    const dateFn = DATE_FUNCTIONS[name];
    if (dateFn) {
      const input: StepVector = e.args.length === 0 ? this.timeVector(steps) : this.vector(e.args[0], steps);
      return this.mapValues(input, dateFn);
    }
    switch (name) {
      case 'time':
        return { kind: 'scalar', vals: steps.map((t) => t / 1000) };
      case 'pi':
        return { kind: 'scalar', vals: new Float64Array(n).fill(Math.PI) };
      case 'vector': {
        const s = this.scalar(e.args[0], steps);
        return { kind: 'vector', series: [{ labels: {}, vals: s.vals, has: new Uint8Array(n).fill(1) }] };
      }
      case 'scalar': {
        const v = this.vector(e.args[0], steps);
        const vals = new Float64Array(n);
        for (let i = 0; i < n; i++) {
          let count = 0;
          let value = NaN;
          for (const s of v.series) {
            if (!s.has[i]) continue;
            count++;
            value = s.vals[i];
          }
          vals[i] = count === 1 ? value : NaN;
        }
        return { kind: 'scalar', vals };
      }
      case 'timestamp':
        return this.timestamp(e, steps);
      case 'abs':
        break;
      case 'clamp': {
        const v = this.vector(e.args[0], steps);
        const min = this.scalar(e.args[1], steps).vals;
        const max = this.scalar(e.args[2], steps).vals;
        return this.mapValuesAt(v, (x, i) => (max[i] < min[i] ? undefined : clamp(x, min[i], max[i])));
      }
      case 'clamp_min': {
        const v = this.vector(e.args[0], steps);
        const min = this.scalar(e.args[1], steps).vals;
        return this.mapValuesAt(v, (x, i) => goMax(min[i], x));
      }
      case 'clamp_max': {
        const v = this.vector(e.args[0], steps);
        const max = this.scalar(e.args[1], steps).vals;
        return this.mapValuesAt(v, (x, i) => goMin(max[i], x));
      }
      case 'round': {
        const v = this.vector(e.args[0], steps);
        const to = e.args[1] ? this.scalar(e.args[1], steps).vals : new Float64Array(n).fill(1);
        return this.mapValuesAt(v, (x, i) => round(x, to[i]));
      }
      case 'sort':
      case 'sort_desc':
        return this.sort(this.vector(e.args[0], steps), name === 'sort_desc', n);
      case 'absent':
        return this.absent(e, steps);
      case 'label_replace': {
        const v = this.vector(e.args[0], steps);
        const [dst, repl, src, regex] = e.args.slice(1).map((a) => (this.eval(a, steps) as StepString).value);
        return this.relabel(v, labelReplacer(dst, repl, src, regex), n);
      }
      case 'label_join': {
        const v = this.vector(e.args[0], steps);
        const [dst, sep, ...srcs] = e.args.slice(1).map((a) => (this.eval(a, steps) as StepString).value);
        return this.relabel(v, labelJoiner(dst, sep, srcs), n);
      }
      case 'histogram_quantile':
        return this.histogramQuantile(e, steps);
      case 'histogram_count':
      case 'histogram_sum':
      case 'histogram_fraction':
        // Native histograms only: float samples give nothing.
        for (const a of e.args) this.eval(a, steps);
        return { kind: 'vector', series: [] };
      default:
        break;
    }
    throw executionError(`function "${name}" is not implemented`);
  }

  private timeVector(steps: Float64Array): StepVector {
    return { kind: 'vector', series: [{ labels: {}, vals: steps.map((t) => t / 1000), has: new Uint8Array(steps.length).fill(1) }] };
  }

  private mapValues(v: StepVector, fn: (x: number) => number): StepVector {
    const series = v.series.map((s) => {
      const vals = new Float64Array(s.vals.length);
      for (let i = 0; i < vals.length; i++) if (s.has[i]) vals[i] = fn(s.vals[i]);
      return { labels: dropName(s.labels), vals, has: s.has };
    });
    checkDistinctPerStep(series, series[0]?.vals.length ?? 0);
    return { kind: 'vector', series };
  }

  private mapValuesAt(v: StepVector, fn: (x: number, i: number) => number | undefined): StepVector {
    const series: StepSeries[] = [];
    for (const s of v.series) {
      const n = s.vals.length;
      const vals = new Float64Array(n);
      const has = new Uint8Array(n);
      let any = false;
      for (let i = 0; i < n; i++) {
        if (!s.has[i]) continue;
        const r = fn(s.vals[i], i);
        if (r === undefined) continue;
        vals[i] = r;
        has[i] = 1;
        any = true;
      }
      if (any) series.push({ labels: dropName(s.labels), vals, has });
    }
    checkDistinctPerStep(series, series[0]?.vals.length ?? 0);
    return { kind: 'vector', series };
  }

  private timestamp(e: Call, steps: Float64Array): StepVector {
    let arg = e.args[0];
    while (arg.kind === 'ParenExpr') arg = arg.expr;
    // Of a selector: the time of the sample it picked; of anything else: the evaluation time.
    const v = arg.kind === 'VectorSelector' ? this.vectorSelector(arg, steps, true) : this.vector(arg, steps);
    const series = v.series.map((s) => {
      const vals = new Float64Array(steps.length);
      for (let i = 0; i < vals.length; i++) if (s.has[i]) vals[i] = (s.times ? s.times[i] : steps[i]) / 1000;
      return { labels: dropName(s.labels), vals, has: s.has };
    });
    checkDistinctPerStep(series, steps.length);
    return { kind: 'vector', series };
  }

  private sort(v: StepVector, descending: boolean, n: number): StepVector {
    // Only an instant query's order is observable; a range query's result is ordered by labels.
    if (n !== 1) return v;
    const series = [...v.series].sort((a, b) => {
      const x = a.vals[0];
      const y = b.vals[0];
      // NaN goes last either way, as Prometheus' sort.
      if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : 1;
      if (Number.isNaN(y)) return -1;
      return descending ? y - x || 0 : x - y || 0;
    });
    return { kind: 'vector', series };
  }

  private absent(e: Call, steps: Float64Array): StepVector {
    const n = steps.length;
    const v = this.vector(e.args[0], steps);
    const has = new Uint8Array(n);
    let any = false;
    for (let i = 0; i < n; i++) {
      if (v.series.some((s) => s.has[i])) continue;
      has[i] = 1;
      any = true;
    }
    if (!any) return { kind: 'vector', series: [] };
    return { kind: 'vector', series: [{ labels: absentLabels(e.args[0]), vals: new Float64Array(n).fill(1), has }] };
  }

  private relabel(v: StepVector, fn: (l: Labels) => Labels, n: number): StepVector {
    const builder = new SeriesBuilder(n);
    for (const s of v.series) {
      const labels = fn(s.labels);
      const key = labelsKey(labels);
      for (let i = 0; i < n; i++) if (s.has[i]) builder.set(labels, key, i, s.vals[i]);
    }
    return { kind: 'vector', series: builder.series };
  }

  private histogramQuantile(e: Call, steps: Float64Array): StepVector {
    const n = steps.length;
    const q = this.scalar(e.args[0], steps).vals;
    const v = this.vector(e.args[1], steps);
    // Buckets grouped by their labels without `le` (the name included, as 2.42: two histograms differing only by
    // name are two results that then collide); series without a readable `le` are ignored.
    const groups = new Map<string, { labels: Labels; members: { s: StepSeries; le: number }[] }>();
    for (const s of v.series) {
      const leText = s.labels.le;
      if (leText === undefined) continue;
      const le = parseGoFloat(leText);
      if (le === undefined) continue;
      const clean: Labels = {};
      for (const k in s.labels) if (k !== 'le' && k !== '__name__') clean[k] = s.labels[k];
      const key = `${s.labels.__name__ ?? ''}\xff${labelsKey(clean)}`;
      let g = groups.get(key);
      if (!g) {
        g = { labels: clean, members: [] };
        groups.set(key, g);
      }
      g.members.push({ s, le });
    }
    const out: StepSeries[] = [];
    const buckets: { upperBound: number; count: number }[] = [];
    for (const g of groups.values()) {
      const vals = new Float64Array(n);
      const has = new Uint8Array(n);
      let any = false;
      for (let i = 0; i < n; i++) {
        buckets.length = 0;
        for (const m of g.members) if (m.s.has[i]) buckets.push({ upperBound: m.le, count: m.s.vals[i] });
        if (buckets.length === 0) continue;
        vals[i] = bucketQuantile(q[i], buckets);
        has[i] = 1;
        any = true;
      }
      if (any) out.push({ labels: g.labels, vals, has });
    }
    checkDistinctPerStep(out, n);
    return { kind: 'vector', series: out };
  }

  /** Functions over a range vector: the window of each series slides with two indices as the steps advance. */
  private rangeFunction(e: Call, steps: Float64Array): StepVector {
    const n = steps.length;
    const name = e.func;
    const fn = RANGE_FUNCTIONS[name];
    const matrixIndex = e.args.findIndex((a) => typeOf(a) === 'matrix');
    const params: Float64Array[] = [];
    e.args.forEach((a, i) => {
      if (i !== matrixIndex) params.push(this.scalar(a, steps).vals);
    });
    let arg = e.args[matrixIndex];
    while (arg.kind === 'ParenExpr') arg = arg.expr;
    const src = this.eval(arg, steps) as StepRange;
    const env: RangeEnv = { ts: 0, rangeStart: 0, rangeEnd: 0, rangeMs: src.rangeMs, params: params.map(() => 0), monotonic: false };
    const counter = name === 'rate' || name === 'increase';
    const keepName = name === 'last_over_time';
    const out: StepSeries[] = [];
    let windowPoints = 0;
    for (const s of src.series) {
      this.tick();
      const t = s.t;
      const v = s.v;
      const len = t.length;
      const vals = new Float64Array(n);
      const has = new Uint8Array(n);
      let lo = 0;
      let hi = 0;
      let any = false;
      if (counter) {
        // Most counters never reset: then no window needs scanning for resets.
        let monotonic = true;
        for (let k = 1; k < len && monotonic; k++) if (!(v[k] >= v[k - 1])) monotonic = false;
        env.monotonic = monotonic;
      }
      for (let i = 0; i < n; i++) {
        const end = (src.at ?? steps[i]) - src.offsetMs;
        const start = end - src.rangeMs;
        while (lo < len && t[lo] < start) lo++;
        if (hi < lo) hi = lo;
        while (hi < len && t[hi] <= end) hi++;
        if (hi <= lo) continue;
        if (hi - lo > windowPoints) windowPoints = hi - lo;
        // With `@` the window stays put but the evaluation time moves: predict_linear predicts from each step's time.
        env.ts = steps[i];
        env.rangeStart = start;
        env.rangeEnd = end;
        for (let p = 0; p < params.length; p++) env.params[p] = params[p][i];
        const r = fn(t, v, lo, hi, env);
        if (r === undefined) continue;
        vals[i] = r;
        has[i] = 1;
        any = true;
      }
      if (any) out.push({ labels: keepName ? s.labels : dropName(s.labels), vals, has });
    }
    this.countSamples(windowPoints * src.series.length);
    if (name === 'absent_over_time') return this.absentOverTime(e, out, n);
    // Distinct inputs stay distinct when the name they all share is dropped (one metric's series, the usual case):
    // the check, a label key per series, is needed only when names differ.
    const firstName = src.series[0]?.labels.__name__;
    if (keepName || !src.series.every((s) => s.labels.__name__ === firstName)) checkDistinct(out);
    return { kind: 'vector', series: out };
  }

  private absentOverTime(e: Call, present: StepSeries[], n: number): StepVector {
    const has = new Uint8Array(n);
    let any = false;
    for (let i = 0; i < n; i++) {
      if (present.some((s) => s.has[i])) continue;
      has[i] = 1;
      any = true;
    }
    if (!any) return { kind: 'vector', series: [] };
    return { kind: 'vector', series: [{ labels: absentLabels(e.args[0]), vals: new Float64Array(n).fill(1), has }] };
  }
}

/**
 * absent()'s labels: the equality matchers of the selector it is given; as in Prometheus, a label with a second
 * matcher, or a non-equality one before its equality, is left out.
 */
function absentLabels(arg: Expr): Labels {
  let matchers;
  if (arg.kind === 'VectorSelector') matchers = arg.matchers;
  else if (arg.kind === 'MatrixSelector') matchers = arg.selector.matchers;
  else return {};
  const out: Labels = {};
  const has = new Set<string>();
  for (const m of matchers) {
    if (m.name === '__name__') continue;
    if (m.op === '=' && !has.has(m.name)) {
      out[m.name] = m.value;
      has.add(m.name);
    } else delete out[m.name];
  }
  return out;
}
