// Billing accounts the create-organization wizard opened for an organization that was never created (the card step
// abandoned). Their owner may resume them from any browser; after UNFINISHED_BILLING_ACCOUNT_DAYS of business time
// (server/clock.ts) a recurring job removes them, so an abandoned name does not stay taken forever.
import type { Clock } from '../clock';
import { DEFAULT_UNFINISHED_BILLING_ACCOUNT_DAYS, type PlatformConfig } from '../config';
import type { PaymentProvider } from '../adapters/payments/payment-provider';
import type { Database } from '../db/database';
import { deleteBillingAccount, listRemovableUnfinishedBillingAccounts, lockRemovableUnfinishedBillingAccount } from '../db/repositories/billing-repository';
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

interface CleanupDeps {
  db: Database;
  clock: Clock;
  /** The card provider: a customer it keeps for an account is removed with the account. */
  payments?: Pick<PaymentProvider, 'deleteCustomer'>;
  log?: (message: string) => void;
}

/**
 * One pass: removes the unfinished billing accounts older than `days` by the business clock, each with its customer
 * at the payment provider. Each account is locked while the provider is asked, and removed only once the provider
 * has removed the customer: an account whose customer could not be removed is kept for the next pass (`kept`), so
 * no customer is left at the provider without its account.
 */
export async function cleanUpUnfinishedBillingAccounts(deps: CleanupDeps, days: number): Promise<{ removed: number[]; kept: number[] }> {
  const openedBefore = new Date(deps.clock.nowMs() - days * DAY_MS);
  const removed: number[] = [];
  const kept: number[] = [];
  for (const id of await listRemovableUnfinishedBillingAccounts(deps.db, openedBefore)) {
    try {
      const gone = await deps.db.transaction(async (tx) => {
        const account = await lockRemovableUnfinishedBillingAccount(tx, id, openedBefore);
        if (!account) return false;
        if (account.customer_ref && deps.payments?.deleteCustomer) await deps.payments.deleteCustomer(account.customer_ref);
        await deleteBillingAccount(tx, id);
        return true;
      });
      if (gone) removed.push(id);
    } catch (error) {
      kept.push(id);
      deps.log?.(`Unfinished billing account ${id} kept for the next pass: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { removed, kept };
}

/** Runs the pass every hour (and once a minute after the platform starts). */
export async function scheduleUnfinishedBillingCleanup(deps: CleanupDeps & { jobs: JobQueue; days: number }): Promise<void> {
  await scheduleRecurringJob(deps.jobs, deps.db, {
    kind: UNFINISHED_CLEANUP_JOB,
    subject: UNFINISHED_CLEANUP_SUBJECT,
    intervalMs: CLEANUP_INTERVAL_MS,
    firstDelayMs: 60_000,
    run: () => cleanUpUnfinishedBillingAccounts(deps, deps.days),
  });
}
