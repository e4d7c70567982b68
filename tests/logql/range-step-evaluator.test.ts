import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StepSample } from '../../packages/logql/engine/metric-value';
import { RangeStepEvaluator, type Sample } from '../../packages/logql/engine/range-step-evaluator';

// The range aggregation's step evaluator (samples in time order, each step evaluated once its window is past, older
// samples dropped) against the plain definition: for each step, the samples of (t − offset − range, t − offset] of
// each series in time-then-stream order.

const S = 1_000_000_000n;

/** The window's samples as [value, stream] pairs, in the order handed to the aggregate (the order matters for sums). */
const listing = (win: Sample[]) => JSON.stringify(win.map((s) => [s.value, s.stream, String(s.ts)]));

/** Feeds samples keyed by `keyOf`, taking every step as soon as it is ready (as the range aggregation does). */
function run(evaluator: RangeStepEvaluator, samples: Sample[], keyOf: (s: Sample) => string) {
  const vectors: StepSample[][] = [];
  samples.forEach((s, i) => {
    while (evaluator.readyBefore(s.ts)) vectors.push(evaluator.step());
    const key = keyOf(s);
    evaluator.add(key, { parity: key }, s, i);
  });
  while (!evaluator.done) vectors.push(evaluator.step());
  return vectors;
}

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
          const parity = (s: Sample) => (s.value % 2 === 0 ? 'even' : 'odd');
          const got = run(evaluator, samples, parity);
          run(recording, samples, parity);
          expect(got).toHaveLength(steps.length);
          // Every series with a sample in a step's window is in that step's vector, ordered by the stream of its
          // first sample, then that line.
          const first = new Map<string, [number, number]>();
          samples.forEach((s, i) => {
            if (!first.has(parity(s))) first.set(parity(s), [s.stream, i]);
          });
          const order = [...first].sort((a, b) => a[1][0] - b[1][0] || a[1][1] - b[1][1]).map(([key]) => key);
          steps.forEach((t, i) => {
            const end = t - offset;
            const start = end - range;
            const expected = order.flatMap((key) => {
              const win = samples.filter((s) => parity(s) === key && s.ts > start && s.ts <= end).sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : a.stream - b.stream));
              if (win.length > 0) expect(windows.get(`${key}|${start}|${end}`)).toBe(listing(win));
              return win.length === 0 ? [] : [{ labels: { parity: key }, value: win.length }];
            });
            expect(got[i]).toEqual(expected);
          });
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
    const samples = Array.from({ length: 6_000 }, (_, k): Sample => ({ ts: BigInt(k) * S + 1n, value: 1, stream: 0 }));
    const vectors = run(evaluator, samples, () => 'one');
    expect(vectors.slice(0, 99).map((v) => v.map((s) => s.value))).toEqual(new Array(99).fill([60]));
    expect(largest).toBe(60);
    const held = (evaluator as unknown as { series: Map<string, { samples: Sample[] }> }).series.get('one')!.samples.length;
    expect(held).toBeLessThan(6_000 / 2);
  });
});
