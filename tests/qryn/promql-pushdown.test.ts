import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../packages/promql/engine/engine';
import { MemoryQuerier, type MemorySeries } from '../../packages/promql/storage/memory-querier';
import type { Querier } from '../../packages/promql/storage/querier';
import { Batch } from '../../server/products/qryn/ingest/batch';
import { createWriter } from '../../server/products/qryn/ingest/writer';
import { createMetricsQuerier } from '../../server/products/qryn/query/metrics-querier';
import { createInstanceSchema } from '../../server/products/qryn/storage/schema';
import type { StorageClient } from '../../server/products/qryn/storage/storage-client';
import { comparableValue as plain, startScratchStorage, type ScratchStorage } from '../support/scratch-storage';

// What the metrics querier pushes down to ClickHouse must not change an answer: the same queries evaluated over
// ClickHouse with the step-window pushdown, without it, and over the same samples held in memory (the engine's own
// evaluation, no store) answer exactly the same values. The queries are the shapes the pushdown acts on: a step
// longer than the range, offsets, `@`, and selectors inside subqueries (evaluated at the subquery's step, not the
// query's).

const MIN = 60_000;
const BASE = Date.UTC(2026, 10, 20, 0, 0, 0);
let storage: ScratchStorage;
let client: StorageClient;
const database = 'qryn_pushdown';
const data: MemorySeries[] = [];

beforeAll(async () => {
  storage = await startScratchStorage('promql-pushdown');
  client = storage.client;
  await createInstanceSchema(client, database);
  // Six hours at irregular intervals (13–29 s): counters with resets, a gauge with NaN, a series ending in a stale
  // marker and one with a gap of an hour.
  const add = (labels: Record<string, string>, value: (k: number) => number, opts: { until?: number; stale?: boolean; gapFrom?: number } = {}) => {
    const samples: MemorySeries['samples'] = [];
    let t = BASE + 7_000;
    for (let k = 0; t < BASE + 6 * 60 * MIN && (opts.until === undefined || t < opts.until); k++) {
      if (opts.gapFrom === undefined || t < opts.gapFrom || t > opts.gapFrom + 60 * MIN) samples.push({ t, v: value(k) });
      t += 13_000 + ((k * 7) % 17) * 1_000;
    }
    if (opts.stale) samples.push({ t: t + 15_000, v: NaN, stale: true });
    data.push({ labels, samples });
  };
  for (let i = 0; i < 6; i++) {
    let v = 0;
    add({ __name__: 'req_total', job: 'api', instance: `i${i}` }, (k) => (k % (50 + i * 13) === 0 ? (v = k % 5) : (v += (k * 3 + i) % 11)));
  }
  add({ __name__: 'temp', job: 'node', instance: 'a' }, (k) => (k % 37 === 5 ? NaN : 20 + Math.sin(k / 9) * 5));
  add({ __name__: 'temp', job: 'node', instance: 'b' }, (k) => 18 + ((k * 13) % 7), { until: BASE + 200 * MIN, stale: true });
  add({ __name__: 'temp', job: 'node', instance: 'c' }, (k) => 10 + (k % 4), { gapFrom: BASE + 120 * MIN });

  const batch = new Batch();
  for (const s of data) {
    const fp = batch.addSeries('metrics', s.labels);
    for (const p of s.samples) batch.addMetric(fp, BigInt(p.t) * 1_000_000n, p.v, p.stale ?? false);
  }
  await createWriter(() => Date.now()).write({ id: 'pushdown', database, client, fingerprintLimit: 0 }, batch);
}, 60_000);

afterAll(async () => storage?.close());

const RANGE_QUERIES: [query: string, startMin: number, endMin: number, stepMin: number][] = [
  ['rate(req_total[1m])', 10, 350, 5],
  ['sum(increase(req_total[2m]))', 7, 347, 10],
  ['count_over_time(temp[3m])', 0, 360, 15],
  ['max_over_time(temp[1m] offset 7m)', 20, 340, 6],
  ['delta(temp[4m])', 5, 355, 30],
  ['max_over_time(rate(req_total[1m])[30m:5m])', 60, 360, 60],
  // The subquery's range a multiple of the query's step: given the query's step, the store would read only the
  // windows at whole hours though the rate runs every 5 minutes.
  ['max_over_time(rate(req_total[1m])[1h:5m])', 60, 360, 60],
  ['avg_over_time(max_over_time(temp[2m])[40m:])', 45, 345, 45],
  [`sum by (job) (rate(req_total[90s] @ ${BASE / 1000 + 3000}))`, 0, 360, 20],
  ['min_over_time(sum_over_time(temp[1m])[1h:7m] offset 13m)', 90, 330, 90],
  ['temp', 0, 360, 11],
  ['last_over_time(temp[2m])', 3, 357, 17],
];
const INSTANT_QUERIES: [query: string, atMin: number][] = [
  ['max_over_time(rate(req_total[1m])[1h:10m])', 300],
  ['quantile_over_time(0.5, temp[30m:3m])', 250],
  ['changes(temp[20m])', 199],
];

describe('PromQL over ClickHouse: pushdown on, off and in memory answer alike', () => {
  const engine = createEngine();
  const queriers = (): [string, Querier][] => [
    ['pushdown', createMetricsQuerier(client, database).querier],
    ['no pushdown', createMetricsQuerier(client, database, { stepWindowPushdown: false }).querier],
    ['memory', new MemoryQuerier(data)],
  ];

  it.each(RANGE_QUERIES)('range %s', async (query, startMin, endMin, stepMin) => {
    const answers = await Promise.all(queriers().map(async ([name, q]) => [name, plain((await engine.rangeQuery(q, query, BASE + startMin * MIN, BASE + endMin * MIN, stepMin * MIN)).value)] as const));
    const [, memory] = answers[2];
    expect((memory as { series: unknown[] }).series.length).toBeGreaterThan(0);
    for (const [name, answer] of answers) expect({ name, answer }).toEqual({ name, answer: memory });
  });

  it.each(INSTANT_QUERIES)('instant %s', async (query, atMin) => {
    const answers = await Promise.all(queriers().map(async ([name, q]) => [name, plain((await engine.instantQuery(q, query, BASE + atMin * MIN)).value)] as const));
    const [, memory] = answers[2];
    for (const [name, answer] of answers) expect({ name, answer }).toEqual({ name, answer: memory });
  });

  it('the pushdown reads fewer samples where the step is longer than the range', async () => {
    const count = async (q: Querier) => {
      let samples = 0;
      const counting: Querier = { select: async (m, h, s) => { const r = await q.select(m, h, s); for (const x of r) samples += x.values.length; return r; } };
      await engine.rangeQuery(counting, 'max_over_time(rate(req_total[1m])[30m:5m])', BASE + 60 * MIN, BASE + 360 * MIN, 60 * MIN);
      return samples;
    };
    const on = await count(createMetricsQuerier(client, database).querier);
    const off = await count(createMetricsQuerier(client, database, { stepWindowPushdown: false }).querier);
    expect(on).toBeLessThan(off * 0.4);
  });
});
