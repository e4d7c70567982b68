import { describe, expect, it } from 'vitest';
import { runQuery, type QueryRequest } from '../../packages/logql/engine/evaluate';
import type { LogQuerier, LogSelectParams, StoredStream } from '../../packages/logql/storage/querier';
import { formatValue } from '../../packages/logql/engine/labels';

// The engine's metric functions and limits over an in-memory store (no push-down: every query runs the pipeline).

const S = 1_000_000_000n;
const T0 = 1_700_000_000n * S;

function memoryQuerier(streams: { labels: Record<string, string>; lines: [bigint, string][] }[]): LogQuerier {
  return {
    async selectLogs(p: LogSelectParams): Promise<StoredStream[]> {
      return streams
        .filter((s) => p.matchers.every((m) => (m.op === '=' ? s.labels[m.name] === m.value : m.op === '!=' ? s.labels[m.name] !== m.value : true)))
        .map((s) => {
          const kept = s.lines.filter(([t]) => t >= p.startNs && t < p.endNs);
          return { labels: s.labels, timestamps: kept.map(([t]) => t), lines: kept.map(([, l]) => l) };
        });
    },
  };
}

// A counter in `c` every 10 s (with a reset), and latencies.
const store = memoryQuerier([
  { labels: { app: 'a' }, lines: [1, 2, 3, 4, 5, 6].map((i) => [T0 + BigInt(i) * 10n * S, `c=${[5, 10, 15, 2, 6, 10][i - 1]} lat=${i}`]) },
  { labels: { app: 'b' }, lines: [1, 2, 3].map((i) => [T0 + BigInt(i) * 10n * S + S, `c=1 lat=${i * 10}`]) },
]);

const instant = (query: string, at = T0 + 60n * S): QueryRequest => ({ query, startNs: at, endNs: at, stepNs: 0n, instant: true, limit: 100, direction: 'backward' });
const vec = async (query: string, at?: bigint) => {
  const { data } = await runQuery(store, instant(query, at));
  if (data.resultType !== 'vector') throw new Error(data.resultType);
  return data.result.map((r) => [r.metric, r.value[1]]);
};

describe('range aggregations', () => {
  it('count, rate, bytes', async () => {
    expect(await vec('count_over_time({app="a"}[1m])')).toEqual([[{ app: 'a' }, '6']]);
    expect(await vec('rate({app="a"}[1m])')).toEqual([[{ app: 'a' }, '0.1']]);
    expect(await vec('bytes_over_time({app="b"}[1m])')).toEqual([[{ app: 'b' }, String(3 * 'c=1 lat=10'.length)]]);
  });
  it('unwrapped: sum, avg, min, max, first, last, quantile, stddev, stdvar', async () => {
    // Loki groups these range aggregations only with an aggregation around them (sum_over_time takes no `by`).
    expect((await vec('sum by (app) (sum_over_time({app="a"} | logfmt | unwrap lat [1m]))'))).toEqual([[{ app: 'a' }, '21']]);
    expect((await vec('avg_over_time({app="a"} | logfmt | unwrap lat [1m]) by (app)'))).toEqual([[{ app: 'a' }, '3.5']]);
    expect((await vec('min_over_time({app="a"} | logfmt | unwrap lat [1m]) by (app)'))).toEqual([[{ app: 'a' }, '1']]);
    expect((await vec('max_over_time({app="a"} | logfmt | unwrap lat [1m]) by (app)'))).toEqual([[{ app: 'a' }, '6']]);
    expect((await vec('first_over_time({app="a"} | logfmt | unwrap lat [1m]) by (app)'))).toEqual([[{ app: 'a' }, '1']]);
    expect((await vec('last_over_time({app="a"} | logfmt | unwrap lat [1m]) by (app)'))).toEqual([[{ app: 'a' }, '6']]);
    expect((await vec('quantile_over_time(0.5, {app="a"} | logfmt | unwrap lat [1m]) by (app)'))).toEqual([[{ app: 'a' }, '3.5']]);
    expect((await vec('stdvar_over_time({app="a"} | logfmt | unwrap lat [1m]) by (app)'))).toEqual([[{ app: 'a' }, String(35 / 12)]]);
    expect((await vec('stddev_over_time({app="a"} | logfmt | unwrap lat [1m]) by (app)'))).toEqual([[{ app: 'a' }, String(Math.sqrt(35 / 12))]]);
  });
  it('the unwrapped label leaves the series; a value that is not a number is a pipeline error', async () => {
    expect(await vec('sum_over_time({app="b"} | logfmt | unwrap lat [1m])')).toEqual([[{ app: 'b', c: '1' }, '60']]);
    // A line without the label gives no sample.
    await expect(vec('sum_over_time({app="b"} | logfmt | unwrap missing [1m])')).resolves.toEqual([]);
    await expect(runQuery(store, instant('sum_over_time({app="b"} | logfmt | line_format "v=x" | logfmt | unwrap v [1m])'))).rejects.toThrow(/pipeline error: 'SampleExtractionErr'/);
  });
  it('rate_counter extrapolates with counter resets (Prometheus semantics)', async () => {
    // 5, 10, 15, reset, 2, 6, 10: the increase is 10 - 5 + 15 (the value before the reset) = 20 over 50 s of
    // samples; the window (0 s, 60 s] starts 10 s before the first sample (under 1.1 intervals: extrapolated to it).
    // The lines' other label (lat) is dropped so that they are one series (rate_counter takes no `by`, as Loki).
    const [[, v]] = await vec('rate_counter({app="a"} | logfmt | drop lat | unwrap c [1m])');
    expect(Number(v)).toBeCloseTo((20 * (60 / 50)) / 60, 12);
  });
  it('absent_over_time answers 1 with the equality matchers when nothing is there', async () => {
    expect(await vec('absent_over_time({app="zzz"}[1m])')).toEqual([[{ app: 'zzz' }, '1']]);
    expect(await vec('absent_over_time({app="a"}[1m])')).toEqual([]);
  });
});

describe('vector aggregations, binary operators, label_replace', () => {
  it('sum, count, topk, bottomk, sort_desc', async () => {
    expect(await vec('sum(count_over_time({app=~"a|b"}[1m]))')).toEqual([[{}, '9']]);
    expect(await vec('count(count_over_time({app=~"a|b"}[1m]))')).toEqual([[{}, '2']]);
    expect(await vec('topk(1, count_over_time({app=~"a|b"}[1m]))')).toEqual([[{ app: 'a' }, '6']]);
    expect(await vec('bottomk(1, count_over_time({app=~"a|b"}[1m]))')).toEqual([[{ app: 'b' }, '3']]);
    expect(await vec('sort(count_over_time({app=~"a|b"}[1m]))')).toEqual([[{ app: 'b' }, '3'], [{ app: 'a' }, '6']]);
    expect(await vec('sort_desc(count_over_time({app=~"a|b"}[1m]))')).toEqual([[{ app: 'a' }, '6'], [{ app: 'b' }, '3']]);
  });
  it('arithmetic, comparisons with and without bool, set operators, vector()', async () => {
    expect(await vec('count_over_time({app="a"}[1m]) / 4')).toEqual([[{ app: 'a' }, '1.5']]);
    expect(await vec('count_over_time({app=~"a|b"}[1m]) > 4')).toEqual([[{ app: 'a' }, '6']]);
    expect(await vec('count_over_time({app=~"a|b"}[1m]) > bool 4')).toEqual([[{ app: 'a' }, '1'], [{ app: 'b' }, '0']]);
    expect(await vec('count_over_time({app=~"a|b"}[1m]) unless count_over_time({app="a"}[1m])')).toEqual([[{ app: 'b' }, '3']]);
    expect(await vec('sum(count_over_time({app="q"}[1m])) or vector(7)')).toEqual([[{}, '7']]);
    await expect(runQuery(store, instant('count_over_time({app=~"a|b"}[1m]) + on() count_over_time({app=~"a|b"}[1m])'))).rejects.toThrow(/many-to-many|duplicate series/);
  });
  it('label_replace', async () => {
    expect(await vec('label_replace(count_over_time({app="a"}[1m]), "x", "v-$1", "app", "(.)")')).toEqual([[{ app: 'a', x: 'v-a' }, '6']]);
  });
});

describe('log queries and limits', () => {
  it('limit and direction over streams, and the label sets after the pipeline', async () => {
    const { data } = await runQuery(store, { query: '{app="a"} | logfmt | keep app', startNs: T0, endNs: T0 + 100n * S, stepNs: 0n, instant: false, limit: 2, direction: 'forward' });
    expect(data).toEqual({ resultType: 'streams', result: [{ stream: { app: 'a' }, values: [[(T0 + 10n * S).toString(), 'c=5 lat=1'], [(T0 + 20n * S).toString(), 'c=10 lat=2']] }] });
  });
  it("refuses with Loki's messages", async () => {
    await expect(runQuery(store, { ...instant('{app="a"}'), limit: 6000 })).rejects.toThrow('max entries limit per query exceeded, limit > max_entries_limit_per_query (6000 > 5000)');
    await expect(runQuery(store, instant('{app="a"}'))).rejects.toThrow(/log queries are not supported as an instant query type/);
    await expect(runQuery(store, { query: 'count_over_time({app="a"}[1m])', startNs: T0, endNs: T0 + 100n * S, stepNs: 0n, instant: false, limit: 10, direction: 'forward' })).rejects.toThrow(/zero or negative query resolution step/);
    await expect(runQuery(store, instant('count_over_time({app=~"a|b"}[1m])'), { maxEntries: 5000, maxSeries: 1, maxQueryLengthNs: 0n, maxPoints: 11000, maxLinesRead: 1e6 })).rejects.toThrow(/maximum number of series \(1\) reached for a single query/);
  });
  it('formats values as Go does (no exponent)', () => {
    expect(formatValue(1e21)).toBe('1000000000000000000000');
    expect(formatValue(1.5e-7)).toBe('0.00000015');
    expect(formatValue(NaN)).toBe('NaN');
    expect(formatValue(-Infinity)).toBe('-Inf');
  });
});

describe('the interval parameter (range log queries)', () => {
  // Lines of two streams every 10 s, interleaved 1 s apart: a at 10, 20, …, 60 s; b at 11, 21, 31 s.
  const range = (direction: 'forward' | 'backward', intervalNs: bigint, limit = 100): QueryRequest => ({
    query: '{app=~"a|b"}', startNs: T0, endNs: T0 + 61n * S, stepNs: S, instant: false, limit, direction, intervalNs,
  });
  const times = async (req: QueryRequest) => {
    const { data } = await runQuery(store, req);
    if (data.resultType !== 'streams') throw new Error(data.resultType);
    return data.result.flatMap((s) => s.values.map(([t]) => `${s.stream.app}${(BigInt(t) - T0) / S}`)).sort();
  };
  it('forward: each entry at least the interval after the last one returned, over all streams', async () => {
    // In order a10 b11 a20 b21 a30 b31 a40 a50 a60. At 10 s: the b lines are 1 s after an a line returned.
    expect(await times(range('forward', 10n * S))).toEqual(['a10', 'a20', 'a30', 'a40', 'a50', 'a60']);
    // At 15 s: 10, then the first at or after 25 (a30), then at or after 45 (a50).
    expect(await times(range('forward', 15n * S))).toEqual(['a10', 'a30', 'a50']);
  });
  it('backward from the end, and the limit counts the entries returned', async () => {
    expect(await times(range('backward', 10n * S))).toEqual(['a10', 'a20', 'a30', 'a40', 'a50', 'a60']);
    // 60, then the first at or before 35 (b31): the limit of 2 is reached.
    expect(await times(range('backward', 25n * S, 2))).toEqual(['a60', 'b31']);
    expect(await times(range('backward', 0n, 3))).toEqual(['a40', 'a50', 'a60']);
  });
});
