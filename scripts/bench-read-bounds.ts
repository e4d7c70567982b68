import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_LIMITS, runQuery } from '../packages/logql/engine/evaluate';
import { createLogsQuerier } from '../server/products/qryn/logs-querier';
import { storageClient, type StorageClient } from '../server/products/qryn/storage-client';
import { startStorageServer } from '../server/products/qryn/storage-server';
import { loadBigLogs } from '../tests/support/big-read-data';

// `npx tsx scripts/bench-read-bounds.ts`: qryn's reads bounded while they read, on a ClickHouse 18.16 server of its
// own with 400,000 JSON lines of one stream over an hour:
// - `{app="big"} | json` with limit 10 (backward, Grafana's default): the stage runs in the process, so the store's
//   LIMIT cannot be used; the answer time and the lines read, next to the same query over a store that answers the
//   whole range (what every such query did before);
// - an aborted read: the time from the abort until the query is gone from ClickHouse's system.processes.
// Prints the median and the slowest of RUNS runs.

const LINES = 400_000;
const RUNS = 5;
const START_NS = BigInt(Date.UTC(2026, 10, 20, 0, 0, 0)) * 1_000_000n;
const GAP_NS = 9_000_000n;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

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

async function main() {
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
