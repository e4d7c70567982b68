// The PromQL engine alone (no store): 10,000 series × 1 hour at 15 s held in memory, range queries over the hour
// at a 15 s step. Prints the time of each query (median of 5 runs after a warm-up).
// BENCH_SMOKE=1: 500 series, one run (tests/bench/bench-smoke.test.ts keeps the script working).

import { createEngine } from '../packages/promql/engine/engine';
import type { Querier, Series } from '../packages/promql/storage/querier';
import { matcherTest } from '../packages/promql/storage/memory-querier';

const SMOKE = process.env.BENCH_SMOKE === '1';
const SERIES = SMOKE ? 500 : 10_000;
const RUNS = SMOKE ? 1 : 5;
const STEP = 15_000;
const HOUR = 3_600_000;
const start = 1_700_000_000_000;
const points = HOUR / STEP + 1 + 300_000 / STEP;

function makeSeries(): Series[] {
  const out: Series[] = [];
  const les = ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '+Inf'];
  for (let i = 0; i < SERIES; i++) {
    const t = new Float64Array(points);
    const v = new Float64Array(points);
    let value = 0;
    for (let k = 0; k < points; k++) {
      t[k] = start - 300_000 + k * STEP + (i % 7) * 100;
      value += (i % 13) + ((k * 7919 + i) % 5);
      v[k] = value;
    }
    out.push({ labels: { __name__: 'http_requests_total', job: `job${i % 10}`, instance: `host${i}` }, timestampsMs: t, values: v });
  }
  for (let h = 0; h < SERIES / les.length; h++) {
    for (let b = 0; b < les.length; b++) {
      const t = new Float64Array(points);
      const v = new Float64Array(points);
      for (let k = 0; k < points; k++) {
        t[k] = start - 300_000 + k * STEP;
        v[k] = k * (b + 1) * (1 + (h % 3));
      }
      out.push({ labels: { __name__: 'http_duration_seconds_bucket', le: les[b], instance: `host${h}` }, timestampsMs: t, values: v });
    }
  }
  return out;
}

const all = makeSeries();
const querier: Querier = {
  async select(matchers) {
    const tests = matchers.map(matcherTest);
    return all.filter((s) => tests.every((test) => test(s.labels)));
  },
};

const engine = createEngine();
const only = process.env.BENCH_ONLY;
const queries = [
  'sum(rate(http_requests_total[5m]))',
  'histogram_quantile(0.99, sum by (le) (rate(http_duration_seconds_bucket[5m])))',
  'topk(5, rate(http_requests_total[5m]))',
  'sum by (job) (rate(http_requests_total[5m]))',
];
for (const q of queries.filter((x) => !only || x.includes(only))) {
  await engine.rangeQuery(querier, q, start, start + HOUR, STEP);
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    await engine.rangeQuery(querier, q, start, start + HOUR, STEP);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`${times[Math.floor(times.length / 2)].toFixed(0).padStart(6)} ms  ${q}  (${SERIES.toLocaleString('en-US')} series × 1 h, step 15 s)`);
}
