import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import {
  cancelJob,
  claimNextJob,
  finishJob,
  findJob,
  heartbeatJob,
  insertJob,
  latestJobFor,
  releaseWorkerJobs,
  type JobRow,
} from '../db/repositories/jobs-repository';

// The platform's worker: it claims due jobs of the kinds that have a handler, runs a few at once, keeps their lease
// alive while they run, and records progress, result or error. A handler throws RetryLater to be run again later,
// any other error fails the job once max_attempts is reached. Handlers must be safe to run again from the start:
// a job whose process died is claimed again when its lease runs out, and a clean shutdown hands running jobs back.

export interface JobContext {
  job: JobRow;
  /** Records progress (and extends the lease). Throws JobCancelled when the job was cancelled meanwhile. */
  progress(current: number, max: number): Promise<void>;
  /** Aborted on shutdown and when the job is cancelled. */
  signal: AbortSignal;
}

export type JobHandler = (ctx: JobContext) => Promise<unknown>;

export class RetryLater extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

export class JobCancelled extends Error {
  constructor() {
    super('The job was cancelled.');
  }
}

export interface JobQueue {
  register(kind: string, handler: JobHandler): void;
  /** Adds a job (inside the caller's transaction when `db` is one) and wakes the worker. */
  enqueue(db: Queryable, kind: string, options?: { subject?: string; payload?: unknown; delayMs?: number; maxAttempts?: number }): Promise<JobRow>;
  get(id: number): Promise<JobRow | undefined>;
  latest(subject: string, kind?: string): Promise<JobRow | undefined>;
  cancel(id: number): Promise<boolean>;
  /** Resolves when every job that is due now has finished (tests). */
  drain(timeoutMs?: number): Promise<void>;
  start(): void;
  close(): Promise<void>;
}

export interface JobQueueOptions {
  concurrency?: number;
  pollMs?: number;
  leaseMs?: number;
  log?: (message: string) => void;
}

export function createJobQueue(db: Database, options: JobQueueOptions = {}): JobQueue {
  const workerId = `worker-${randomUUID()}`;
  const concurrency = options.concurrency ?? 4;
  const pollMs = options.pollMs ?? 500;
  const leaseMs = options.leaseMs ?? 30_000;
  const handlers = new Map<string, JobHandler>();
  const running = new Map<number, { promise: Promise<void>; abort: AbortController }>();
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let closed = false;
  let ticking: Promise<void> | undefined;
  let again = false;

  async function run(job: JobRow, abort: AbortController): Promise<void> {
    const handler = handlers.get(job.kind)!;
    const beat = setInterval(() => {
      heartbeatJob(db, job.id, workerId, leaseMs)
        .then((mine) => {
          if (!mine) abort.abort(new JobCancelled());
        })
        .catch(() => undefined);
    }, Math.max(1_000, leaseMs / 3));
    const ctx: JobContext = {
      job,
      signal: abort.signal,
      async progress(current, max) {
        const mine = await heartbeatJob(db, job.id, workerId, leaseMs, { current, max });
        if (!mine) {
          abort.abort(new JobCancelled());
          throw new JobCancelled();
        }
      },
    };
    try {
      const result = await handler(ctx);
      await finishJob(db, job.id, workerId, { status: 'done', result: result ?? null });
    } catch (error) {
      if (closed || error instanceof JobCancelled) return; // handed back on close, or cancelled: nothing to record
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof RetryLater) {
        await finishJob(db, job.id, workerId, { status: 'queued', error: message, retryInMs: error.delayMs });
      } else if (job.attempts < job.max_attempts) {
        options.log?.(`[jobs] ${job.kind} #${job.id} failed (attempt ${job.attempts}), retrying: ${message}`);
        await finishJob(db, job.id, workerId, { status: 'queued', error: message, retryInMs: 1_000 * job.attempts });
      } else {
        options.log?.(`[jobs] ${job.kind} #${job.id} failed: ${message}`);
        await finishJob(db, job.id, workerId, { status: 'failed', error: message });
      }
    } finally {
      clearInterval(beat);
    }
  }

  async function tick(): Promise<void> {
    while (!closed && running.size < concurrency) {
      const job = await claimNextJob(db, [...handlers.keys()], workerId, leaseMs);
      if (!job) return;
      const abort = new AbortController();
      const promise = run(job, abort)
        .catch((error) => options.log?.(`[jobs] ${job.kind} #${job.id}: ${String(error)}`))
        .finally(() => {
          running.delete(job.id);
          wake();
        });
      running.set(job.id, { promise, abort });
    }
  }

  function wake(): void {
    if (!started || closed) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = tick()
      .catch((error) => options.log?.(`[jobs] claim failed: ${String(error)}`))
      .finally(() => {
        ticking = undefined;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  return {
    register(kind, handler) {
      handlers.set(kind, handler);
      wake();
    },
    async enqueue(target, kind, opts = {}) {
      const job = await insertJob(target, { kind, ...opts });
      // Inside a transaction the row is not visible yet; the poll picks it up then.
      setImmediate(wake);
      return job;
    },
    get: (id) => findJob(db, id),
    latest: (subject, kind) => latestJobFor(db, subject, kind),
    async cancel(id) {
      const cancelled = await cancelJob(db, id);
      running.get(id)?.abort.abort(new JobCancelled());
      return cancelled;
    },
    async drain(timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        wake();
        await ticking;
        if (running.size === 0) {
          const due = await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM jobs WHERE kind = ANY($1::text[]) AND status = 'queued' AND run_at <= now()`,
            [[...handlers.keys()]],
          );
          if (due[0].n === 0) return;
        } else await Promise.race([...running.values()].map((r) => r.promise));
        if (Date.now() > until) throw new Error('Jobs did not finish in time.');
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    start() {
      if (started) return;
      started = true;
      timer = setInterval(wake, pollMs);
      timer.unref();
      wake();
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      for (const { abort } of running.values()) abort.abort(new Error('shutdown'));
      await ticking?.catch(() => undefined);
      await Promise.allSettled([...running.values()].map((r) => r.promise));
      await releaseWorkerJobs(db, workerId).catch(() => undefined);
    },
  };
}
