import type { Queryable } from '../database';

export interface SetupIntentRow {
  id: string;
  client_secret: string;
  billing_account_id: number;
  status: string;
  payment_method_id: string | null;
  payment_method_label: string | null;
}

const columns = 'id, client_secret, billing_account_id, status, payment_method_id, payment_method_label';

export async function insertSetupIntent(db: Queryable, intent: { id: string; clientSecret: string; billingAccountId: number }): Promise<void> {
  await db.query('INSERT INTO setup_intents (id, client_secret, billing_account_id) VALUES ($1, $2, $3)', [
    intent.id,
    intent.clientSecret,
    intent.billingAccountId,
  ]);
}

export async function findSetupIntentBySecret(db: Queryable, clientSecret: string): Promise<SetupIntentRow | undefined> {
  const rows = await db.query<SetupIntentRow>(`SELECT ${columns} FROM setup_intents WHERE client_secret = $1`, [clientSecret]);
  return rows[0];
}

/** Marks a pending intent succeeded; undefined when it was already confirmed (a second confirm must not win). */
export async function succeedSetupIntent(db: Queryable, id: string, paymentMethodId: string, label: string): Promise<SetupIntentRow | undefined> {
  const rows = await db.query<SetupIntentRow>(
    `UPDATE setup_intents SET status = 'succeeded', payment_method_id = $2, payment_method_label = $3
      WHERE id = $1 AND status = 'requires_payment_method' RETURNING ${columns}`,
    [id, paymentMethodId, label],
  );
  return rows[0];
}

export async function findSucceededIntentForPaymentMethod(db: Queryable, billingAccountId: number, paymentMethodId: string): Promise<SetupIntentRow | undefined> {
  const rows = await db.query<SetupIntentRow>(
    `SELECT ${columns} FROM setup_intents WHERE billing_account_id = $1 AND payment_method_id = $2 AND status = 'succeeded'`,
    [billingAccountId, paymentMethodId],
  );
  return rows[0];
}
