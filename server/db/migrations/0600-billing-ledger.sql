-- The billing ledger: monthly invoices of an organization's plan after its trial, produced by the invoicing job from
-- the business clock, paid with the card on file; an open invoice can be paid on the local provider's pay page.
ALTER TABLE invoices
  ADD COLUMN organization_id integer REFERENCES organizations (id) ON DELETE SET NULL,
  ADD COLUMN period_start timestamptz,
  ADD COLUMN period_end timestamptz,
  ADD COLUMN description text NOT NULL DEFAULT '',
  ADD COLUMN currency text NOT NULL DEFAULT 'usd',
  ADD COLUMN paid_at timestamptz,
  ADD COLUMN payment_ref text,
  ADD COLUMN payment_attempted_at timestamptz,
  ADD COLUMN payment_error text,
  -- The capability in the pay-now link (the hosted provider's invoice page works the same way: no sign-in).
  ADD COLUMN pay_token text UNIQUE;
-- One invoice per organization and period, whatever how often (or on how many instances) the job runs.
CREATE UNIQUE INDEX invoices_organization_period_key ON invoices (organization_id, period_start);
CREATE INDEX invoices_billing_account ON invoices (billing_account_id, id);

-- The local provider's card that attaches but whose charges are declined (the hosted provider's 4000 0000 0000 0341).
ALTER TABLE setup_intents ADD COLUMN charges_decline boolean NOT NULL DEFAULT false;
