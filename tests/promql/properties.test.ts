// Property tests of the operators against small in-memory series.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../packages/promql/engine/engine';
import { labelsKey, type Sample } from '../../packages/promql/engine/value';
import { MemoryQuerier, type MemorySeries } from '../../packages/promql/storage/memory-querier';

const engine = createEngine();
const T = 10 * 60_000;

/** Up to 8 series of metric `name`, labels x ∈ {p,q,r} and a unique i, one sample a minute for 10 minutes. */
const seriesSet = (name: string, values: fc.Arbitrary<number>) =>
  fc.array(fc.record({ x: fc.constantFrom('p', 'q', 'r'), vals: fc.array(values, { minLength: 11, maxLength: 11 }) }), { maxLength: 8 })
    .map((list) => list.map((s, i): MemorySeries => ({
      labels: { __name__: name, x: s.x, i: String(i) },
      samples: s.vals.map((v, k) => ({ t: k * 60_000, v })),
    })));

const ints = fc.integer({ min: -1000, max: 1000 });

async function vector(data: MemorySeries[], query: string): Promise<Sample[]> {
  const r = await engine.instantQuery(new MemoryQuerier(data), query, T);
  if (r.value.type !== 'vector') throw new Error(`expected a vector, got ${r.value.type}`);
  return r.value.samples;
}

const byKey = (samples: Sample[]) => new Map(samples.map((s) => [labelsKey(s.labels), s.v]));

describe('operator properties', () => {
  it('a + b - b == a for every matched series', async () => {
    await fc.assert(fc.asyncProperty(seriesSet('a', ints), async (a) => {
      const b = a.map((s) => ({ ...s, labels: { ...s.labels, __name__: 'b' } }));
      const got = byKey(await vector([...a, ...b], 'a + b - b'));
      const want = byKey((await vector(a, 'a')).map((s) => ({ ...s, labels: { x: s.labels.x, i: s.labels.i } })));
      expect(got).toEqual(want);
    }), { numRuns: 40 });
  });

  it('sum by (x) equals the sum of each group; sum of the groups equals sum()', async () => {
    await fc.assert(fc.asyncProperty(seriesSet('a', ints), async (a) => {
      const raw = await vector(a, 'a');
      const groups = byKey(await vector(a, 'sum by (x) (a)'));
      const expected = new Map<string, number>();
      for (const s of raw) {
        const k = labelsKey({ x: s.labels.x });
        expected.set(k, (expected.get(k) ?? 0) + s.v);
      }
      expect(groups).toEqual(expected);
      const total = await vector(a, 'sum(a)');
      if (raw.length === 0) expect(total).toEqual([]);
      else expect(total[0].v).toBe([...expected.values()].reduce((x, y) => x + y, 0));
    }), { numRuns: 40 });
  });

  it('topk(k) by (x) returns at most k per group, and none left out is larger', async () => {
    await fc.assert(fc.asyncProperty(seriesSet('a', ints), fc.integer({ min: 0, max: 4 }), async (a, k) => {
      const raw = await vector(a, 'a');
      const top = await vector(a, `topk by (x) (${k}, a)`);
      const chosen = new Set(top.map((s) => labelsKey(s.labels)));
      for (const x of ['p', 'q', 'r']) {
        const inGroup = raw.filter((s) => s.labels.x === x);
        const picked = inGroup.filter((s) => chosen.has(labelsKey(s.labels)));
        expect(picked.length).toBe(Math.min(k, inGroup.length));
        const minPicked = Math.min(...picked.map((s) => s.v));
        for (const s of inGroup) if (!chosen.has(labelsKey(s.labels))) expect(s.v).toBeLessThanOrEqual(minPicked);
      }
    }), { numRuns: 40 });
  });

  it('count_values counts every sample once', async () => {
    await fc.assert(fc.asyncProperty(seriesSet('a', fc.integer({ min: 0, max: 3 })), async (a) => {
      const raw = await vector(a, 'a');
      const counted = await vector(a, 'count_values("v", a)');
      expect(counted.reduce((n, s) => n + s.v, 0)).toBe(raw.length);
      for (const s of counted) expect(s.v).toBe(raw.filter((r) => String(r.v) === s.labels.v).length);
    }), { numRuns: 40 });
  });

  it('rate of a monotonic counter is never negative', async () => {
    const counters = fc.array(fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 11, maxLength: 11 }), { minLength: 1, maxLength: 5 })
      .map((list) => list.map((incs, i): MemorySeries => {
        let v = 0;
        return { labels: { __name__: 'c', i: String(i) }, samples: incs.map((inc, k) => ({ t: k * 60_000 + 7_000, v: (v += inc) })) };
      }));
    await fc.assert(fc.asyncProperty(counters, fc.constantFrom('1m', '3m', '5m'), async (c, range) => {
      const r = await engine.rangeQuery(new MemoryQuerier(c), `rate(c[${range}])`, 0, T, 30_000);
      if (r.value.type !== 'matrix') throw new Error('expected a matrix');
      for (const s of r.value.series) for (const v of s.values) expect(v).toBeGreaterThanOrEqual(0);
    }), { numRuns: 40 });
  });

  it('results do not depend on the order the store answers series in', async () => {
    const queries = ['sum by (x) (a)', 'avg(a)', 'a and on(x) a', 'max by (x) (a) - on(x) min by (x) (a)', 'count_values("v", a)', 'quantile(0.5, a)'];
    await fc.assert(fc.asyncProperty(seriesSet('a', ints), fc.constantFrom(...queries), async (a, q) => {
      const forward = byKey(await vector(a, q));
      const backward = byKey(await vector([...a].reverse(), q));
      expect(backward).toEqual(forward);
    }), { numRuns: 60 });
  });

  it('a and b, a unless b split a; a or b keeps all of a', async () => {
    await fc.assert(fc.asyncProperty(seriesSet('a', ints), seriesSet('b', ints), async (a, b) => {
      const data = [...a, ...b];
      const all = byKey(await vector(data, 'a'));
      const and = byKey(await vector(data, 'a and on(x) b'));
      const unless = byKey(await vector(data, 'a unless on(x) b'));
      expect(new Map([...and, ...unless])).toEqual(all);
      for (const k of and.keys()) expect(unless.has(k)).toBe(false);
      const or = byKey(await vector(data, 'a or on(x) b'));
      for (const [k, v] of all) expect(or.get(k)).toBe(v);
    }), { numRuns: 40 });
  });

  it('comparisons with bool answer 0 or 1 for every series; without bool they filter', async () => {
    await fc.assert(fc.asyncProperty(seriesSet('a', ints), ints, async (a, n) => {
      const raw = await vector(a, 'a');
      const flags = await vector(a, `a > bool ${n}`);
      expect(flags).toHaveLength(raw.length);
      const filtered = await vector(a, `a > ${n}`);
      expect(filtered.length).toBe(flags.filter((s) => s.v === 1).length);
      for (const s of filtered) expect(s.v).toBeGreaterThan(n);
    }), { numRuns: 40 });
  });
});

describe('selector order', () => {
  it('an instant selector lists series in label order (names, then values; prefixes and NUL included)', async () => {
    const { compareLabels } = await import('../../packages/labels/compare-labels');
    const value = fc.constantFrom('', 'a', 'ab', 'a\u0000', 'b', 'a b', 'é', 'Z');
    const name = fc.constantFrom('a', 'ab', 'b', 'job', 'a_');
    await fc.assert(fc.asyncProperty(fc.uniqueArray(fc.dictionary(name, value, { maxKeys: 3 }), { maxLength: 12, selector: (l) => JSON.stringify(Object.entries(l).sort()) }), async (sets) => {
      const data = sets.map((labels): MemorySeries => ({ labels: { __name__: 'm', ...labels }, samples: [{ t: T, v: 1 }] }));
      const got = (await vector(data, 'm')).map((s) => s.labels);
      expect(got).toEqual(data.map((d) => d.labels).sort(compareLabels));
    }), { numRuns: 300 });
  });
});
