import { describe, expect, it } from 'vitest';
import { compareLabels as compareMetric } from '../../packages/labels/compare-labels';
import { mergeSeries, slicePoints, splitInterval, splitRange, type MatrixSeries } from '../../server/products/qryn/query/range-split';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 20, 0, 0, 0);

const gridTimes = (startMs: number, endMs: number, stepMs: number) => {
  const out: number[] = [];
  for (let t = startMs; t <= endMs; t += stepMs) out.push(t);
  return out;
};

describe('splitting a range on its step grid', () => {
  it('makes intervals whole multiples of the step', () => {
    expect(splitInterval(30_000, 30 * MIN)).toBe(30 * MIN);
    expect(splitInterval(7 * MIN, 30 * MIN)).toBe(35 * MIN);
    expect(splitInterval(2 * 3_600_000, 30 * MIN)).toBe(2 * 3_600_000);
  });

  it('covers every evaluation time once, in order, for any phase of the step', () => {
    for (const [startMs, endMs, stepMs] of [
      [T0 + 7_000, T0 + 6 * 60 * MIN, 30_000],
      [T0 + 13, T0 + 95 * MIN + 5, 7 * MIN],
      [T0, T0, 15_000],
      [T0 + 1, T0 + 29 * MIN, 45_000],
    ]) {
      const interval = splitInterval(stepMs, 30 * MIN);
      const pieces = splitRange({ startMs, endMs, stepMs }, interval);
      const covered = pieces.flatMap((p) => gridTimes(p.fromMs, p.toMs, stepMs));
      expect(covered).toEqual(gridTimes(startMs, endMs, stepMs));
      for (const p of pieces) {
        expect(p.lastMs - p.fromMs).toBeLessThan(interval);
        expect(p.toMs).toBeLessThanOrEqual(p.lastMs);
      }
    }
  });

  it('meets the same intervals again when the window moves by whole steps', () => {
    const step = 30_000;
    const a = splitRange({ startMs: T0 + 12 * step, endMs: T0 + 12 * step + 6 * 60 * MIN, stepMs: step }, 30 * MIN);
    const b = splitRange({ startMs: T0 + 13 * step, endMs: T0 + 13 * step + 6 * 60 * MIN, stepMs: step }, 30 * MIN);
    const complete = (pieces: typeof a) => pieces.filter((p) => p.toMs === p.lastMs && p.fromMs === p.lastMs - 30 * MIN + step);
    expect(complete(a).length).toBe(11);
    expect(complete(b)).toEqual(complete(a));
    expect(b[0].index).toBe(a[0].index);
    expect(b[0].fromMs).toBe(a[0].fromMs + step);
  });
});

describe('cutting and joining matrix answers', () => {
  const series = (metric: Record<string, string>, times: number[]): MatrixSeries => ({ metric, values: times.map((t) => [t / 1000, String(t % 97)]) });
  const whole = [
    series({ job: 'a' }, gridTimes(T0, T0 + 60 * MIN, MIN)),
    series({ job: 'b', le: '1' }, gridTimes(T0 + 20 * MIN, T0 + 25 * MIN, MIN)),
    series({ job: 'b' }, gridTimes(T0 + 40 * MIN, T0 + 60 * MIN, MIN)),
  ].sort((x, y) => compareMetric(x.metric, y.metric));

  it('joins the parts of any cut back into the whole, in label order', () => {
    for (const cuts of [[T0 + 10 * MIN], [T0 + 22 * MIN, T0 + 41 * MIN], [T0 + 30 * MIN, T0 + 30 * MIN + MIN]]) {
      const bounds = [T0, ...cuts, T0 + 60 * MIN + 1];
      const parts = bounds.slice(0, -1).map((from, i) => slicePoints(whole, from, bounds[i + 1] - 1));
      expect(mergeSeries(parts)).toEqual(whole);
    }
  });

  it('orders label sets as Prometheus does: name by name, the shorter first', () => {
    expect(compareMetric({ job: 'b' }, { job: 'b', le: '1' })).toBeLessThan(0);
    expect(compareMetric({ a: 'z' }, { b: 'a' })).toBeLessThan(0);
    expect(compareMetric({ a: 'x', b: '1' }, { a: 'x', b: '1' })).toBe(0);
  });
});
