import { threadId } from 'node:worker_threads';
import { afterAll, expect, it } from 'vitest';
import { createQueryPool } from '../../server/products/qryn/query-pool';

// The query pool shared by PromQL and LogQL: a job is evaluated in a worker thread, and a worker whose evaluation
// never yields is terminated once the job's timeout and the grace period are past, its job answered as timed out.

const pool = createQueryPool<{ kind: 'spin' | 'thread'; timeoutMs: number }, { status: number; body: string }>({
  entry: new URL('./fixtures/stuck-query-worker.ts', import.meta.url),
  workers: 1,
  graceMs: 100,
  timedOut: () => ({ status: 504, body: 'timed out' }),
  failed: (message) => ({ status: 500, body: message }),
});
afterAll(() => pool.close());

it('evaluates a job in a worker thread', async () => {
  const answer = await pool.run({ kind: 'thread', timeoutMs: 10_000 });
  expect(answer.status).toBe(200);
  expect(Number(answer.body)).not.toBe(threadId);
  expect(pool.threadIds()).toEqual([Number(answer.body)]);
});

it('terminates a worker whose evaluation never yields and answers its job as timed out', async () => {
  const [before] = pool.threadIds();
  expect(await pool.run({ kind: 'spin', timeoutMs: 200 })).toEqual({ status: 504, body: 'timed out' });
  // The stuck worker is gone; the next job gets a new one.
  await expect.poll(() => pool.size()).toBe(0);
  const answer = await pool.run({ kind: 'thread', timeoutMs: 10_000 });
  expect(answer.status).toBe(200);
  expect(Number(answer.body)).not.toBe(before);
});
