import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { createJobQueue, RetryLater, type JobContext } from '../../server/jobs/job-queue';
import { scheduleRecurringJob } from '../../server/jobs/recurring-job';
import { pruneFinishedJobs } from '../../server/db/repositories/jobs-repository';
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

  // Fault injection: the database holds this worker's lease renewals (a long transaction on the embedded database,
  // a slow connection) for `holdMs`, past the lease, while every other query goes through.
  function holdingHeartbeats(holdMs: number, everything?: () => boolean): Database {
    const slow = (sql: string) => everything?.() || (/SET locked_until = now\(\) \+/.test(sql) && !/SET status = 'running'/.test(sql));
    return {
      kind: db.kind,
      async query<T>(sql: string, params?: readonly unknown[]) {
        if (slow(sql)) await new Promise((r) => setTimeout(r, holdMs));
        return db.query<T>(sql, params);
      },
      transaction: (fn) => db.transaction(fn),
      close: async () => undefined,
    };
  }

  // A handler like a Loggen run: pushes a line every few milliseconds until it is done or told to stop.
  function pusher(lines: string[], active: { now: number; max: number }, runs: { aborted: boolean }[], forMs: number) {
    return async ({ signal, job }: JobContext) => {
      const me = { aborted: false };
      runs.push(me);
      active.now += 1;
      active.max = Math.max(active.max, active.now);
      try {
        const until = Date.now() + forMs;
        for (let n = 0; Date.now() < until; n++) {
          if (signal.aborted) {
            me.aborted = true;
            throw signal.reason;
          }
          lines.push(`${job.id}:${n}`);
          await new Promise((r) => setTimeout(r, 10));
        }
        return { pushed: lines.length };
      } finally {
        active.now -= 1;
      }
    };
  }

  const until = async (check: () => Promise<boolean>, ms = 5_000) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('a run whose heartbeat is held past its lease is aborted and never runs twice at once (maxAttempts: 1)', async () => {
    const queue = createJobQueue(holdingHeartbeats(2_000), { pollMs: 20, leaseMs: 300 });
    const lines: string[] = [];
    const active = { now: 0, max: 0 };
    const runs: { aborted: boolean }[] = [];
    queue.register('push-once', pusher(lines, active, runs, 1_500));
    queue.start();
    const job = await queue.enqueue(db, 'push-once', { maxAttempts: 1 });
    await until(async () => (await queue.get(job.id))?.status === 'failed');
    await new Promise((r) => setTimeout(r, 300));
    expect(active.max).toBe(1);
    expect(runs).toEqual([{ aborted: true }]);
    // Every line was pushed once.
    expect(new Set(lines).size).toBe(lines.length);
    expect(await queue.get(job.id)).toMatchObject({ status: 'failed', attempts: 1, claim_token: null });
    await queue.close();
  });

  it('a stalled run is aborted before another worker may claim the job, and only the current run writes', async () => {
    // After its first claim the stalled worker's every query is held (a paused process's connection).
    let paused = false;
    const stalled = createJobQueue(holdingHeartbeats(1_500, () => paused), { pollMs: 20, leaseMs: 1_000 });
    const healthy = createJobQueue(db, { pollMs: 20, leaseMs: 1_000 });
    const lines: string[] = [];
    const active = { now: 0, max: 0 };
    const runs: { aborted: boolean }[] = [];
    stalled.register('push-twice', pusher(lines, active, runs, 3_000));
    stalled.start();
    const job = await stalled.enqueue(db, 'push-twice', { maxAttempts: 2 });
    await until(async () => runs.length === 1);
    paused = true;
    healthy.register('push-twice', pusher(lines, active, runs, 200));
    healthy.start();
    await until(async () => (await healthy.get(job.id))?.status === 'done');
    expect(active.max).toBe(1);
    expect(runs.map((r) => r.aborted)).toEqual([true, false]);
    expect(await healthy.get(job.id)).toMatchObject({ status: 'done', attempts: 2, locked_by: null, claim_token: null });
    await Promise.all([stalled.close(), healthy.close()]);
  });

  it("the final write must carry the run's claim token", async () => {
    const queue = createJobQueue(db, { pollMs: 20, leaseMs: 5_000 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    queue.register('fenced', async () => {
      await gate;
      return 'stale';
    });
    queue.start();
    const job = await queue.enqueue(db, 'fenced', { maxAttempts: 3 });
    await until(async () => (await queue.get(job.id))?.status === 'running');
    // Another claim took the job meanwhile (same worker name, new token): the first run's result must not land.
    await db.query(`UPDATE jobs SET claim_token = 'another-run' WHERE id = $1`, [job.id]);
    release();
    await new Promise((r) => setTimeout(r, 200));
    expect(await queue.get(job.id)).toMatchObject({ status: 'running', claim_token: 'another-run', result: null });
    await queue.close();
    await db.query(`UPDATE jobs SET status = 'cancelled' WHERE id = $1`, [job.id]);
  });

  it("tenant work has its own slots: four long tenant runs do not hold back the platform's jobs", async () => {
    const queue = createJobQueue(db, { pollMs: 20, concurrency: 4, tenantConcurrency: 4, perTenant: 2 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const started: string[] = [];
    queue.register('tenant-run', async ({ job }) => {
      started.push(String(job.tenant));
      await gate;
    }, { pool: 'tenant' });
    queue.register('platform-pass', async () => 'ran');
    queue.start();
    for (let i = 0; i < 4; i++) await queue.enqueue(db, 'tenant-run', { tenant: 'organization:1' });
    await until(async () => started.length === 2);
    const other = await queue.enqueue(db, 'tenant-run', { tenant: 'organization:2' });
    const platform = await queue.enqueue(db, 'platform-pass');
    await until(async () => (await queue.get(platform.id))?.status === 'done');
    await until(async () => (await queue.get(other.id))?.status === 'running');
    // One organization holds at most its two slots; the other organization's run got one.
    expect(started.filter((t) => t === 'organization:1')).toHaveLength(2);
    release();
    await queue.drain();
    expect(started.filter((t) => t === 'organization:1')).toHaveLength(4);
    await queue.close();
  });

  it('a recurring job keeps its schedule when runs fail, and is queued once however often it is scheduled', async () => {
    const first = createJobQueue(db, { pollMs: 20 });
    const second = createJobQueue(db, { pollMs: 20 });
    let calls = 0;
    const schedule = (queue: typeof first) =>
      scheduleRecurringJob(queue, db, {
        kind: 'every-100ms',
        subject: 'schedule:test',
        intervalMs: 100,
        firstDelayMs: 0,
        run: async () => {
          calls += 1;
          throw new Error(`storage down ${calls}`);
        },
      });
    await Promise.all([schedule(first), schedule(second), schedule(first)]);
    const open = async () => (await db.query(`SELECT id FROM jobs WHERE kind = 'every-100ms' AND status IN ('queued', 'running')`)).length;
    expect(await open()).toBe(1);
    first.start();
    second.start();
    await until(async () => calls >= 5, 3_000);
    expect(await open()).toBeLessThanOrEqual(1);
    const failed = await db.query<{ error: string }>(`SELECT error FROM jobs WHERE kind = 'every-100ms' AND status = 'failed'`);
    expect(failed.length).toBeGreaterThanOrEqual(4);
    await Promise.all([first.close(), second.close()]);
  });

  it('finished jobs are pruned after the kept days (the newest of each subject stays) and lose their payload after a day', async () => {
    const old = async (subject: string, finishedDaysAgo: number, payload: unknown) =>
      (
        await db.query<{ id: number }>(
          `INSERT INTO jobs (kind, subject, payload, status, finished_at) VALUES ('prune-me', $1, $2::json, 'done', now() - make_interval(days => $3::int)) RETURNING id`,
          [subject, JSON.stringify(payload), finishedDaysAgo],
        )
      )[0].id;
    const gone = await old('loggen:1', 20, { token: 'qt_secret' });
    const newest = await old('loggen:1', 19, { token: 'qt_secret' });
    const recent = await old('loggen:2', 2, { token: 'qt_secret' });
    const today = await old('loggen:3', 0, { token: 'qt_secret' });
    await pruneFinishedJobs(db, 14);
    const rows = await db.query<{ id: number; payload: Record<string, unknown> }>(`SELECT id, payload FROM jobs WHERE kind = 'prune-me' ORDER BY id`);
    expect(rows.map((r) => r.id)).toEqual([newest, recent, today]);
    expect(rows.find((r) => r.id === recent)!.payload).toEqual({});
    expect(rows.find((r) => r.id === today)!.payload).toEqual({ token: 'qt_secret' });
    void gone;
  });

  it('the clock only moves forward', () => {
    const clock = createClock(0, () => 1_000);
    clock.advance(5_000);
    expect(clock.nowMs()).toBe(6_000);
    expect(() => clock.advance(-1)).toThrow();
  });
});
