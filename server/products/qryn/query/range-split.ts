import { compareLabels } from '../../../../packages/labels/compare-labels';

// A range query's evaluation times cut into intervals, and matrix answers cut and joined along them (as Loki's and
// Mimir's query frontends split by interval). A range query is evaluated at start + k·step; each of those times is
// evaluated on its own (PromQL and LogQL metric queries look back from each step, never at the range's bounds, once
// `@ start()` / `@ end()` are set aside), so the answer over a range is the union of the answers over its parts.
// Intervals are multiples of the step laid on the step's grid (its phase: start modulo step), so that a window
// shifted by whole steps, as a dashboard's refresh does, meets the same intervals again.

export type Labels = Record<string, string>;
/** A matrix series as both APIs write it: times in seconds, values as text. */
export interface MatrixSeries {
  metric: Labels;
  values: [number, string][];
}

export interface RangeGrid {
  startMs: number;
  endMs: number;
  stepMs: number;
}

/** The evaluation times of one interval that fall in the range: [fromMs, toMs] on the grid. */
export interface RangePiece {
  /** The interval's number on the grid (the same interval has the same number in every range on this grid). */
  index: number;
  fromMs: number;
  toMs: number;
  /** The interval's last evaluation time, in the range or not (when it ends, the interval is complete). */
  lastMs: number;
}

/** The interval for a step: the smallest multiple of the step that is at least `targetMs`. */
export function splitInterval(stepMs: number, targetMs: number): number {
  return stepMs * Math.max(1, Math.ceil(targetMs / stepMs));
}

const floorDiv = (a: number, b: number) => Math.floor(a / b);

/** The range's evaluation times, interval by interval, in time order. */
export function splitRange(grid: RangeGrid, intervalMs: number): RangePiece[] {
  const { startMs, endMs, stepMs } = grid;
  if (endMs < startMs) return [];
  const phase = ((startMs % stepMs) + stepMs) % stepMs;
  const lastTime = startMs + Math.floor((endMs - startMs) / stepMs) * stepMs;
  const pieces: RangePiece[] = [];
  for (let index = floorDiv(startMs - phase, intervalMs); ; index++) {
    const first = phase + index * intervalMs;
    const last = first + intervalMs - stepMs;
    const fromMs = Math.max(first, startMs);
    const toMs = Math.min(last, lastTime);
    if (fromMs > lastTime) break;
    pieces.push({ index, fromMs, toMs, lastMs: last });
  }
  return pieces;
}

/** The step's phase: what every evaluation time of the range is, modulo the step. */
export const gridPhase = (startMs: number, stepMs: number) => ((startMs % stepMs) + stepMs) % stepMs;

/** The points of [fromMs, toMs] (series left without points are dropped). */
export function slicePoints(series: readonly MatrixSeries[], fromMs: number, toMs: number): MatrixSeries[] {
  const out: MatrixSeries[] = [];
  for (const s of series) {
    const values = s.values.filter(([t]) => {
      const ms = Math.round(t * 1000);
      return ms >= fromMs && ms <= toMs;
    });
    if (values.length > 0) out.push({ metric: s.metric, values });
  }
  return out;
}

const metricKey = (m: Labels) => JSON.stringify(Object.keys(m).sort().map((k) => [k, m[k]]));

/** Parts of one matrix over disjoint time spans, given in time order, joined into the matrix of their union. */
export function mergeSeries(parts: readonly (readonly MatrixSeries[])[]): MatrixSeries[] {
  const byMetric = new Map<string, MatrixSeries>();
  for (const part of parts) {
    for (const s of part) {
      const key = metricKey(s.metric);
      const seen = byMetric.get(key);
      if (seen) seen.values.push(...s.values);
      else byMetric.set(key, { metric: s.metric, values: [...s.values] });
    }
  }
  return [...byMetric.values()].sort((a, b) => compareLabels(a.metric, b.metric));
}
