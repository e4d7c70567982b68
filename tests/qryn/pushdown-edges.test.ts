import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../packages/promql/engine/engine';
import { compileAnchored, compileUnanchored, toClickHouseRegex } from '../../packages/re2-pattern/re2-pattern';
import { Batch } from '../../server/products/qryn/ingest/batch';
import { createWriter } from '../../server/products/qryn/ingest/writer';
import { createMetricsQuerier } from '../../server/products/qryn/query/metrics-querier';
import { createInstanceSchema } from '../../server/products/qryn/storage/schema';
import { literal } from '../../server/products/qryn/storage/storage-client';
import { startScratchStorage, type ScratchStorage } from '../support/scratch-storage';

// The two places where pushdown and the engine differed, each on its own: the regex form ClickHouse 18.16 is sent
// (its match() lets `.` match a newline; RE2 in Go and re2js does not), and step windows cut on the millisecond the
// engine sees rather than on the stored nanosecond.

let storage: ScratchStorage;
const database = 'qryn_edges';
const BASE_MS = Date.UTC(2026, 10, 20, 0, 0, 0);
const MIN = 60_000;

beforeAll(async () => {
  storage = await startScratchStorage('pushdown-edges');
  await createInstanceSchema(storage.client, database);
  // A sample every 20 s, each 0.4 ms after its whole millisecond (as Influx and OTLP send them).
  const batch = new Batch();
  const fp = batch.addSeries('metrics', { __name__: 'fine', src: 'otlp' });
  for (let k = 0; k < 60; k++) batch.addMetric(fp, BigInt(BASE_MS + k * 20_000) * 1_000_000n + 400_000n, k);
  await createWriter(() => Date.now()).write({ id: 'edges', database, client: storage.client, fingerprintLimit: 0 }, batch);
}, 60_000);

afterAll(async () => storage?.close());

describe('toClickHouseRegex on ClickHouse match()', () => {
  const PATTERNS = ['foo.bar', '(?i)FOO.BAR', '(?s)foo.bar', 'foo.*', '.+bar', '^bar', 'foo$', 'a|fo.', '[^x]bar', '\\Qfoo.bar\\E'];
  const INPUTS = ['foo-bar', 'foo\nbar', 'FOO\nBAR', 'foo.bar', 'x\nfoo', 'bar\nfoo', 'foo\n', '\nbar', 'FOO-BAR'];

  it('answers what RE2 answers, anchored and not, for values with newlines', async () => {
    const cases = PATTERNS.flatMap((pattern) => [true, false].flatMap((anchored) => INPUTS.map((input) => ({ pattern, anchored, input }))));
    const sql = cases.map((c, i) => `match(${literal(c.input)}, ${literal(toClickHouseRegex(c.pattern, c.anchored))}) AS m${i}`).join(', ');
    const [row] = await storage.client.query<Record<string, number | string>>(`SELECT ${sql}`);
    const mismatches = cases.filter((c, i) => (Number(row[`m${i}`]) === 1) !== (c.anchored ? compileAnchored(c.pattern) : compileUnanchored(c.pattern))(c.input));
    expect(mismatches).toEqual([]);
    // The case the bare pattern gets wrong, so that the check above is known to look at it.
    const [bare] = await storage.client.query<{ m: number | string }>(`SELECT match('foo\\nbar', 'foo.bar') AS m`);
    expect(Number(bare.m)).toBe(1);
  });
});

describe('step windows in whole milliseconds', () => {
  it("counts a sample a fraction of a millisecond after a window's edge, as the engine does", async () => {
    const engine = createEngine();
    // Windows [t − 1m, t] at 2 m steps from a whole minute: each holds the samples at t − 60 s, −40 s, −20 s and t.
    const answer = await engine.rangeQuery(createMetricsQuerier(storage.client, database).querier, 'count_over_time(fine[1m])', BASE_MS + 2 * MIN, BASE_MS + 12 * MIN, 2 * MIN);
    const series = (answer.value as { series: { values: Float64Array }[] }).series;
    expect(series.map((s) => Array.from(s.values))).toEqual([[4, 4, 4, 4, 4, 4]]);
  });

  it('reads only the samples inside the windows with a step under 65.536 s (18.16 types modulo() by its divisor)', async () => {
    const matchers = [{ name: '__name__', op: '=' as const, value: 'fine' }];
    // Windows [25 s, 45 s] and [75 s, 95 s] of a rate over 20 s at 50 s steps: the samples at 40 s and 80 s.
    const hints = { startMs: BASE_MS + 25_000, endMs: BASE_MS + 95_000, stepMs: 50_000, func: 'rate', rangeMs: 20_000 };
    const [series] = await createMetricsQuerier(storage.client, database).querier.select(matchers, hints);
    expect(Array.from(series.timestampsMs, (t) => (t - BASE_MS) / 1000)).toEqual([40, 80]);
  });
});
