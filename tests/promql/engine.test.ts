import { describe, expect, it } from 'vitest';
import { createEngine } from '../../packages/promql/engine/engine';
import { PromQLError } from '../../packages/promql/engine/errors';
import { formatPointValue, formatResult, formatValue } from '../../packages/promql/engine/format';
import { planQuery } from '../../packages/promql/planner/planner';
import { parseExpr } from '../../packages/promql/parser/parse';
import { MemoryQuerier, type MemorySeries } from '../../packages/promql/storage/memory-querier';
import type { Querier } from '../../packages/promql/storage/querier';

const MIN = 60_000;

function counter(labels: Record<string, string>, minutes: number, perMinute = 1): MemorySeries {
  return { labels, samples: Array.from({ length: minutes + 1 }, (_, i) => ({ t: i * MIN, v: i * perMinute })) };
}

async function failure(p: Promise<unknown>): Promise<PromQLError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(PromQLError);
  return e as PromQLError;
}

describe('formatValue: Go strconv.FormatFloat(v, "f", -1, 64)', () => {
  const cases: [number, string][] = [
    [1e21, '1000000000000000000000'], [1e-7, '0.0000001'], [0.1 + 0.2, '0.30000000000000004'], [1, '1'],
    [-2.5, '-2.5'], [NaN, 'NaN'], [Infinity, '+Inf'], [-Infinity, '-Inf'], [1.5e300, `15${'0'.repeat(299)}`],
    [123456789012345680000, '123456789012345680000'], [5e-324, `0.${'0'.repeat(323)}5`], [-0, '-0'], [0, '0'],
    [1.2345e-5, '0.000012345'],
  ];
  for (const [v, s] of cases) it(`${v} → ${s.length > 30 ? `${s.slice(0, 30)}…` : s}`, () => expect(formatValue(v)).toBe(s));
});

describe('formatPointValue: sample values as Prometheus 2.42 writes them', () => {
  const cases: [number, string][] = [
    [1e21, '1e+21'], [1e-7, '1e-07'], [-2e-7, '-2e-07'], [1e-6, '0.000001'], [1.23e22, '1.23e+22'], [1.5e-300, '1.5e-300'],
    [0.1 + 0.2, '0.30000000000000004'], [123456789, '123456789'], [NaN, 'NaN'], [Infinity, '+Inf'], [0, '0'],
  ];
  for (const [v, s] of cases) it(`${v} → ${s}`, () => expect(formatPointValue(v)).toBe(s));
  it('is used for vectors and matrices, formatValue for scalars', async () => {
    const engine = createEngine();
    const q = new MemoryQuerier([]);
    expect(formatResult((await engine.instantQuery(q, '1e21', 1000)).value).result).toEqual([1, '1000000000000000000000']);
    expect(formatResult((await engine.instantQuery(q, 'vector(1e21)', 1000)).value).result).toEqual([{ metric: {}, value: [1, '1e+21'] }]);
    expect(formatResult((await engine.rangeQuery(q, '1e-7', 0, 0, 1000)).value).result).toEqual([{ metric: {}, values: [[0, '1e-07']] }]);
  });
});

describe('formatResult: the Prometheus HTTP API data object', () => {
  it('writes vectors, scalars, strings and matrices', async () => {
    const engine = createEngine();
    const q = new MemoryQuerier([counter({ __name__: 'c', job: 'a' }, 10)]);
    expect(formatResult((await engine.instantQuery(q, 'c', 90_500)).value)).toEqual({
      resultType: 'vector', result: [{ metric: { __name__: 'c', job: 'a' }, value: [90.5, '1'] }],
    });
    expect(formatResult((await engine.instantQuery(q, '1/0', 1000)).value)).toEqual({ resultType: 'scalar', result: [1, '+Inf'] });
    expect(formatResult((await engine.instantQuery(q, '"hi"', 1000)).value)).toEqual({ resultType: 'string', result: [1, 'hi'] });
    expect(formatResult((await engine.rangeQuery(q, 'c', 0, 2 * MIN, MIN)).value)).toEqual({
      resultType: 'matrix', result: [{ metric: { __name__: 'c', job: 'a' }, values: [[0, '0'], [60, '1'], [120, '2']] }],
    });
    // A scalar in a range query is a matrix with one series without labels.
    expect(formatResult((await engine.rangeQuery(q, '0.5', 0, MIN, MIN)).value)).toEqual({
      resultType: 'matrix', result: [{ metric: {}, values: [[0, '0.5'], [60, '0.5']] }],
    });
  });
});

describe('staleness', () => {
  const engine = createEngine();
  const data: MemorySeries[] = [
    { labels: { __name__: 'm', s: 'marked' }, samples: [{ t: 0, v: 1 }, { t: MIN, v: 2 }, { t: 2 * MIN, v: NaN, stale: true }] },
    { labels: { __name__: 'm', s: 'stopped' }, samples: [{ t: 0, v: 1 }, { t: MIN, v: 2 }] },
  ];
  it('a stale marker ends a series at once; one without stays for the 5-minute lookback', async () => {
    const r = await engine.rangeQuery(new MemoryQuerier(data), 'm', 0, 7 * MIN, MIN);
    const res = formatResult(r.value).result as { metric: Record<string, string>; values: [number, string][] }[];
    expect(res.map((s) => [s.metric.s, s.values.map((v) => v[0])])).toEqual([
      ['marked', [0, 60]],
      ['stopped', [0, 60, 120, 180, 240, 300, 360]],
    ]);
  });
  it('recognises a stale marker by its NaN bits even without the flag', async () => {
    const bits = new DataView(new ArrayBuffer(8));
    bits.setUint32(0, 0x7ff00000);
    bits.setUint32(4, 2);
    const staleNaN = bits.getFloat64(0);
    const q: Querier = {
      async select() {
        return [{ labels: { __name__: 'x' }, timestampsMs: Float64Array.of(0, MIN), values: Float64Array.of(1, staleNaN) }];
      },
    };
    expect(((await engine.instantQuery(q, 'x', 90_000)).value as { samples: unknown[] }).samples).toEqual([]);
    const r = await engine.instantQuery(q, 'count_over_time(x[5m])', 90_000);
    expect(formatResult(r.value).result).toEqual([{ metric: {}, value: [90, '1'] }]);
  });
  it('honours a configured lookback', async () => {
    const short = createEngine({ lookbackDeltaMs: 30_000 });
    const r = await short.instantQuery(new MemoryQuerier(data), 'm{s="stopped"}', 100_000);
    expect((r.value as { samples: unknown[] }).samples).toEqual([]);
  });
});

describe('limits and errors', () => {
  const q = new MemoryQuerier([counter({ __name__: 'c' }, 60)]);
  it('refuses more than 11,000 points per series with Prometheus text (400)', async () => {
    const e = await failure(createEngine().rangeQuery(q, 'c', 0, 11_001 * 1000, 1000));
    expect(e.status).toBe(400);
    expect(e.message).toBe('exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)');
    await expect(createEngine().rangeQuery(q, 'c', 0, 11_000 * 1000, 1000)).resolves.toBeDefined();
  });
  it('refuses loading more samples than allowed (422)', async () => {
    const e = await failure(createEngine({ maxSamples: 10 }).instantQuery(q, 'sum_over_time(c[1h])', 60 * MIN));
    expect(e.type).toBe('execution');
    expect(e.status).toBe(422);
    expect(e.message).toBe('query processing would load too many samples into memory in query execution');
  });
  it('times out (503) and is cancelled (499)', async () => {
    const slow: Querier = { select: () => new Promise((resolve) => setTimeout(() => resolve([]), 200)) };
    const e = await failure(createEngine({ timeoutMs: 20 }).instantQuery(slow, 'c', 0));
    expect([e.type, e.status, e.message]).toEqual(['timeout', 503, 'query timed out in query execution']);
    const controller = new AbortController();
    const p = createEngine().instantQuery(slow, 'c', 0, controller.signal);
    controller.abort();
    const c = await failure(p);
    expect([c.type, c.status]).toEqual(['canceled', 499]);
  });
  it('refuses a range query of a range vector or string (400)', async () => {
    const e = await failure(createEngine().rangeQuery(q, 'c[5m]', 0, MIN, MIN));
    expect(e.status).toBe(400);
    expect(e.message).toBe('invalid expression type "range vector" for range query, must be Scalar or instant Vector');
  });
  it('answers a parse error as bad_data', async () => {
    const e = await failure(createEngine().instantQuery(q, 'sum(', 0));
    expect(e.type).toBe('bad_data');
  });
});

describe('planner: select hints as Prometheus computes them', () => {
  const plan = (query: string, startMs: number, endMs: number, stepMs = 0) =>
    planQuery(parseExpr(query), { startMs, endMs, stepMs, lookbackDeltaMs: 300_000 }).selections;
  it('an instant selector looks back 5 minutes', () => {
    expect(plan('x', 1_000_000, 1_000_000)[0].hints).toEqual({ startMs: 700_000, endMs: 1_000_000, stepMs: 0 });
  });
  it('a range selector covers its range; the function and grouping are named', () => {
    expect(plan('sum by (le) (rate(x[5m]))', 1_000_000, 2_000_000, 15_000)[0].hints).toEqual({
      startMs: 700_000, endMs: 2_000_000, stepMs: 15_000, func: 'rate', rangeMs: 300_000, grouping: ['le'], by: true,
    });
  });
  it('offset, @ and subqueries move the window', () => {
    expect(plan('x offset 1h', 10_000_000, 10_000_000)[0].hints).toMatchObject({ startMs: 6_100_000, endMs: 6_400_000 });
    expect(plan('x @ 100', 10_000_000, 20_000_000)[0].hints).toMatchObject({ startMs: -200_000, endMs: 100_000 });
    expect(plan('x @ end()', 10_000_000, 20_000_000)[0].hints).toMatchObject({ startMs: 19_700_000, endMs: 20_000_000 });
    // The subquery is evaluated at the multiples of 1m in [5,800 s, 9,400 s]: from 5,820 s on.
    expect(plan('max_over_time(rate(x[5m])[1h:1m] offset 10m)', 10_000_000, 10_000_000)[0].hints).toMatchObject({
      startMs: 5_820_000 - 300_000, endMs: 9_360_000, stepMs: 60_000,
    });
  });
  it('a selector inside a subquery gets the subquery\'s step and exactly its first and last evaluation time', () => {
    // A range query at 1h steps over a subquery at 5m: the inner rate runs every 5 minutes, not every hour.
    const [inner] = plan('max_over_time(rate(x[1m])[30m:5m])', 7_200_000, 10_800_000, 3_600_000);
    expect(inner.hints).toEqual({ startMs: 5_400_000 - 60_000, endMs: 10_800_000, stepMs: 300_000, func: 'rate', rangeMs: 60_000 });
    // Without a step: the default evaluation interval (1m); nested subqueries use the enclosing subquery's times.
    const [nested] = plan('max_over_time(max_over_time(rate(x[1m])[10m:2m])[30m:])', 7_200_000, 7_200_000);
    // Outer times 5,400 s … 7,200 s each minute; inner times 4,800 s … 7,200 s every 2 minutes.
    expect(nested.hints).toMatchObject({ stepMs: 120_000, startMs: 4_800_000 - 60_000, endMs: 7_200_000 });
    // A subquery window that holds no multiple of its step asks for nothing.
    expect(plan('max_over_time(x[1s:1h])', 7_230_000, 7_230_000)).toEqual([]);
  });
  it('asks for identical selections once', () => {
    expect(plan('x + x', 0, 0)).toHaveLength(1);
    expect(plan('x + x offset 1m', 0, 0)).toHaveLength(2);
  });
  it('the engine passes the hints to the Querier', async () => {
    const q = new MemoryQuerier([counter({ __name__: 'x' }, 30)]);
    await createEngine().rangeQuery(q, 'rate(x[5m]) / rate(x[5m])', 10 * MIN, 20 * MIN, MIN);
    expect(q.calls).toHaveLength(1);
    expect(q.calls[0].hints).toMatchObject({ startMs: 5 * MIN, endMs: 20 * MIN, stepMs: MIN, rangeMs: 5 * MIN, func: 'rate' });
    expect(q.calls[0].matchers).toEqual([{ name: '__name__', op: '=', value: 'x' }]);
  });
});

describe('orders', () => {
  it('a range query lists series by labels; an instant query keeps evaluation order (sort_desc)', async () => {
    const q = new MemoryQuerier([
      { labels: { __name__: 'v', k: 'b' }, samples: [{ t: 0, v: 1 }] },
      { labels: { __name__: 'v', k: 'a' }, samples: [{ t: 0, v: 2 }] },
      { labels: { __name__: 'v', k: 'c' }, samples: [{ t: 0, v: 3 }] },
    ]);
    const engine = createEngine();
    const range = formatResult((await engine.rangeQuery(q, 'sort_desc(v)', 0, 0, 1000)).value).result as { metric: { k: string } }[];
    expect(range.map((s) => s.metric.k)).toEqual(['a', 'b', 'c']);
    const instant = formatResult((await engine.instantQuery(q, 'sort_desc(v)', 0)).value).result as { metric: { k: string } }[];
    expect(instant.map((s) => s.metric.k)).toEqual(['c', 'a', 'b']);
    const plain = formatResult((await engine.instantQuery(q, 'v', 0)).value).result as { metric: { k: string } }[];
    expect(plain.map((s) => s.metric.k)).toEqual(['a', 'b', 'c']);
  });
});

describe('ties and NaN as Prometheus 2.42 orders them', () => {
  const gauge = (name: string, id: string, v: number): MemorySeries => ({ labels: { __name__: name, id }, samples: [{ t: 0, v }] });
  const ids = (value: { type: string; samples?: { labels: Record<string, string>; v: number }[] }) => value.samples!.map((s) => `${s.labels.id}=${s.v}`);

  it('topk keeps the series its heap keeps among equal values, best first', async () => {
    // Heap (worst on top): a; a b; c beats the top a: a popped, c pushed below b; d (5) does not beat the top b (5).
    const q = new MemoryQuerier([gauge('v', 'a', 5), gauge('v', 'b', 5), gauge('v', 'c', 7), gauge('v', 'd', 5)]);
    const answer = await createEngine().instantQuery(q, 'topk(2, v)', MIN);
    expect(ids(answer.value as never)).toEqual(['c=7', 'b=5']);
  });

  it('topk answers as Prometheus 2.42 did for equal values (probed: the worst is popped, the better pushed)', async () => {
    const values: [string, number][] = [['a', 0.6386], ['b', 0.08], ['c', 0.6737], ['d', 0.077], ['e', 0.6737], ['f', 0.084], ['g', 0.554], ['h', 0.07], ['i', 0.698]];
    const q = new MemoryQuerier(values.map(([id, v]) => gauge('v', id, v)));
    expect(ids((await createEngine().instantQuery(q, 'topk(2, v)', MIN)).value as never)).toEqual(['i=0.698', 'e=0.6737']);
    const q2 = new MemoryQuerier([gauge('v', 'a', 1), gauge('v', 'c', 2), gauge('v', 'e', 2)]);
    expect(ids((await createEngine().instantQuery(q2, 'topk(2, v)', MIN)).value as never)).toEqual(['c=2', 'e=2']);
  });

  it('bottomk likewise, with the reversed heap', async () => {
    const q = new MemoryQuerier([gauge('v', 'a', 5), gauge('v', 'b', 5), gauge('v', 'c', 3), gauge('v', 'd', 5)]);
    const answer = await createEngine().instantQuery(q, 'bottomk(2, v)', MIN);
    expect(ids(answer.value as never)).toEqual(['c=3', 'b=5']);
  });

  it('topk over a range query chooses per step with the same heap', async () => {
    const q = new MemoryQuerier([
      { labels: { __name__: 'v', id: 'a' }, samples: [{ t: 0, v: 5 }, { t: MIN, v: 1 }] },
      { labels: { __name__: 'v', id: 'b' }, samples: [{ t: 0, v: 5 }, { t: MIN, v: 1 }] },
      { labels: { __name__: 'v', id: 'c' }, samples: [{ t: 0, v: 7 }, { t: MIN, v: 1 }] },
      { labels: { __name__: 'v', id: 'd' }, samples: [{ t: 0, v: 5 }, { t: MIN, v: 1 }] },
    ]);
    const answer = await createEngine().rangeQuery(q, 'topk(2, v)', 0, MIN, MIN);
    const got = (answer.value as { series: { labels: Record<string, string>; timestampsMs: Float64Array }[] }).series.map((s) => `${s.labels.id}:${Array.from(s.timestampsMs).join(',')}`);
    // At 0: c and b; at 1m all equal: a and b (nothing beats the top).
    expect(got).toEqual(['a:60000', 'b:0,60000', 'c:0']);
  });

  it('quantile_over_time and quantile sort NaN before every number', async () => {
    const q = new MemoryQuerier([{ labels: { __name__: 'r' }, samples: [{ t: 0, v: 3 }, { t: 15_000, v: NaN }, { t: 30_000, v: 1 }] }]);
    const engine = createEngine();
    const at = async (query: string) => ((await engine.instantQuery(q, query, 30_000)).value as { samples: { v: number }[] }).samples[0].v;
    expect(await at('quantile_over_time(0, r[1m])')).toBeNaN();
    expect(await at('quantile_over_time(0.5, r[1m])')).toBe(1);
    expect(await at('quantile_over_time(1, r[1m])')).toBe(3);
    const many = new MemoryQuerier([gauge('w', 'a', 3), gauge('w', 'b', NaN), gauge('w', 'c', 1)]);
    const quantile = await engine.instantQuery(many, 'quantile(0.5, w)', MIN);
    expect((quantile.value as { samples: { v: number }[] }).samples[0].v).toBe(1);
  });
});
