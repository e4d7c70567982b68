import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_LIMITS, runQuery } from '../packages/logql/engine/evaluate';
import { createLogsQuerier } from '../server/products/qryn/query/logs-querier';
import { storageClient, type StorageClient } from '../server/products/qryn/storage/storage-client';
import { startStorageServer } from '../server/products/qryn/storage/storage-server';
import { loadBigLogs } from '../tests/support/big-read-data';

// `npx tsx scripts/bench-read-bounds.ts`: qryn's reads bounded while they read, on a ClickHouse 18.16 server of its
// own with 400,000 JSON lines of one stream over an hour:
// - `{app="big"} | json` with limit 10 (backward, Grafana's default): the stage runs in the process, so the store's
//   LIMIT cannot be used; the answer time and the lines read, next to the same query over a store that answers the
//   whole range (what every such query did before);
// - an aborted read: the time from the abort until the query is gone from ClickHouse's system.processes;
// - a large answer: a platform (started here, with its own ClickHouse) answers a LogQL metric range query of 500
//   series × 1,801 steps through its gateway and query workers, read by a client that keeps no more than a chunk;
//   the process' RSS (gateway and worker threads) is sampled every 20 ms from just before each call to its end
//   (BENCH_ANSWER_RUNS calls, default 5, after one that warms up), and its highest value over the RSS before the first.
// Prints the median and the slowest of RUNS runs. BENCH_PART=answer runs the large answer only.

const LINES = 400_000;
const RUNS = 5;
const START_NS = BigInt(Date.UTC(2026, 10, 20, 0, 0, 0)) * 1_000_000n;
const GAP_NS = 9_000_000n;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
const MB = 1024 * 1024;

async function untilMs(check: () => Promise<boolean>, boundMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < boundMs) {
    if (await check()) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`not within ${boundMs} ms`);
}

async function inProcesses(client: StorageClient, queryId: string): Promise<boolean> {
  const [row] = await client.query<{ n: string }>(`SELECT toString(count()) AS n FROM system.processes WHERE query_id = '${queryId}'`);
  return Number(row.n) > 0;
}

/** The RSS growth (peak during the call over the RSS just before it) of `ANSWER_RUNS` calls of a large answer. */
async function largeAnswerRss(): Promise<void> {
  const ANSWER_RUNS = Number(process.env.BENCH_ANSWER_RUNS ?? 5);
  const FLOOD_LINES = 100_000;
  // Each run evaluates the whole range: the results cache would answer the second run from the first.
  process.env.QRYN_RESULTS_CACHE = 'off';
  const { loadConfig } = await import('../server/config');
  const { startPlatform } = await import('../server/platform');
  const { enableTwoTenants, pushFloodLines } = await import('../tests/support/tenant-reads');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-read-answer-'));
  const platform = await startPlatform(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'test', DEV_PAGES: 'false' }), { quiet: true, seed: true });
  try {
    const { a } = await enableTwoTenants(platform);
    await pushFloodLines(a, FLOOD_LINES, 55 * 60_000);
    const endMs = Date.now();
    // 500 paths (the series limit) × one point every 2 s over the hour: about 900,000 points.
    const params = new URLSearchParams({ query: 'sum by (path) (count_over_time({app="flood"} | json [5m]))', start: `${endMs - 3_600_000}000000`, end: `${endMs}000000`, step: '2' });
    const url = `${a.url}/loki/api/v1/query_range?${params}`;
    const call = async () => {
      const response = await fetch(url, { headers: { authorization: a.basic } });
      let bytes = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
      return { status: response.status, bytes };
    };
    // Until every line is readable (the inserts are asynchronous), and the workers are warm.
    for (let tries = 0; ; tries++) {
      const countUrl = `${a.url}/loki/api/v1/query?${new URLSearchParams({ query: 'sum(count_over_time({app="flood"}[1h]))' })}`;
      const body = (await (await fetch(countUrl, { headers: { authorization: a.basic } })).json()) as { data: { result: { value: [number, string] }[] } };
      if (Number(body.data.result[0]?.value[1] ?? 0) >= FLOOD_LINES) break;
      if (tries > 60) throw new Error('the lines did not become readable');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const baseline = process.memoryUsage().rss;
    let highest = baseline;
    await call();
    const growth: number[] = [];
    let answered = { status: 0, bytes: 0 };
    for (let i = 0; i < ANSWER_RUNS; i++) {
      global.gc?.();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      answered = await call();
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      highest = Math.max(highest, peak);
      growth.push((peak - before) / MB);
    }
    const answer = `${answered.status}, ${(answered.bytes / MB).toFixed(1)} MB`;
    console.log(`large LogQL answer (${answer}), RSS growth during a call: ${median(growth).toFixed(0)} MB median, ${Math.max(...growth).toFixed(0)} MB largest of ${ANSWER_RUNS}; highest RSS over the RSS before the first call: ${((highest - baseline) / MB).toFixed(0)} MB; load ${loadavg()[0].toFixed(1)}`);
  } finally {
    await platform.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (process.env.BENCH_PART === 'answer') return;
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-read-bounds-'));
  const server = await startStorageServer({ dir });
  try {
    const client = storageClient(server);
    await loadBigLogs(client, 'qryn_big', START_NS, LINES, GAP_NS);
    const querier = createLogsQuerier(client, 'qryn_big');
    const request = { query: '{app="big"} | json', startNs: START_NS, endNs: START_NS + BigInt(LINES) * GAP_NS, stepNs: 0n, instant: false, limit: 10, direction: 'backward' as const };
    const limits = { ...DEFAULT_LIMITS, maxLinesRead: 1_000_000 };
    const time = async (q: Parameters<typeof runQuery>[0]) => {
      const started = performance.now();
      const { stats } = await runQuery(q, request, limits);
      return { ms: performance.now() - started, lines: stats.linesRead };
    };
    await time(querier);
    const bounded: number[] = [];
    const whole: number[] = [];
    let boundedLines = 0;
    let wholeLines = 0;
    for (let i = 0; i < RUNS; i++) {
      const a = await time(querier);
      bounded.push(a.ms);
      boundedLines = a.lines;
      const b = await time({ selectLogs: querier.selectLogs });
      whole.push(b.ms);
      wholeLines = b.lines;
    }
    console.log(`{app="big"} | json, limit 10, over ${LINES.toLocaleString('en-US')} lines: ${fmt(median(bounded))} (slowest ${fmt(Math.max(...bounded))}), ${boundedLines} lines read`);
    console.log(`  the same over the whole range:   ${fmt(median(whole))} (slowest ${fmt(Math.max(...whole))}), ${wholeLines} lines read`);

    const gone: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const controller = new AbortController();
      const queryId = `bench-abort-${i}-${Date.now()}`;
      const read = (async () => {
        for await (const rows of client.streamRows('SELECT sum(cityHash64(toString(number))) AS s FROM system.numbers', { signal: controller.signal, queryId })) void rows;
      })().catch(() => undefined);
      await untilMs(() => inProcesses(client, queryId), 20_000);
      controller.abort();
      gone.push(await untilMs(async () => !(await inProcesses(client, queryId)), 30_000));
      await read;
    }
    console.log(`aborted read gone from system.processes: ${fmt(median(gone))} (slowest ${fmt(Math.max(...gone))})`);
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
await largeAnswerRss();
process.exit(0);
