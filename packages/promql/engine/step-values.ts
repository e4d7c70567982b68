// The engine's working values while it evaluates: every instant-vector node is evaluated for all steps at once,
// one Float64Array of values per series with a presence flag per step (no object per sample), as Prometheus'
// rangeEval does step by step.

import type { Labels } from '../storage/querier';
import { executionError } from './errors';
import { labelsKey } from './value';

export interface StepSeries {
  labels: Labels;
  /** labelsKey(labels), computed on demand once. */
  key?: string;
  vals: Float64Array;
  /** 1 where the series has a value at that step. */
  has: Uint8Array;
  /** The sample times behind the values (vector selectors only, for timestamp()). */
  times?: Float64Array;
}

export interface StepVector {
  kind: 'vector';
  series: StepSeries[];
}

export interface StepScalar {
  kind: 'scalar';
  vals: Float64Array;
}

export interface StepString {
  kind: 'string';
  value: string;
}

/** Raw points of a range selector or subquery (stale markers removed). */
export interface RangeSeries {
  labels: Labels;
  t: Float64Array;
  v: Float64Array;
}

export interface StepRange {
  kind: 'matrix';
  series: RangeSeries[];
  rangeMs: number;
  offsetMs: number;
  /** The @ time in ms when the selector or subquery has one. */
  at?: number;
}

export type StepValue = StepVector | StepScalar | StepString | StepRange;

/** The times a node is evaluated at (the query's steps, or a subquery's). */
export interface StepContext {
  steps: Float64Array;
}

export function keyOf(s: StepSeries): string {
  if (s.key === undefined) s.key = labelsKey(s.labels);
  return s.key;
}

/**
 * Collects output series by label set across steps; two values for one label set at one step is Prometheus'
 * "vector cannot contain metrics with the same labelset".
 */
export class SeriesBuilder {
  private readonly byKey = new Map<string, StepSeries>();
  readonly series: StepSeries[] = [];

  constructor(private readonly n: number) {}

  get(labels: Labels, key: string = labelsKey(labels)): StepSeries {
    let s = this.byKey.get(key);
    if (!s) {
      s = { labels, key, vals: new Float64Array(this.n), has: new Uint8Array(this.n) };
      this.byKey.set(key, s);
      this.series.push(s);
    }
    return s;
  }

  set(labels: Labels, key: string, step: number, value: number): void {
    const s = this.get(labels, key);
    if (s.has[step]) throw executionError('vector cannot contain metrics with the same labelset');
    s.has[step] = 1;
    s.vals[step] = value;
  }
}

/** Series whose label sets collide (after a function dropped the name) are an error, as in Prometheus. */
export function checkDistinct(series: StepSeries[]): void {
  if (series.length < 2) return;
  const seen = new Set<string>();
  for (const s of series) {
    const k = keyOf(s);
    if (seen.has(k)) throw executionError('vector cannot contain metrics with the same labelset');
    seen.add(k);
  }
}

/** Like checkDistinct, but only series present at a common step collide (Prometheus checks step by step). */
export function checkDistinctPerStep(series: StepSeries[], n: number): void {
  if (series.length < 2) return;
  const byKey = new Map<string, StepSeries[]>();
  for (const s of series) {
    const k = keyOf(s);
    const list = byKey.get(k);
    if (list) list.push(s);
    else byKey.set(k, [s]);
  }
  for (const list of byKey.values()) {
    if (list.length < 2) continue;
    for (let i = 0; i < n; i++) {
      let c = 0;
      for (const s of list) c += s.has[i];
      if (c > 1) throw executionError('vector cannot contain metrics with the same labelset');
    }
  }
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** Prometheus' stale marker: a NaN with the bits 0x7ff0000000000002 (little-endian here). */
export function isStaleNaN(v: number): boolean {
  if (v === v) return false;
  f64[0] = v;
  return u32[1] === 0x7ff00000 && u32[0] === 2;
}
