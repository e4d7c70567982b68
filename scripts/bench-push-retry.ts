import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Batch } from '../server/products/qryn/ingest/batch';
import { pushIdentity } from '../server/products/qryn/ingest/push-retries';
import { createWriter, logSamplesRowBinary, metricSamplesRowBinary } from '../server/products/qryn/ingest/writer';
import { createInstanceSchema } from '../server/products/qryn/storage/schema';
import { storageClient, StorageError, type StorageClient } from '../server/products/qryn/storage/storage-client';
import { startStorageServer } from '../server/products/qryn/storage/storage-server';

// `npx tsx scripts/bench-push-retry.ts`: what the recognition of retried pushes costs (docs/qryn.md, "Retried pushes
// are stored once"), on the embedded ClickHouse, for pushes of BENCH_LINES log lines over 10 streams:
// - a push while the instance has no failed push remembered (no identity computed: the cost before this feature);
// - a push while the instance has one remembered (its identity is computed: a hash of its rows), and that hash alone;
// - the retry of a failed push whose rows were all stored (the answer to its insert was lost): the check of the
//   running queries, the count of its stored rows, nothing written.
// Prints the median and the slowest of BENCH_RUNS writes of each.

const LINES = Number(process.env.BENCH_LINES ?? 1_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

let sequence = 0;
function push(): Batch {
  const batch = new Batch();
  const at = BigInt(Date.now()) * 1_000_000n + BigInt(sequence++ * LINES);
  const streams = Array.from({ length: 10 }, (_, i) => batch.addSeries('logs', { job: 'bench', n: String(i) }));
  for (let i = 0; i < LINES; i++) batch.addLog(streams[i % 10], at + BigInt(i), `level=info msg="request served" path=/api/items/${i} status=200 duration_ms=${i % 97}`);
  return batch;
}

/** A client whose sample inserts are stored and then answered with an error, as when the answer is lost. */
function losingAnswers(client: StorageClient): StorageClient {
  return {
    ...client,
    async insertRowBinary(table, columns, body, options) {
      await client.insertRowBinary(table, columns, body, options);
      throw new StorageError('The storage server did not answer within 10 s.', 503, undefined);
    },
  };
}

async function timed(runs: number, write: () => Promise<void>): Promise<string> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await write();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return `median ${times[Math.floor(times.length / 2)].toFixed(1)} ms, slowest ${times[times.length - 1].toFixed(1)} ms (${runs} runs)`;
}

const dir = await mkdtemp(path.join(tmpdir(), 'bench-push-retry-'));
const server = await startStorageServer({ dir });
try {
  const client = storageClient(server);
  const database = 'bench_retry';
  await createInstanceSchema(client, database);
  const writer = createWriter(() => Date.now(), { retryWindowMs: 600_000 });
  const target = { id: 'bench', database, client, fingerprintLimit: 0 };
  await writer.write(target, push());
  console.log(`pushes of ${LINES} lines over 10 streams`);
  const sample = push();
  console.log(`identity of one push alone: ${await timed(RUNS, async () => void pushIdentity('bench', logSamplesRowBinary(sample.logs), metricSamplesRowBinary(sample.metrics), sample))}`);
  console.log(`push, no failed push remembered: ${await timed(RUNS, () => writer.write(target, push()))}`);
  // One failed push stays remembered: from now on every push of the instance computes its identity.
  await writer.write({ ...target, client: losingAnswers(client) }, push()).catch(() => undefined);
  console.log(`push, a failed push remembered: ${await timed(RUNS, () => writer.write(target, push()))}`);
  const failed: Batch[] = [];
  for (let i = 0; i < RUNS; i++) {
    const batch = push();
    await writer.write({ ...target, client: losingAnswers(client) }, batch).catch(() => undefined);
    failed.push(batch);
  }
  let next = 0;
  console.log(`retry of a failed push whose rows are all stored: ${await timed(RUNS, () => writer.write(target, failed[next++]))}`);
  const rows = (await client.query<{ n: string }>(`SELECT count() AS n FROM ${database}.log_samples`))[0].n;
  console.log(`lines stored ${rows}, expected ${(1 + 2 * RUNS + 1 + RUNS) * LINES}`);
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
