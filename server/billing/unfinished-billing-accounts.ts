// Billing accounts the create-organization wizard opened for an organization that was never created (the card step
// abandoned). Their owner may resume them from any browser; after UNFINISHED_BILLING_ACCOUNT_DAYS of business time
// (server/clock.ts) a recurring job removes them, so an abandoned name does not stay taken forever.
import type { Clock } from '../clock';
import { DEFAULT_UNFINISHED_BILLING_ACCOUNT_DAYS, type PlatformConfig } from '../config';
import type { Queryable } from '../db/database';
import { removeUnfinishedBillingAccounts } from '../db/repositories/billing-repository';
import type { JobQueue } from '../jobs/job-queue';
import { scheduleRecurringJob } from '../jobs/recurring-job';

export const UNFINISHED_CLEANUP_JOB = 'billing.unfinished-cleanup';
const UNFINISHED_CLEANUP_SUBJECT = 'billing:unfinished';
const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The configured keeping time in days. */
export const unfinishedBillingAccountDays = (config: PlatformConfig): number => config.unfinishedBillingAccountDays ?? DEFAULT_UNFINISHED_BILLING_ACCOUNT_DAYS;

/** When an unfinished billing account opened at `openedAt` is removed. */
export function unfinishedRemovalDate(openedAt: Date, days: number): Date {
  return new Date(openedAt.getTime() + days * DAY_MS);
}

/** One pass: removes the unfinished billing accounts older than `days` by the business clock. */
export async function cleanUpUnfinishedBillingAccounts(deps: { db: Queryable; clock: Clock }, days: number): Promise<{ removed: number[] }> {
  const removed = await removeUnfinishedBillingAccounts(deps.db, new Date(deps.clock.nowMs() - days * DAY_MS));
  return { removed };
}

/** Runs the pass every hour (and once a minute after the platform starts). */
export async function scheduleUnfinishedBillingCleanup(deps: { db: Queryable; clock: Clock; jobs: JobQueue; days: number }): Promise<void> {
  await scheduleRecurringJob(deps.jobs, deps.db, {
    kind: UNFINISHED_CLEANUP_JOB,
    subject: UNFINISHED_CLEANUP_SUBJECT,
    intervalMs: CLEANUP_INTERVAL_MS,
    firstDelayMs: 60_000,
    run: () => cleanUpUnfinishedBillingAccounts(deps, deps.days),
  });
}
