import { threadId } from 'node:worker_threads';
import { afterAll, expect, it } from 'vitest';
import { createQueryPool } from '../../server/products/qryn/query/query-pool';

// The query pool shared by PromQL and LogQL: a job is evaluated in a worker thread, and a worker whose evaluation
// never yields is terminated once the job's timeout and the grace period are past, its job answered as timed out
// and the other jobs it held sent again to a fresh worker, where they succeed. Low-priority jobs run in workers of
// their own whose threads have a lower scheduling priority.

type Job = { kind: 'spin' | 'thread' | 'wait' | 'nice'; timeoutMs: number; waitMs?: number };

const options = {
  entry: new URL('./fixtures/stuck-query-worker.ts', import.meta.url),
  workers: 1,
  graceMs: 100,
  timedOut: () => ({ status: 504, body: 'timed out' }),
  failed: (message: string) => ({ status: 500, body: message }),
};
const pool = createQueryPool<Job, { status: number; body: string }>(options);
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

it("sends the other jobs of a worker terminated for one job to a fresh worker, where they succeed", async () => {
  // Both jobs on the one worker: the first waits on a timer, the second never yields, so the first cannot answer there.
  const waiting = pool.run({ kind: 'wait', waitMs: 300, timeoutMs: 30_000 });
  await expect.poll(() => pool.size()).toBe(1);
  const [first] = pool.threadIds();
  const stuck = pool.run({ kind: 'spin', timeoutMs: 200 });
  expect(await stuck).toEqual({ status: 504, body: 'timed out' });
  const answer = await waiting;
  expect(answer.status).toBe(200);
  expect(Number(answer.body)).not.toBe(first);
  expect(Number(answer.body)).not.toBe(threadId);
});

it('sends a job again with what is left of its deadline', async () => {
  const sent: number[] = [];
  const retimed = createQueryPool<Job, { status: number; body: string }>({
    ...options,
    retime: (job, timeoutMs) => {
      sent.push(timeoutMs);
      return { ...job, timeoutMs };
    },
  });
  try {
    const waiting = retimed.run({ kind: 'wait', waitMs: 300, timeoutMs: 30_000 });
    expect(await retimed.run({ kind: 'spin', timeoutMs: 200 })).toEqual({ status: 504, body: 'timed out' });
    expect((await waiting).status).toBe(200);
    // wait, spin, then wait again with less than it started with.
    expect(sent).toHaveLength(3);
    expect(sent[2]).toBeLessThan(sent[0]);
    expect(sent[2]).toBeGreaterThan(0);
  } finally {
    await retimed.close();
  }
});

it('runs low-priority jobs in workers of their own, at a lower scheduling priority', async () => {
  const low = await pool.run({ kind: 'nice', timeoutMs: 30_000 }, undefined, 'low');
  const normal = await pool.run({ kind: 'nice', timeoutMs: 30_000 });
  expect(Number(low.body)).toBe(10);
  expect(Number(normal.body)).toBe(0);
  // One worker of each (the pool's `workers` per priority).
  expect(pool.size()).toBe(2);
});
