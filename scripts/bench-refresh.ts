import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_LIMITS } from '../packages/logql/engine/evaluate';
import type { ReadRequest } from '../server/products/qryn/http/gateway-http';
import { Batch } from '../server/products/qryn/ingest/batch';
import { createWriter } from '../server/products/qryn/ingest/writer';
import { evaluateLogql } from '../server/products/qryn/query/logql-evaluate';
import type { LogqlJob } from '../server/products/qryn/query/logql-pool';
import { evaluatePromql } from '../server/products/qryn/query/promql-evaluate';
import type { PromqlQuery } from '../server/products/qryn/query/promql-pool';
import { promqlSettings } from '../server/products/qryn/query/promql-settings';
import { logqlThroughCache, promqlThroughCache, resultsCache } from '../server/products/qryn/query/range-cache-calls';
import { createInstanceSchema } from '../server/products/qryn/storage/schema';
import { storageClient } from '../server/products/qryn/storage/storage-client';
import { startStorageServer } from '../server/products/qryn/storage/storage-server';
import { bodyText } from '../server/products/qryn/http/answer-json';

// A dashboard panel's refresh against its first run: a 6-hour range query at a 30 s step (PromQL and a LogQL metric
// query) evaluated once with an empty results cache, then refreshed with the window shifted by 30 s (new samples and
// lines written in between), as Grafana does every 30 s. Prints the median of each and their ratio.
// `npm run bench:refresh` (a ClickHouse server of its own in a temp folder; BENCH_RUNS sets the runs, default 5).

const MIN = 60_000;
const STEP = 30_000;
const HOURS6 = 6 * 60 * MIN;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const database = 'qryn_bench_refresh';

const dir = await mkdtemp(path.join(tmpdir(), 'bench-refresh-'));
const server = await startStorageServer({ dir });
const endpoint = { url: server.url, user: server.user, password: server.password };
const client = storageClient(endpoint);
try {
  await createInstanceSchema(client, database);
  const nowStart = Math.floor(Date.now() / STEP) * STEP - 60 * MIN;
  const write = async (fromMs: number, toMs: number) => {
    const batch = new Batch();
    const series = Array.from({ length: 200 }, (_, i) => batch.addSeries('metrics', { __name__: 'req_total', job: `job${i % 10}`, instance: `i${i}` }));
    const streams = Array.from({ length: 10 }, (_, i) => batch.addSeries('logs', { app: `app${i}` }));
    for (let t = fromMs; t < toMs; t += 2_000) {
      if (t % 15_000 < 2_000) series.forEach((fp, i) => batch.addMetric(fp, BigInt(t + i) * 1_000_000n, Math.floor((t - nowStart + 1e9) / 1000) % (5000 + i)));
      streams.forEach((fp, i) => batch.addLog(fp, BigInt(t + i) * 1_000_000n, `{"level":"${['info', 'warn', 'error'][(t / 2000 + i) % 3]}","msg":"request ${t % 977}","took":${t % 113}}`));
    }
    await createWriter(() => Date.now()).write({ id: 'bench', database, client, fingerprintLimit: 0 }, batch);
  };
  const loaded = performance.now();
  for (let t = nowStart - HOURS6 - 10 * MIN; t < nowStart; t += 30 * MIN) await write(t, Math.min(t + 30 * MIN, nowStart));
  console.log(`loaded 6 h 10 min (200 series at 15 s, 10 streams at 2 s) in ${((performance.now() - loaded) / 1000).toFixed(1)} s`);

  const settings = promqlSettings({});
  const request = (nowMs: number) => ({ access: { instance: { database_name: database } }, nowNs: BigInt(nowMs) * 1_000_000n }) as unknown as ReadRequest;
  const promql = (query: string) => async (nowMs: number) => {
    const range: PromqlQuery = { kind: 'range', query, startMs: nowMs - HOURS6, endMs: nowMs, stepMs: STEP };
    const answer = await promqlThroughCache(request(nowMs), range, (q) => evaluatePromql({ endpoint, database, query: q, timeoutMs: 120_000 }, settings));
    if (answer.status !== 200) throw new Error(bodyText(answer.body));
  };
  const logql = (query: string) => async (nowMs: number) => {
    const ns = (ms: number) => BigInt(ms) * 1_000_000n;
    const job: LogqlJob = {
      endpoint, database, limits: DEFAULT_LIMITS, timeoutMs: 120_000,
      request: { query, startNs: ns(nowMs - HOURS6), endNs: ns(nowMs), stepNs: ns(STEP), instant: false, limit: 100, direction: 'backward' },
    };
    const answer = await logqlThroughCache(request(nowMs), job, (j) => evaluateLogql(j, undefined, client));
    if (!('body' in answer) || answer.status !== 200) throw new Error(JSON.stringify(answer));
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const time = async (f: () => Promise<void>) => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };

  const rows: string[] = [];
  for (const [name, run] of [
    ['PromQL sum by (job) (rate(req_total[5m]))', promql('sum by (job) (rate(req_total[5m]))')],
    ['LogQL sum by (level) (count_over_time({app=~"app.*"} | json [1m]))', logql('sum by (level) (count_over_time({app=~"app.*"} | json [1m]))')],
  ] as const) {
    let now = nowStart;
    await run(now); // ClickHouse's own caches warm, as on a dashboard that is already open
    const first: number[] = [];
    const refresh: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      resultsCache().clear();
      first.push(await time(() => run(now)));
      await write(now, now + STEP);
      now += STEP;
      refresh.push(await time(() => run(now)));
    }
    const f = median(first);
    const r = median(refresh);
    rows.push(`| ${name} | ${f.toFixed(0)} ms | ${r.toFixed(0)} ms | ${(r / f).toFixed(2)}× |`);
  }
  console.log(`\n6 h at 30 s steps, window shifted by 30 s, median of ${RUNS}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log('| query | first run | refresh | refresh / first |\n| --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
