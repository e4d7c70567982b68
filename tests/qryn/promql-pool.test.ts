import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPromqlPool, type PromqlPool } from '../../server/products/qryn/query/promql-pool';
import { promqlSettings } from '../../server/products/qryn/query/promql-settings';
import { createInstanceSchema } from '../../server/products/qryn/storage/schema';
import { storageClient } from '../../server/products/qryn/storage/storage-client';
import { startStorageServer, type StorageServer } from '../../server/products/qryn/storage/storage-server';
import { bodyText } from '../../server/products/qryn/http/answer-json';

// The query workers: a query is evaluated in a worker thread against the storage it is sent, and a query whose
// client went away is canceled there.

let dir: string;
let server: StorageServer;
let pool: PromqlPool;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'promql-pool-'));
  server = await startStorageServer({ dir });
  await createInstanceSchema(storageClient(server), 'qryn_pool');
  pool = createPromqlPool({ ...promqlSettings({}), workers: 2 });
});

afterAll(async () => {
  await pool?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const endpoint = () => ({ url: server.url, user: server.user, password: server.password });

it('evaluates in a worker and answers the Prometheus JSON', async () => {
  const answer = await pool.run({ endpoint: endpoint(), database: 'qryn_pool', query: { kind: 'instant', query: 'vector(1) + 1', timeMs: 1_700_000_000_000 }, timeoutMs: 10_000 });
  expect(answer.status).toBe(200);
  expect(JSON.parse(bodyText(answer.body))).toEqual({ status: 'success', data: { resultType: 'vector', result: [{ metric: {}, value: [1_700_000_000, '2'] }] } });
  expect(pool.size()).toBeGreaterThan(0);
});

it('cancels a query whose client went away', async () => {
  const gone = new AbortController();
  const running = pool.run({ endpoint: endpoint(), database: 'qryn_pool', query: { kind: 'range', query: 'sum(rate(x[5m]))', startMs: 1_700_000_000_000, endMs: 1_700_003_600_000, stepMs: 15_000 }, timeoutMs: 10_000 }, gone.signal);
  gone.abort();
  const answer = await running;
  expect(JSON.parse(bodyText(answer.body))).toMatchObject({ status: 'error', errorType: 'canceled' });
});
