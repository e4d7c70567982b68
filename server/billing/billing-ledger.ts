import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import type { JobQueue } from '../jobs/job-queue';
import type { PaymentProvider } from '../adapters/payments/payment-provider';
import { claimPaymentAttempt, insertPeriodInvoice, listBillableOrganizations, listUnchargedOpenInvoices, recordPaymentAttempt, setPaymentLink } from '../db/repositories/invoices-repository';

// The billing ledger (spec 000 sections 2 and 9: "after the trial, organization mode costs a flat $249 per month").
// An organization is invoiced monthly from the end of its trial, in advance: the period [trial end + n months,
// trial end + n + 1 months) is invoiced once business time reaches its start. The invoice is charged to the card on
// file through the payment adapter; a refusal leaves it open, with its pay-now link. Business time is the platform's
// clock, so tests (and /dev pages) move it forward instead of waiting a month.

export const ORGANIZATION_MONTHLY_CENTS = 24_900;
export const INVOICING_JOB = 'billing.invoicing';
export const INVOICING_SUBJECT = 'billing-ledger';
/** How often the job looks for periods that started (business time may jump; the run catches up on every period). */
export const INVOICING_INTERVAL_MS = 60 * 60 * 1000;
/** At most this many periods per organization in one run (a clock moved by years does not write forever). */
const MAX_PERIODS_PER_RUN = 36;

/** The same day of month, n months later (the 31st becomes the month's last day). */
export function addMonths(date: Date, months: number): Date {
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target;
}

export interface LedgerDeps {
  db: Database;
  clock: Clock;
  payments: PaymentProvider;
  publicUrl: string;
  apiBasePath: string;
}

/** The pay-now page of the local provider; the hosted provider's invoices are paid on its own pages. */
export function localPayLink(deps: Pick<LedgerDeps, 'publicUrl' | 'apiBasePath'>, payToken: string): string {
  return `${deps.publicUrl}${deps.apiBasePath.replace(/\/$/, '')}/payments/local/invoices/${payToken}/pay`;
}

export interface InvoicingResult {
  created: number;
  paid: number;
  declined: number;
}

/** One run: invoices every started period of every organization past its trial, then charges new invoices. */
export async function runInvoicing(deps: LedgerDeps): Promise<InvoicingResult> {
  const now = deps.clock.now();
  const result: InvoicingResult = { created: 0, paid: 0, declined: 0 };
  await deps.db.transaction(async (tx) => {
    for (const organization of await listBillableOrganizations(tx, now)) {
      for (let n = 0; n < MAX_PERIODS_PER_RUN; n++) {
        const periodStart = addMonths(organization.trial_ends_at, n);
        if (periodStart > now) break;
        const payToken = randomBytes(24).toString('base64url');
        const invoice = await insertPeriodInvoice(tx, {
          billingAccountId: organization.billing_account_id,
          organizationId: organization.id,
          amountCents: ORGANIZATION_MONTHLY_CENTS,
          description: `Organization plan (${organization.name}): $249 per month`,
          periodStart,
          periodEnd: addMonths(organization.trial_ends_at, n + 1),
          payToken,
          createdAt: now,
        });
        if (!invoice) continue;
        result.created++;
        if (deps.payments.kind === 'local') await setPaymentLink(tx, invoice.id, localPayLink(deps, payToken));
      }
    }
  });
  // Charged outside a transaction (the provider is a network call); the claim makes each invoice charged once.
  for (const invoice of await listUnchargedOpenInvoices(deps.db)) {
    if (!(await claimPaymentAttempt(deps.db, invoice.id, deps.clock.now()))) continue;
    const outcome =
      invoice.payment_method_id && deps.payments.chargeInvoice
        ? await deps.payments.chargeInvoice(
            { id: invoice.billing_account_id, name: invoice.account_name, customerRef: invoice.customer_ref, ownerEmail: invoice.owner_email },
            { invoiceId: invoice.id, amountCents: invoice.amount_cents, currency: invoice.currency, description: invoice.description, paymentMethodId: invoice.payment_method_id },
          )
        : ({ paid: false, message: 'No credit card configured' } as const);
    await recordPaymentAttempt(deps.db, invoice.id, deps.clock.now(), outcome);
    if (outcome.paid) result.paid++;
    else result.declined++;
  }
  return result;
}

/**
 * Registers the invoicing job and makes sure one run is scheduled. Each run schedules the next one, so exactly one
 * is queued at a time (a restart finds the queued one in the database and does not add another).
 */
export async function startBillingLedger(deps: LedgerDeps & { jobs: JobQueue }): Promise<void> {
  deps.jobs.register(INVOICING_JOB, async () => {
    try {
      return await runInvoicing(deps);
    } finally {
      await deps.jobs.enqueue(deps.db, INVOICING_JOB, { subject: INVOICING_SUBJECT, delayMs: INVOICING_INTERVAL_MS });
    }
  });
  const latest = await deps.jobs.latest(INVOICING_SUBJECT, INVOICING_JOB);
  if (!latest || (latest.status !== 'queued' && latest.status !== 'running')) {
    await deps.jobs.enqueue(deps.db, INVOICING_JOB, { subject: INVOICING_SUBJECT });
  }
}
