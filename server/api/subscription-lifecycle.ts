import type { Clock } from '../clock';
import type { Database, Queryable } from '../db/database';
import type { JobQueue } from '../jobs/job-queue';
import {
  listDueSubscriptions,
  markReleased,
  moveSubscription,
  type SubscriptionRow,
} from '../db/repositories/integrations-repository';
import type { ProductBackends } from '../route-kit/product-backend';

// The subscription of every enabled product (spec 001 §4, docs/stack.md "Lifecycle"):
//   trial ──(trial ends, card on file)──▶ active ──(cancel)──▶ scheduled_for_cancellation ──(date)──▶ cancelled_by_user
//   trial ──(trial ends, no card)──▶ suspended ──(card added)──▶ active
// A scheduled job moves them on the business clock; the cancellation releases the product's back end in the same
// transaction that records it, so a failed release leaves the subscription scheduled and the next tick retries.

export const TRIAL_DAYS = 14;
export const PERIOD_DAYS = 30;
export const DAY_MS = 86_400_000;
export const LIFECYCLE_JOB = 'stack.subscription-lifecycle';
export const DEFAULT_LIFECYCLE_INTERVAL_MS = 5_000;

export interface LifecycleDeps {
  db: Database;
  clock: Clock;
  products: ProductBackends;
  log?: (message: string) => void;
}

/** The end of the period that contains `now`, for periods of PERIOD_DAYS starting at `start`. */
export function periodEndAfter(start: Date, now: Date): Date {
  const period = PERIOD_DAYS * DAY_MS;
  const elapsed = Math.max(0, now.getTime() - start.getTime());
  return new Date(start.getTime() + (Math.floor(elapsed / period) + 1) * period);
}

/** When a cancellation asked for now takes effect: at the end of what the customer is in (trial or period). */
export function cancellationDate(subscription: SubscriptionRow, now: Date): Date {
  if (subscription.status === 'trial' && subscription.trial_ends_at) return subscription.trial_ends_at;
  if (subscription.status === 'active' && subscription.period_ends_at) return subscription.period_ends_at;
  // Suspended: nothing is paid for, so it ends at once (the next tick).
  return now;
}

async function step(deps: LifecycleDeps, row: SubscriptionRow): Promise<string | null> {
  const now = deps.clock.now();
  if (row.status === 'trial') {
    if (row.has_payment_method) {
      const periodEndsAt = periodEndAfter(row.trial_ends_at ?? now, now);
      return (await moveSubscription(deps.db, row.id, 'trial', { status: 'active', now, periodEndsAt })) ? 'active' : null;
    }
    return (await moveSubscription(deps.db, row.id, 'trial', { status: 'suspended', now })) ? 'suspended' : null;
  }
  if (row.status === 'suspended') {
    if (!row.has_payment_method) return null;
    const periodEndsAt = new Date(now.getTime() + PERIOD_DAYS * DAY_MS);
    return (await moveSubscription(deps.db, row.id, 'suspended', { status: 'active', now, periodEndsAt })) ? 'active' : null;
  }
  if (row.status === 'active') {
    // A new period starts; invoicing it is the billing area's part.
    const periodEndsAt = periodEndAfter(row.period_ends_at ?? now, now);
    return (await moveSubscription(deps.db, row.id, 'active', { status: 'active', now, periodEndsAt })) ? 'active (new period)' : null;
  }
  if (row.status === 'scheduled_for_cancellation') {
    const moved = await deps.db.transaction(async (tx) => {
      if (!(await moveSubscription(tx, row.id, 'scheduled_for_cancellation', { status: 'cancelled_by_user', now }))) return false;
      await releaseBackend(deps, tx, row, now);
      return true;
    });
    return moved ? 'cancelled_by_user' : null;
  }
  return null;
}

export async function releaseBackend(deps: LifecycleDeps, tx: Queryable, row: { id: number; project_id: number; product_slug: string }, now: Date) {
  await deps.products.get(row.product_slug)?.release(tx, { integrationId: row.id, projectId: row.project_id });
  await markReleased(tx, row.id, now);
}

/**
 * One pass over the subscriptions that are due at the clock's now. Safe to run from several places at once
 * (every move is conditional on the status it starts from). Returns what moved, for logs and tests.
 */
export async function runLifecycleTick(deps: LifecycleDeps): Promise<{ integrationId: number; status: string }[]> {
  const moved: { integrationId: number; status: string }[] = [];
  for (const row of await listDueSubscriptions(deps.db, deps.clock.now())) {
    try {
      const status = await step(deps, row);
      if (status) moved.push({ integrationId: row.id, status });
    } catch (error) {
      // One product's failed release must not hold up every other subscription; the next tick tries it again.
      deps.log?.(`[stack] subscription ${row.id} (${row.product_slug}) could not move: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const m of moved) deps.log?.(`[stack] subscription ${m.integrationId} is now ${m.status}`);
  return moved;
}

export interface SubscriptionLifecycle {
  /** Runs one pass now (after the clock moved, from tests). */
  tick(): Promise<{ integrationId: number; status: string }[]>;
  /** When the job worker last ran the periodic pass (wall time), null before the first one. */
  lastRunAt(): number | null;
  intervalMs: number;
  /** The job worker ran the pass recently: it is alive and can reach the database. */
  healthy(): boolean;
  close(): void;
}

/**
 * Registers the periodic pass as a job on the platform's queue: one queued job at a time, which runs the pass and
 * queues the next one intervalMs later. The job lives in the database, so a restart resumes the schedule and several
 * platform processes share it.
 */
export async function startSubscriptionLifecycle(
  deps: LifecycleDeps & { jobs: JobQueue },
  options: { intervalMs?: number } = {},
): Promise<SubscriptionLifecycle> {
  const intervalMs = options.intervalMs ?? DEFAULT_LIFECYCLE_INTERVAL_MS;
  let lastRunAt: number | null = null;
  let ticking: Promise<{ integrationId: number; status: string }[]> | undefined;
  // Passes run one at a time in this process; a pass asked for during one runs right after it.
  const tick = async () => {
    while (ticking) await ticking.catch(() => undefined);
    ticking = runLifecycleTick(deps);
    try {
      return await ticking;
    } finally {
      ticking = undefined;
    }
  };
  deps.jobs.register(LIFECYCLE_JOB, async () => {
    try {
      await tick();
      lastRunAt = Date.now();
    } finally {
      await scheduleNext(deps.db, deps.jobs, intervalMs).catch((error: unknown) => deps.log?.(`[stack] could not queue the next lifecycle pass: ${String(error)}`));
    }
  });
  await scheduleNext(deps.db, deps.jobs, 0);
  // If queueing the next pass ever failed (the database was away), the schedule would stop: re-seed it now and then.
  const reseed = setInterval(() => void scheduleNext(deps.db, deps.jobs, 0).catch(() => undefined), Math.max(30_000, 6 * intervalMs));
  reseed.unref();
  return {
    close: () => clearInterval(reseed),
    tick,
    lastRunAt: () => lastRunAt,
    intervalMs,
    healthy: () => lastRunAt !== null && Date.now() - lastRunAt < Math.max(15_000, 3 * intervalMs),
  };
}

async function scheduleNext(db: Database, jobs: JobQueue, delayMs: number): Promise<void> {
  // Finished passes are of no later use: keep the table to the one queued job (and the running one).
  await db.query(`DELETE FROM jobs WHERE kind = $1 AND status IN ('done', 'failed', 'cancelled')`, [LIFECYCLE_JOB]);
  const pending = await db.query(`SELECT 1 FROM jobs WHERE kind = $1 AND status = 'queued'`, [LIFECYCLE_JOB]);
  if (pending.length === 0) await jobs.enqueue(db, LIFECYCLE_JOB, { subject: 'stack', delayMs, maxAttempts: 1 });
}

