import type { Queryable } from '../database';

export interface BillingAccountRow {
  id: number;
  name: string;
  owner_user_id: string;
  is_default: boolean;
  customer_ref: string | null;
  payment_method_id: string | null;
  payment_method_label: string | null;
  created_at: Date;
  /** Opened by the create-organization wizard for an organization (migration 1550). */
  for_organization: boolean;
}

export interface TaxIdRow {
  id: number;
  billing_account_id: number;
  country: string | null;
  type: string;
  value: string;
  created_at: Date;
}

const columns = 'b.id, b.name, b.owner_user_id, b.is_default, b.customer_ref, b.payment_method_id, b.payment_method_label, b.created_at, b.for_organization';

export async function createBillingAccount(
  db: Queryable,
  account: { name: string; ownerUserId: string; isDefault: boolean; forOrganization?: boolean; createdAt?: Date },
): Promise<BillingAccountRow> {
  // One default per owner: a new default account takes the flag from the previous one.
  if (account.isDefault) await db.query('UPDATE billing_accounts SET is_default = false WHERE owner_user_id = $1', [account.ownerUserId]);
  const rows = await db.query<BillingAccountRow>(
    `INSERT INTO billing_accounts AS b (name, owner_user_id, is_default, for_organization, created_at)
     VALUES ($1, $2, $3, $4, COALESCE($5::timestamptz, now())) RETURNING ${columns}`,
    [account.name, account.ownerUserId, account.isDefault, account.forOrganization ?? false, account.createdAt ?? null],
  );
  return rows[0];
}

export async function findBillingAccountByName(db: Queryable, ownerUserId: string, name: string): Promise<BillingAccountRow | undefined> {
  const rows = await db.query<BillingAccountRow>(
    `SELECT ${columns} FROM billing_accounts b WHERE b.owner_user_id = $1 AND lower(b.name) = lower($2)`,
    [ownerUserId, name],
  );
  return rows[0];
}

// "Unfinished": opened by the wizard for an organization that was never created (no organization uses it).
const unfinished = `b.for_organization AND NOT EXISTS (SELECT 1 FROM organizations o WHERE o.billing_account_id = b.id)`;

/** The owner's unfinished billing accounts, newest first: what the wizard offers to resume in any browser. */
export async function listUnfinishedBillingAccounts(db: Queryable, ownerUserId: string): Promise<BillingAccountRow[]> {
  return db.query<BillingAccountRow>(
    `SELECT ${columns} FROM billing_accounts b WHERE b.owner_user_id = $1 AND ${unfinished} ORDER BY b.created_at DESC, b.id DESC`,
    [ownerUserId],
  );
}

// Removable: unfinished, opened before the cut-off, and nothing a project or an invoice points at.
const removable = `${unfinished} AND b.created_at < $1
  AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.billing_account_id = b.id)
  AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.billing_account_id = b.id)`;

/** The ids of the unfinished billing accounts opened before `openedBefore` that may be removed, oldest first. */
export async function listRemovableUnfinishedBillingAccounts(db: Queryable, openedBefore: Date): Promise<number[]> {
  const rows = await db.query<{ id: number }>(`SELECT b.id FROM billing_accounts b WHERE ${removable} ORDER BY b.id`, [openedBefore]);
  return rows.map((row) => row.id);
}

/**
 * Locks one removable unfinished billing account for the rest of the transaction (an organization being created on
 * it waits, then finds it gone) and returns it; undefined when it is no longer removable.
 */
export async function lockRemovableUnfinishedBillingAccount(tx: Queryable, id: number, openedBefore: Date): Promise<BillingAccountRow | undefined> {
  const rows = await tx.query<BillingAccountRow>(`SELECT ${columns} FROM billing_accounts b WHERE ${removable} AND b.id = $2 FOR UPDATE OF b`, [openedBefore, id]);
  return rows[0];
}

/** Deletes a billing account (its setup intents and tax ids go with it). */
export async function deleteBillingAccount(tx: Queryable, id: number): Promise<void> {
  await tx.query('DELETE FROM billing_accounts WHERE id = $1', [id]);
}

/**
 * A billing account the user may manage: one they own, or the one of an organization they own.
 */
export async function findManageableBillingAccount(db: Queryable, userId: string, billingAccountId: number): Promise<BillingAccountRow | undefined> {
  const rows = await db.query<BillingAccountRow>(
    `SELECT ${columns} FROM billing_accounts b
      WHERE b.id = $2 AND (b.owner_user_id = $1 OR EXISTS (
        SELECT 1 FROM organizations o JOIN organization_members m ON m.organization_id = o.id
         WHERE o.billing_account_id = b.id AND m.user_id = $1 AND m.owner))`,
    [userId, billingAccountId],
  );
  return rows[0];
}

export async function findOrganizationBillingAccount(db: Queryable, organizationId: number): Promise<BillingAccountRow | undefined> {
  const rows = await db.query<BillingAccountRow>(
    `SELECT ${columns} FROM billing_accounts b JOIN organizations o ON o.billing_account_id = b.id WHERE o.id = $1`,
    [organizationId],
  );
  return rows[0];
}

/**
 * The personal account's payer: the default billing account, else the newest one. An unfinished one (opened by the
 * create-organization wizard, no organization yet) never pays: the cleanup job may remove it.
 */
export async function findPersonalBillingAccount(db: Queryable, userId: string): Promise<BillingAccountRow | undefined> {
  const rows = await db.query<BillingAccountRow>(
    `SELECT ${columns} FROM billing_accounts b WHERE b.owner_user_id = $1 AND NOT (${unfinished}) ORDER BY b.is_default DESC, b.created_at DESC, b.id DESC LIMIT 1`,
    [userId],
  );
  return rows[0];
}

export async function setCustomerRef(db: Queryable, billingAccountId: number, customerRef: string): Promise<void> {
  await db.query('UPDATE billing_accounts SET customer_ref = $2 WHERE id = $1', [billingAccountId, customerRef]);
}

export async function setPaymentMethod(db: Queryable, billingAccountId: number, paymentMethodId: string, label: string | null): Promise<void> {
  await db.query('UPDATE billing_accounts SET payment_method_id = $2, payment_method_label = $3 WHERE id = $1', [
    billingAccountId,
    paymentMethodId,
    label,
  ]);
}

export async function listTaxIds(db: Queryable, billingAccountId: number): Promise<TaxIdRow[]> {
  return db.query<TaxIdRow>(
    'SELECT id, billing_account_id, country, type, value, created_at FROM tax_ids WHERE billing_account_id = $1 ORDER BY id',
    [billingAccountId],
  );
}

/** Adds a tax id; undefined when the same type and value are already on the account. */
export async function addTaxId(
  db: Queryable,
  taxId: { billingAccountId: number; country: string | null; type: string; value: string; providerRef: string | null },
): Promise<TaxIdRow | undefined> {
  const rows = await db.query<TaxIdRow>(
    `INSERT INTO tax_ids (billing_account_id, country, type, value, provider_ref) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (billing_account_id, type, value) DO NOTHING
     RETURNING id, billing_account_id, country, type, value, created_at`,
    [taxId.billingAccountId, taxId.country, taxId.type, taxId.value, taxId.providerRef],
  );
  return rows[0];
}

export interface OpenInvoiceRow {
  id: number;
  amount_cents: number;
  payment_link: string | null;
}

/** Open invoices of every billing account the user owns. */
export async function listOpenInvoicesOfOwner(db: Queryable, userId: string): Promise<OpenInvoiceRow[]> {
  return db.query<OpenInvoiceRow>(
    `SELECT i.id, i.amount_cents, i.payment_link FROM invoices i JOIN billing_accounts b ON b.id = i.billing_account_id
      WHERE b.owner_user_id = $1 AND i.status = 'open' ORDER BY i.id`,
    [userId],
  );
}

/** Unlinks the owner's billing accounts from organizations and projects (before the owner's account is deleted). */
export async function detachBillingAccountsOfOwner(db: Queryable, ownerUserId: string): Promise<void> {
  const owned = 'SELECT id FROM billing_accounts WHERE owner_user_id = $1';
  await db.query(`UPDATE organizations SET billing_account_id = NULL WHERE billing_account_id IN (${owned})`, [ownerUserId]);
  await db.query(`UPDATE projects SET billing_account_id = NULL WHERE billing_account_id IN (${owned})`, [ownerUserId]);
}

/** Removes a tax id of the account; returns its provider reference (null when the provider keeps none), undefined if absent. */
export async function removeTaxId(db: Queryable, billingAccountId: number, taxIdId: number): Promise<{ provider_ref: string | null } | undefined> {
  const rows = await db.query<{ provider_ref: string | null }>('DELETE FROM tax_ids WHERE id = $1 AND billing_account_id = $2 RETURNING provider_ref', [
    taxIdId,
    billingAccountId,
  ]);
  return rows[0];
}
