import type { Queryable } from '../database';

export interface InvoiceRow {
  id: number;
  billing_account_id: number;
  organization_id: number | null;
  amount_cents: number;
  currency: string;
  status: 'open' | 'paid' | 'void';
  description: string;
  period_start: Date | null;
  period_end: Date | null;
  payment_link: string | null;
  pay_token: string | null;
  paid_at: Date | null;
  payment_error: string | null;
  payment_attempted_at: Date | null;
  created_at: Date;
}

const columns = `id, billing_account_id, organization_id, amount_cents, currency, status, description, period_start, period_end,
  payment_link, pay_token, paid_at, payment_error, payment_attempted_at, created_at`;

/** Organizations whose trial has ended by `now`, with the account that pays for them. */
export async function listBillableOrganizations(db: Queryable, now: Date): Promise<{ id: number; name: string; trial_ends_at: Date; billing_account_id: number }[]> {
  return db.query(
    `SELECT id, name, trial_ends_at, billing_account_id FROM organizations
      WHERE trial_ends_at IS NOT NULL AND trial_ends_at <= $1 AND billing_account_id IS NOT NULL ORDER BY id`,
    [now],
  );
}

/** Adds the invoice of one period; undefined when that period was already invoiced. */
export async function insertPeriodInvoice(
  db: Queryable,
  invoice: { billingAccountId: number; organizationId: number; amountCents: number; description: string; periodStart: Date; periodEnd: Date; payToken: string; createdAt: Date },
): Promise<InvoiceRow | undefined> {
  const rows = await db.query<InvoiceRow>(
    `INSERT INTO invoices (billing_account_id, organization_id, amount_cents, status, description, period_start, period_end, pay_token, created_at)
     VALUES ($1, $2, $3, 'open', $4, $5, $6, $7, $8)
     ON CONFLICT (organization_id, period_start) DO NOTHING RETURNING ${columns}`,
    [invoice.billingAccountId, invoice.organizationId, invoice.amountCents, invoice.description, invoice.periodStart, invoice.periodEnd, invoice.payToken, invoice.createdAt],
  );
  return rows[0];
}

export async function setPaymentLink(db: Queryable, id: number, link: string): Promise<void> {
  await db.query('UPDATE invoices SET payment_link = $2 WHERE id = $1', [id, link]);
}

/** Open invoices never charged yet, with the card of their account. */
export async function listUnchargedOpenInvoices(db: Queryable): Promise<(InvoiceRow & { payment_method_id: string | null; account_name: string; customer_ref: string | null; owner_email: string })[]> {
  return db.query(
    `SELECT i.${columns.split(',').map((c) => c.trim()).join(', i.')}, b.payment_method_id, b.name AS account_name, b.customer_ref, u.email AS owner_email
       FROM invoices i JOIN billing_accounts b ON b.id = i.billing_account_id JOIN users u ON u.id = b.owner_user_id
      WHERE i.status = 'open' AND i.payment_attempted_at IS NULL ORDER BY i.id`,
  );
}

/** Claims the one automatic charge of an invoice: false when another run (or instance) claimed it first. */
export async function claimPaymentAttempt(db: Queryable, id: number, at: Date): Promise<boolean> {
  const rows = await db.query("UPDATE invoices SET payment_attempted_at = $2 WHERE id = $1 AND status = 'open' AND payment_attempted_at IS NULL RETURNING id", [id, at]);
  return rows.length > 0;
}

export async function recordPaymentAttempt(db: Queryable, id: number, at: Date, outcome: { paid: true; paymentRef: string } | { paid: false; message: string }): Promise<void> {
  if (outcome.paid) {
    await db.query("UPDATE invoices SET status = 'paid', paid_at = $2, payment_attempted_at = $2, payment_ref = $3, payment_error = NULL WHERE id = $1 AND status = 'open'", [
      id,
      at,
      outcome.paymentRef,
    ]);
  } else {
    await db.query('UPDATE invoices SET payment_attempted_at = $2, payment_error = $3 WHERE id = $1', [id, at, outcome.message]);
  }
}

export async function listInvoicesOfAccount(db: Queryable, billingAccountId: number): Promise<InvoiceRow[]> {
  return db.query<InvoiceRow>(`SELECT ${columns} FROM invoices WHERE billing_account_id = $1 ORDER BY period_start DESC NULLS LAST, id DESC`, [billingAccountId]);
}

export async function findInvoiceByPayToken(db: Queryable, payToken: string): Promise<InvoiceRow | undefined> {
  const rows = await db.query<InvoiceRow>(`SELECT ${columns} FROM invoices WHERE pay_token = $1`, [payToken]);
  return rows[0];
}
