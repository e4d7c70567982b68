import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RangeStepEvaluator, type Sample } from '../../packages/logql/engine/range-step-evaluator';

// The range aggregation's step evaluator (samples in time order, each step evaluated once its window is past, older
// samples dropped) against the plain definition: for each step, the samples of (t − offset − range, t − offset] of
// each series in time-then-stream order.

const S = 1_000_000_000n;

/** The window's samples as [value, stream] pairs, in the order handed to the aggregate (the order matters for sums). */
const listing = (win: Sample[]) => JSON.stringify(win.map((s) => [s.value, s.stream, String(s.ts)]));

describe('RangeStepEvaluator', () => {
  it('hands each step the same window, in the same order, as filtering all samples would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.integer({ min: 0, max: 300 }), value: fc.integer({ min: -5, max: 5 }), stream: fc.integer({ min: 0, max: 3 }) }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 0, max: 30 }),
        (raw, stepS, rangeS, offsetS) => {
          // Samples in time order; equal times in any stream order (as a store answers them).
          const samples: Sample[] = raw.map((r) => ({ ts: BigInt(r.at) * S, value: r.value, stream: r.stream })).sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
          const steps: bigint[] = [];
          for (let t = 30n * S; t <= 330n * S; t += BigInt(stepS) * S) steps.push(t);
          const range = BigInt(rangeS) * S;
          const offset = BigInt(offsetS) * S;
          const evaluator = new RangeStepEvaluator(steps, range, offset, (win) => win.length);
          const windows = new Map<string, string>();
          const recording = new RangeStepEvaluator(steps, range, offset, (win, start, end) => {
            windows.set(`${win[0].value % 2 === 0 ? 'even' : 'odd'}|${start}|${end}`, listing(win));
            return 0;
          });
          samples.forEach((s, i) => {
            const key = s.value % 2 === 0 ? 'even' : 'odd';
            evaluator.add(key, { parity: key }, s, i);
            recording.add(key, { parity: key }, s, i);
          });
          const got = evaluator.finish();
          recording.finish();
          for (const series of got) {
            const mine = samples.filter((s) => (s.value % 2 === 0 ? 'even' : 'odd') === series.labels.parity);
            steps.forEach((t, i) => {
              const end = t - offset;
              const start = end - range;
              const win = mine.filter((s) => s.ts > start && s.ts <= end).sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : a.stream - b.stream));
              expect(series.values[i]).toBe(win.length === 0 ? undefined : win.length);
              if (win.length > 0) expect(windows.get(`${series.labels.parity}|${start}|${end}`)).toBe(listing(win));
            });
          }
          // Every series with a sample is answered, ordered by the stream of its first sample, then that line.
          const first = new Map<string, [number, number]>();
          samples.forEach((s, i) => {
            const key = s.value % 2 === 0 ? 'even' : 'odd';
            if (!first.has(key)) first.set(key, [s.stream, i]);
          });
          const expected = [...first].sort((a, b) => a[1][0] - b[1][0] || a[1][1] - b[1][1]).map(([key]) => key);
          expect(got.map((s) => s.labels.parity)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps only what later windows need', () => {
    const steps = Array.from({ length: 100 }, (_, i) => BigInt(i + 1) * 60n * S);
    let largest = 0;
    const evaluator = new RangeStepEvaluator(steps, 60n * S, 0n, (win) => {
      largest = Math.max(largest, win.length);
      return win.length;
    });
    for (let k = 0; k < 6_000; k++) evaluator.add('one', {}, { ts: BigInt(k) * S + 1n, value: 1, stream: 0 }, k);
    const [series] = evaluator.finish();
    expect(series.values.slice(0, 99)).toEqual(new Array(99).fill(60));
    expect(largest).toBe(60);
    const held = (evaluator as unknown as { series: Map<string, { samples: Sample[] }> }).series.get('one')!.samples.length;
    expect(held).toBeLessThan(6_000 / 2);
  });
});
