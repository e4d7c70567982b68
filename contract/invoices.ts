import { Schema } from 'effect';
import { Timestamp } from './common';

// Invoices of the billing ledger (docs/account.md): GET billing/invoices.

export const Invoice = Schema.Struct({
  id: Schema.Number,
  amount_cents: Schema.Number,
  currency: Schema.String,
  status: Schema.Literals(['open', 'paid', 'void']),
  description: Schema.String,
  period_start: Schema.NullOr(Timestamp),
  period_end: Schema.NullOr(Timestamp),
  paid_at: Schema.NullOr(Timestamp),
  /** Where an open invoice can be paid now (the local provider's pay page); null once paid. */
  payment_link: Schema.NullOr(Schema.String),
  /** Why the last charge of the card on file failed, if it did. */
  payment_error: Schema.NullOr(Schema.String),
  created_at: Timestamp,
});
export type Invoice = typeof Invoice.Type;
export const InvoiceList = Schema.Array(Invoice);
