import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Batch } from '../server/products/qryn/ingest/batch';
import { createWriter } from '../server/products/qryn/ingest/writer';
import { createPromqlPool } from '../server/products/qryn/query/promql-pool';
import { promqlSettings } from '../server/products/qryn/query/promql-settings';
import { createInstanceSchema } from '../server/products/qryn/storage/schema';
import { storageClient } from '../server/products/qryn/storage/storage-client';
import { startStorageServer } from '../server/products/qryn/storage/storage-server';
import { bodyText } from '../server/products/qryn/http/answer-json';

// `npm run bench:query` (first half): PromQL over a stored set of SERIES series × 1 hour at 15 s (counters, and a
// histogram with 10 `le` buckets per instance), generated here into a fresh ClickHouse 18.16 server. Each query runs
// as the gateway runs it — the query worker pool, the engine, the metrics querier reading ClickHouse (RowBinary), and
// the answer serialised as the Prometheus API's JSON — next to a direct ClickHouse scan of the same rows (the
// selected series over the query's window, read into Node as RowBinary) in the same run. Prints the median of RUNS
// runs of each and the ratio. BENCH_SMOKE=1: a few hundred series, one run (the test in tests/qryn keeps it working).

const SMOKE = process.env.BENCH_SMOKE === '1';
const SERIES = Number(process.env.BENCH_SERIES ?? (SMOKE ? 200 : 10_000));
const RUNS = Number(process.env.BENCH_RUNS ?? (SMOKE ? 1 : 5));
const STEP_S = Number(process.env.BENCH_STEP ?? 60);
const SCRAPE_MS = 15_000;
const HOUR_MS = 3_600_000;
const LES = ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '+Inf'];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-query-'));
  const server = await startStorageServer({ dir });
  const pool = createPromqlPool({ ...promqlSettings(), workers: 1 });
  try {
    const client = storageClient({ url: server.url, user: server.user, password: server.password });
    const database = 'qryn_bench';
    const db = database;
    await createInstanceSchema(client, database);
    const writer = createWriter(() => Date.now());
    const target = { id: 'bench', database, client, fingerprintLimit: 0 };
    const endMs = Math.floor(Date.now() / 60_000) * 60_000;
    const startMs = endMs - HOUR_MS;
    const points = HOUR_MS / SCRAPE_MS;

    // The histogram takes a tenth of the series (10 buckets per instance), the counters the rest.
    const histogramInstances = Math.max(1, Math.floor(SERIES / 100));
    const counters = SERIES - histogramInstances * LES.length;
    const generated = Date.now();
    let batch = new Batch();
    const flush = async () => {
      await writer.write(target, batch);
      batch = new Batch();
    };
    for (let i = 0; i < counters; i++) {
      const fp = batch.addSeries('metrics', { __name__: 'bench_requests_total', instance: `i-${i % 500}`, path: `/p/${Math.floor(i / 500)}`, job: 'bench' });
      let v = 0;
      for (let k = 0; k < points; k++) batch.addMetric(fp, BigInt(startMs + k * SCRAPE_MS + 1_000 + (i % 100)) * 1_000_000n, (v += (k * 7 + i) % 13));
      if (batch.metrics.length >= 200_000) await flush();
    }
    for (let h = 0; h < histogramInstances; h++) {
      const counts = LES.map(() => 0);
      const fps = LES.map((le) => batch.addSeries('metrics', { __name__: 'bench_duration_seconds_bucket', instance: `h-${h}`, job: 'bench', le }));
      for (let k = 0; k < points; k++) {
        for (let o = 0; o < 5; o++) {
          const x = (((k * 31 + h * 17 + o * 7) % 1000) / 1000) ** 3 * 3;
          LES.forEach((le, b) => {
            if (le === '+Inf' || x <= Number(le)) counts[b]++;
          });
        }
        fps.forEach((fp, b) => batch.addMetric(fp, BigInt(startMs + k * SCRAPE_MS + 2_000 + h) * 1_000_000n, counts[b]));
      }
      if (batch.metrics.length >= 200_000) await flush();
    }
    await flush();
    await client.command(`OPTIMIZE TABLE ${db}.metric_samples FINAL`);
    const rows = (await client.query<{ n: string }>(`SELECT toString(count()) AS n FROM ${db}.metric_samples`))[0].n;
    console.log(`PromQL over ${SERIES.toLocaleString('en-US')} series × 1 h at 15 s (${Number(rows).toLocaleString('en-US')} samples, written in ${((Date.now() - generated) / 1000).toFixed(1)} s); range queries over the hour at step ${STEP_S} s, median of ${RUNS}`);

    const window = `date BETWEEN toDate('${new Date(startMs - 300_000).toISOString().slice(0, 10)}') AND toDate('${new Date(endMs).toISOString().slice(0, 10)}') AND timestamp_ns BETWEEN ${BigInt(startMs - 300_000) * 1_000_000n} AND ${BigInt(endMs) * 1_000_000n}`;
    const scanOf = (name: string, regex = false) =>
      `SELECT fingerprint, timestamp_ns, value FROM ${db}.metric_samples WHERE ${window} AND fingerprint IN (SELECT fingerprint FROM ${db}.series_labels WHERE type = 'metrics' AND key = '__name__' AND ${regex ? `match(val, '${name}')` : `val = '${name}'`})`;
    const queries = [
      { query: 'sum(rate(bench_requests_total[5m]))', scan: scanOf('bench_requests_total') },
      { query: 'histogram_quantile(0.99, sum by (le) (rate(bench_duration_seconds_bucket[5m])))', scan: scanOf('bench_duration_seconds_bucket') },
      { query: 'topk(10, rate({__name__=~"bench_.+"}[5m]))', scan: scanOf('^bench_.+$', true) },
    ];
    const settings = promqlSettings();
    const table: string[][] = [['query', 'engine ms', 'ClickHouse scan ms', 'ratio', 'series', 'scan rows']];
    let failed = false;
    for (const { query, scan } of queries) {
      const engineTimes: number[] = [];
      const scanTimes: number[] = [];
      let seriesOut = 0;
      let scanRows = 0;
      for (let run = 0; run < RUNS + 1; run++) {
        const t0 = performance.now();
        const answer = await pool.run({ endpoint: { url: server.url, user: server.user, password: server.password }, database, query: { kind: 'range', query, startMs, endMs, stepMs: STEP_S * 1000 }, timeoutMs: settings.timeoutMs });
        const t1 = performance.now();
        const body = JSON.parse(bodyText(answer.body)) as { status: string; error?: string; data?: { result: unknown[] } };
        if (answer.status !== 200 || !body.data || body.data.result.length === 0) {
          console.error(`${query}: ${answer.status} ${body.error ?? 'an empty result'}`);
          failed = true;
          break;
        }
        seriesOut = body.data.result.length;
        const t2 = performance.now();
        const buf = await client.queryRowBinary(scan);
        const t3 = performance.now();
        scanRows = buf.length / 24;
        // The first run warms both up (worker start, engine load, ClickHouse caches) and is not counted.
        if (run > 0) {
          engineTimes.push(t1 - t0);
          scanTimes.push(t3 - t2);
        }
      }
      if (failed) break;
      const e = median(engineTimes);
      const s = median(scanTimes);
      table.push([query, e.toFixed(0), s.toFixed(0), `${(e / s).toFixed(2)}×`, String(seriesOut), scanRows.toLocaleString('en-US')]);
    }
    const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
    for (const row of table) console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
    if (failed) process.exitCode = 1;
  } finally {
    await pool.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
