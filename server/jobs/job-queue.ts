import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import {
  cancelJob,
  claimNextJob,
  failExpiredJobs,
  finishJob,
  findJob,
  heartbeatJob,
  holdsClaim,
  insertJob,
  latestJobFor,
  pruneFinishedJobs,
  queueDueSchedules,
  releaseWorkerJobs,
  type JobRow,
} from '../db/repositories/jobs-repository';

// The platform's worker: it claims due jobs of the kinds that have a handler, runs a few at once, keeps their lease
// alive while they run, and records progress, result or error. A handler throws RetryLater to be run again later,
// any other error fails the job once max_attempts is reached. Handlers must be safe to run again from the start:
// a job whose process died is claimed again when its lease runs out, and a clean shutdown hands running jobs back.
//
// Fencing (docs/architecture.md, Jobs): each claim carries a fresh token; heartbeats, progress and the final write
// match it, so a run that was fenced off (its lease ran out and the job was claimed again, failed or cancelled)
// writes nothing. A run that cannot renew its lease is aborted by its own worker before the lease runs out, so by
// the time another worker may claim the job the first run has been told to stop. A worker never claims a job it
// still has in hand, and a job whose lease ran out with no attempt left fails instead of running again.
//
// Pools: tenant work (a Loggen run, asked for by a customer) and the platform's own work (lifecycle passes,
// provisioning, deletion, retention) have separate slots, so customers' long runs never hold the platform's work
// back; the tenant pool also caps the running jobs of one tenant (an organization).

export interface JobContext {
  job: JobRow;
  /** Records progress (and extends the lease). Throws JobCancelled when the job was cancelled meanwhile. */
  progress(current: number, max: number): Promise<void>;
  /** Aborted on shutdown, when the job is cancelled and when the run lost its lease (another run may follow). */
  signal: AbortSignal;
  /**
   * Inside the handler's own transaction: throws LeaseLost unless this run is still the job's current one, and
   * holds the job's row until commit, so a write made after it cannot race a second run.
   */
  assertClaim(tx: Queryable): Promise<void>;
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

/** The run could not renew its lease in time, or the job was claimed again meanwhile: it must stop. */
export class LeaseLost extends Error {
  constructor() {
    super('The run lost its lease.');
  }
}

export type JobPool = 'platform' | 'tenant';

export interface JobQueue {
  /** Runs `kind` in the platform's pool unless `pool: 'tenant'` (work a customer asked for). */
  register(kind: string, handler: JobHandler, options?: { pool?: JobPool }): void;
  /**
   * Adds a job (inside the caller's transaction when `db` is one) and wakes the worker. `tenant` (an organization)
   * counts the job against the tenant pool's per-tenant cap.
   */
  enqueue(
    db: Queryable,
    kind: string,
    options?: { subject?: string; payload?: unknown; delayMs?: number; maxAttempts?: number; tenant?: string },
  ): Promise<JobRow>;
  get(id: number): Promise<JobRow | undefined>;
  latest(subject: string, kind?: string): Promise<JobRow | undefined>;
  cancel(id: number): Promise<boolean>;
  /** Resolves when every job that is due now has finished (tests). */
  drain(timeoutMs?: number): Promise<void>;
  start(): void;
  close(): Promise<void>;
}

export interface JobQueueOptions {
  /** Slots for the platform's own work (default 4). */
  concurrency?: number;
  /** Slots for tenant work (default 4) and how many of them one tenant may hold at once (default 2). */
  tenantConcurrency?: number;
  perTenant?: number;
  pollMs?: number;
  leaseMs?: number;
  /** Finished jobs older than this are deleted (the newest of each kind and subject stays). Default 14. */
  keepFinishedDays?: number;
  log?: (message: string) => void;
}

/** The lease is renewed three times per lease; a run that has not renewed it by `leaseMs - margin` is aborted. */
function safetyMargin(leaseMs: number): number {
  return Math.min(5_000, Math.max(50, Math.floor(leaseMs / 5)));
}

export function createJobQueue(db: Database, options: JobQueueOptions = {}): JobQueue {
  const workerId = `worker-${randomUUID()}`;
  const pollMs = options.pollMs ?? 500;
  const leaseMs = options.leaseMs ?? 30_000;
  const margin = safetyMargin(leaseMs);
  const pools: Record<JobPool, { concurrency: number; perTenant: number | null; kinds: Set<string>; running: number }> = {
    platform: { concurrency: options.concurrency ?? 4, perTenant: null, kinds: new Set(), running: 0 },
    tenant: { concurrency: options.tenantConcurrency ?? 4, perTenant: options.perTenant ?? 2, kinds: new Set(), running: 0 },
  };
  const handlers = new Map<string, { handler: JobHandler; pool: JobPool }>();
  const running = new Map<number, { promise: Promise<void>; abort: AbortController }>();
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let closed = false;
  let ticking: Promise<void> | undefined;
  let again = false;
  let housekeptAt = 0;
  let prunedAt = 0;

  async function run(job: JobRow, abort: AbortController, claimSentAt: number): Promise<void> {
    const { handler } = handlers.get(job.kind)!;
    const token = job.claim_token!;
    // The lease as this worker knows it: measured from when a renewal was sent (the database may have stamped it
    // later, never earlier), so the local deadline always falls before the lease in the database runs out.
    let deadline: NodeJS.Timeout | undefined;
    const armDeadline = (sentAt: number) => {
      clearTimeout(deadline);
      deadline = setTimeout(() => {
        options.log?.(`[jobs] ${job.kind} #${job.id} could not renew its lease in time: aborting the run`);
        abort.abort(new LeaseLost());
      }, Math.max(0, sentAt + leaseMs - margin - Date.now()));
    };
    armDeadline(claimSentAt);
    const renew = async (progress?: { current: number; max: number }): Promise<boolean> => {
      const sentAt = Date.now();
      const mine = await heartbeatJob(db, job.id, token, leaseMs, progress);
      if (!mine) abort.abort(new LeaseLost());
      else if (!abort.signal.aborted) armDeadline(sentAt);
      return mine;
    };
    const beat = setInterval(() => void renew().catch(() => undefined), Math.max(20, Math.floor(leaseMs / 3)));
    const ctx: JobContext = {
      job,
      signal: abort.signal,
      async progress(current, max) {
        if (abort.signal.aborted) throw abort.signal.reason instanceof Error ? abort.signal.reason : new JobCancelled();
        if (!(await renew({ current, max }))) throw new JobCancelled();
      },
      async assertClaim(tx) {
        if (abort.signal.aborted || !(await holdsClaim(tx, job.id, token))) throw new LeaseLost();
      },
    };
    try {
      const result = await handler(ctx);
      // Fenced: lands only if no other run took the job meanwhile.
      await finishJob(db, job.id, token, { status: 'done', result: result ?? null });
    } catch (error) {
      // Handed back on close, cancelled, or fenced off: this run has nothing to record. A run that lost its lease is
      // judged by the next claim (another attempt, or failed when none is left) once it has ended here.
      if (closed || error instanceof JobCancelled || error instanceof LeaseLost || abort.signal.reason instanceof LeaseLost) return;
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof RetryLater) {
        await finishJob(db, job.id, token, { status: 'queued', error: message, retryInMs: error.delayMs, giveBack: true });
      } else if (job.attempts < job.max_attempts) {
        options.log?.(`[jobs] ${job.kind} #${job.id} failed (attempt ${job.attempts}), retrying: ${message}`);
        await finishJob(db, job.id, token, { status: 'queued', error: message, retryInMs: 1_000 * job.attempts });
      } else {
        options.log?.(`[jobs] ${job.kind} #${job.id} failed: ${message}`);
        await finishJob(db, job.id, token, { status: 'failed', error: message });
      }
    } finally {
      clearInterval(beat);
      clearTimeout(deadline);
    }
  }

  async function housekeeping(): Promise<void> {
    const now = Date.now();
    if (now - housekeptAt < pollMs) return;
    housekeptAt = now;
    const kinds = [...handlers.keys()];
    // Recurring schedules become jobs here (whatever the last run's outcome), and stalled runs with no attempts
    // left are failed rather than started again.
    await queueDueSchedules(db, kinds);
    for (const failed of await failExpiredJobs(db, kinds, [...running.keys()])) {
      options.log?.(`[jobs] ${failed.kind} #${failed.id} failed: its run stopped renewing its lease and no attempts are left`);
    }
    if (now - prunedAt > 3_600_000) {
      prunedAt = now;
      await pruneFinishedJobs(db, options.keepFinishedDays ?? 14);
    }
  }

  async function tick(): Promise<void> {
    await housekeeping();
    for (const poolName of ['platform', 'tenant'] as const) {
      const pool = pools[poolName];
      while (!closed && pool.running < pool.concurrency) {
        const claimSentAt = Date.now();
        const job = await claimNextJob(db, [...pool.kinds], workerId, leaseMs, {
          token: randomUUID(),
          exceptIds: [...running.keys()],
          perTenant: pool.perTenant,
        });
        if (!job) break;
        const abort = new AbortController();
        pool.running += 1;
        const promise = run(job, abort, claimSentAt)
          .catch((error) => options.log?.(`[jobs] ${job.kind} #${job.id}: ${String(error)}`))
          .finally(() => {
            pool.running -= 1;
            running.delete(job.id);
            wake();
          });
        running.set(job.id, { promise, abort });
      }
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
    register(kind, handler, opts = {}) {
      const pool = opts.pool ?? 'platform';
      for (const p of Object.values(pools)) p.kinds.delete(kind);
      pools[pool].kinds.add(kind);
      handlers.set(kind, { handler, pool });
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
