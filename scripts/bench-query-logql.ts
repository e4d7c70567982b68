import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runQuery } from '../packages/logql/engine/evaluate';
import { JSON_FLAT_COLUMN } from '../server/products/qryn/storage/flat-json';
import { fingerprintOf } from '../server/products/qryn/ingest/batch';
import { createLogqlPool } from '../server/products/qryn/query/logql-pool';
import { lokiQueryLimits } from '../server/products/qryn/read/loki-api';
import { createLogsQuerier } from '../server/products/qryn/query/logs-querier';
import { createInstanceSchema } from '../server/products/qryn/storage/schema';
import { storageClient } from '../server/products/qryn/storage/storage-client';
import { startStorageServer } from '../server/products/qryn/storage/storage-server';
import { bodyText } from '../server/products/qryn/http/answer-json';

// `npm run bench:query` (LogQL part): 1,000,000 stored lines of JSON in 10 streams over an hour, in a ClickHouse
// 18.16 server of its own; the LogQL engine (the code behind qryn's query_range, with the same ClickHouse store)
// answers two queries, in this thread ("engine") and as the gateway runs it, in a LogQL query worker that reads
// ClickHouse itself and sends back the answer's JSON ("query worker"); a direct ClickHouse scan of the same rows is
// timed next to each in the same run:
//   sum by (level) (count_over_time({app="x"} | json [1m]))   vs  SELECT level, minute, count() … GROUP BY
//   {app="x"} |= "needle"                                    vs  SELECT … WHERE position(line, 'needle') > 0
// The stored lines get log_samples' flat-JSON flag as they are written (the load time includes it).
// BENCH_SMOKE=1 runs the same with 20,000 lines (a test runs it so that the script cannot rot).

const SMOKE = process.env.BENCH_SMOKE === '1';
const LINES = SMOKE ? 20_000 : 1_000_000;
const RUNS = SMOKE ? 1 : 3;
const STREAMS = 10;
const S = 1_000_000_000n;

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-logql-'));
  const server = await startStorageServer({ dir });
  const pool = createLogqlPool(1);
  try {
    const client = storageClient(server);
    const db = 'qryn_bench';
    await createInstanceSchema(client, db);
    const endNs = (BigInt(Date.now()) * 1_000_000n / (60n * S)) * 60n * S;
    const startNs = endNs - 3600n * S;
    const fps: string[] = [];
    for (let i = 0; i < STREAMS; i++) {
      const labels = { app: 'x', pod: `pod-${i}` };
      const fp = fingerprintOf('logs', JSON.stringify(labels));
      fps.push(fp);
      const day = new Date(Number(startNs / 1_000_000n)).toISOString().slice(0, 10);
      const day2 = new Date(Number(endNs / 1_000_000n)).toISOString().slice(0, 10);
      for (const d of new Set([day, day2])) {
        await client.insert(`${db}.time_series`, ['date', 'type', 'fingerprint', 'labels'], [[d, 'logs', fp, JSON.stringify(labels)]]);
        await client.insert(`${db}.series_labels`, ['date', 'type', 'key', 'val', 'fingerprint'], [[d, 'logs', 'app', 'x', fp], [d, 'logs', 'pod', `pod-${i}`, fp]]);
      }
    }
    // The lines are generated inside ClickHouse (fast and the same each run): one in 9,973 carries the needle.
    const spacing = (3600n * S) / BigInt(LINES);
    const loadStarted = performance.now();
    await client.command(
      `INSERT INTO ${db}.log_samples SELECT toDate(intDiv(ts, 1000000000)) AS date, fp, ts, line FROM (
         SELECT [${fps.join(',')}][number % ${STREAMS} + 1] AS fp, ${startNs} + number * ${spacing} + 7 AS ts,
           concat('{"level":"', ['info','info','warn','error','debug'][number % 5 + 1], '","msg":"request ', toString(number),
             if(number % 9973 = 0, ' needle', ''), '","latency_ms":', toString(number % 977), ',"path":"/api/', toString(number % 13), '"}') AS line
         FROM numbers(${LINES}))`,
    );
    await client.command(`OPTIMIZE TABLE ${db}.log_samples FINAL`);
    // BENCH_JSON_FLAG=0: without log_samples' stored flat-JSON flag (a database made before it), so that the json
    // query runs the same test per row in its query, as it did before the flag.
    if (process.env.BENCH_JSON_FLAG === '0') await client.command(`ALTER TABLE ${db}.log_samples DROP COLUMN ${JSON_FLAT_COLUMN}`);
    console.log(`loaded ${LINES.toLocaleString('en-US')} lines in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

    const querier = createLogsQuerier(client, db);
    const limits = lokiQueryLimits({});
    const endpoint = { url: server.url, user: server.user, password: server.password };
    const inWorker = (request: Parameters<typeof runQuery>[1]) => async () => {
      const answer = await pool.run({ endpoint, database: db, request, limits, timeoutMs: limits.timeoutMs });
      if (!('status' in answer) || answer.status !== 200) throw new Error(`the query worker answered ${JSON.stringify(answer).slice(0, 300)}`);
      return JSON.parse(bodyText(answer.body)) as unknown;
    };
    const time = async (f: () => Promise<unknown>) => {
      let best = Infinity;
      let result: unknown;
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        result = await f();
        best = Math.min(best, performance.now() - t);
      }
      return { ms: best, result };
    };
    const window = `timestamp_ns >= ${startNs} AND timestamp_ns <= ${endNs}`;
    const cases = [
      {
        name: 'sum by (level) (count_over_time({app="x"} | json [1m]))',
        request: { query: 'sum by (level) (count_over_time({app="x"} | json [1m]))', startNs: startNs + 60n * S, endNs, stepNs: 60n * S, instant: false, limit: 100, direction: 'backward' } as const,
        scan: () =>
          client.query(
            `SELECT visitParamExtractString(line, 'level') AS level, intDiv(timestamp_ns - 1, 60000000000) AS minute, count() AS n FROM ${db}.log_samples WHERE ${window} GROUP BY level, minute`,
          ),
      },
      {
        name: '{app="x"} |= "needle"',
        request: { query: '{app="x"} |= "needle"', startNs, endNs, stepNs: 0n, instant: false, limit: 1000, direction: 'backward' } as const,
        scan: () => client.query(`SELECT fingerprint, timestamp_ns, line FROM ${db}.log_samples WHERE ${window} AND position(line, 'needle') > 0 ORDER BY timestamp_ns DESC LIMIT 1000`),
      },
    ];
    // The gateway's workers stay up between queries: start this one (tsx and the engine's modules) before timing.
    await inWorker(cases[1].request)();
    for (const c of cases) {
      const scan = await time(c.scan);
      const engine = await time(() => runQuery(querier, c.request));
      const worker = await time(inWorker(c.request));
      const data = (engine.result as { data: { result: unknown[] } }).data;
      const workerData = (worker.result as { data: { result: unknown[] } }).data;
      console.log(
        `${c.name}\n  engine ${engine.ms.toFixed(0)} ms (${data.result.length} results), ClickHouse scan ${scan.ms.toFixed(0)} ms, ratio ${(engine.ms / scan.ms).toFixed(2)}×\n` +
          `  query worker ${worker.ms.toFixed(0)} ms (${workerData.result.length} results), ratio ${(worker.ms / scan.ms).toFixed(2)}×`,
      );
    }
  } finally {
    await pool.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
