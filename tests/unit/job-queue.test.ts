import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { createJobQueue, RetryLater } from '../../server/jobs/job-queue';
import { createClock } from '../../server/clock';

describe('job queue', () => {
  let dir: string;
  let db: Database;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'jobs-'));
    db = await openDatabase({ dataDir: dir });
  });
  afterAll(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs a job, records progress and result', async () => {
    const queue = createJobQueue(db, { pollMs: 50 });
    queue.register('count', async ({ job, progress }) => {
      const to = Number((job.payload as { to: number }).to);
      for (let i = 1; i <= to; i++) await progress(i, to);
      return { counted: to };
    });
    queue.start();
    const job = await queue.enqueue(db, 'count', { subject: 'thing:1', payload: { to: 3 } });
    await queue.drain();
    const done = await queue.get(job.id);
    expect(done).toMatchObject({ status: 'done', progress_current: 3, progress_max: 3, result: { counted: 3 } });
    expect((await queue.latest('thing:1'))?.id).toBe(job.id);
    await queue.close();
  });

  it('retries, then fails with the error once attempts are used up', async () => {
    const queue = createJobQueue(db, { pollMs: 20 });
    let calls = 0;
    queue.register('flaky', async () => {
      calls += 1;
      throw new Error(`nope ${calls}`);
    });
    queue.start();
    const job = await queue.enqueue(db, 'flaky', { maxAttempts: 2 });
    for (let i = 0; i < 100 && (await queue.get(job.id))?.status !== 'failed'; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await queue.get(job.id)).toMatchObject({ status: 'failed', error: 'nope 2', attempts: 2 });
    await queue.close();
  });

  it('RetryLater puts a job back without using up its attempts for good', async () => {
    const queue = createJobQueue(db, { pollMs: 20 });
    let calls = 0;
    queue.register('wait', async () => {
      calls += 1;
      if (calls < 2) throw new RetryLater('not yet', 10);
      return 'ok';
    });
    queue.start();
    const job = await queue.enqueue(db, 'wait');
    for (let i = 0; i < 100 && (await queue.get(job.id))?.status !== 'done'; i++) await new Promise((r) => setTimeout(r, 30));
    expect(await queue.get(job.id)).toMatchObject({ status: 'done', result: 'ok' });
    await queue.close();
  });

  it('a clean shutdown hands a running job back, and the next worker resumes it', async () => {
    const first = createJobQueue(db, { pollMs: 20 });
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    first.register('long', ({ signal }) => {
      started();
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    });
    first.start();
    const job = await first.enqueue(db, 'long');
    await running;
    await first.close();
    expect((await first.get(job.id))?.status).toBe('queued');

    const second = createJobQueue(db, { pollMs: 20 });
    second.register('long', async () => 'resumed');
    second.start();
    await second.drain();
    expect(await second.get(job.id)).toMatchObject({ status: 'done', result: 'resumed' });
    await second.close();
  });

  it('claims a job whose worker died once its lease ran out', async () => {
    const dead = createJobQueue(db, { pollMs: 20, leaseMs: 300 });
    dead.register('orphan', () => new Promise(() => undefined));
    dead.start();
    const job = await dead.enqueue(db, 'orphan');
    for (let i = 0; i < 50 && (await dead.get(job.id))?.status !== 'running'; i++) await new Promise((r) => setTimeout(r, 20));
    // The first worker never finishes and never heartbeats again: simulate its death by stopping its timers only.
    const alive = createJobQueue(db, { pollMs: 50, leaseMs: 300 });
    alive.register('orphan', async () => 'taken over');
    await db.query(`UPDATE jobs SET locked_until = now() - interval '1 second' WHERE id = $1`, [job.id]);
    alive.start();
    for (let i = 0; i < 100 && (await alive.get(job.id))?.status !== 'done'; i++) await new Promise((r) => setTimeout(r, 30));
    expect(await alive.get(job.id)).toMatchObject({ status: 'done', result: 'taken over', attempts: 2 });
    await alive.close();
    void dead; // its handler never settles; its process would be gone in reality
  });

  it('the clock only moves forward', () => {
    const clock = createClock(0, () => 1_000);
    clock.advance(5_000);
    expect(clock.nowMs()).toBe(6_000);
    expect(() => clock.advance(-1)).toThrow();
  });
});
