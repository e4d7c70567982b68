import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInstanceSchema } from '../server/products/qryn/storage/schema';
import { storageClient } from '../server/products/qryn/storage/storage-client';
import { startStorageServer } from '../server/products/qryn/storage/storage-server';
import { measureStoredBytes } from '../server/products/qryn/gateway/stored-bytes';

// `npx tsx scripts/bench-stored-bytes.ts`: what one measure of the stored-bytes quota costs (docs/qryn.md, "Limits"),
// on the embedded ClickHouse with BENCH_INSTANCES instance databases of BENCH_PARTS inserts each (every insert a
// part per table it writes). Prints the median and the slowest of BENCH_RUNS measures of one instance.

const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 50);
const PARTS = Number(process.env.BENCH_PARTS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);

const dir = await mkdtemp(path.join(tmpdir(), 'bench-stored-bytes-'));
const server = await startStorageServer({ dir });
try {
  const client = storageClient(server);
  for (let i = 0; i < INSTANCES; i++) {
    const database = `bench_${i}`;
    await createInstanceSchema(client, database);
    for (let p = 0; p < PARTS; p++) {
      const rows = Array.from({ length: 100 }, (_, r) => ['2026-11-26', r, Date.now() * 1e6 + r, `line ${p} ${r}`] as const);
      await client.insert(`${database}.log_samples`, ['date', 'fingerprint', 'timestamp_ns', 'line'], rows);
    }
  }
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    bytes = await measureStoredBytes(client, `bench_${run % INSTANCES}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const parts = (await client.query<{ n: string }>('SELECT count() AS n FROM system.parts WHERE active'))[0].n;
  console.log(`instances ${INSTANCES}, active parts on the server ${parts}, bytes of one instance ${bytes}`);
  console.log(`measure: median ${times[Math.floor(times.length / 2)].toFixed(1)} ms, slowest ${times[times.length - 1].toFixed(1)} ms (${RUNS} runs)`);
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
