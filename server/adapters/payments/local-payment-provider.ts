import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/database';
import {
  findSetupIntentBySecret,
  findSucceededIntentForPaymentMethod,
  insertSetupIntent,
  succeedSetupIntent,
} from '../../db/repositories/setup-intents-repository';
import { LOCAL_TEST_CARDS, type ConfirmSetupIntentBody } from '../../../contract/payments';
import { PaymentProviderError, type PaymentProvider } from './payment-provider';

const token = (bytes = 12) => randomBytes(bytes).toString('hex');

/** The local provider: setup intents live in the database and the console confirms cards against this server. */
export function createLocalPaymentProvider(db: Queryable): PaymentProvider {
  return {
    kind: 'local',
    async createSetupIntent(account) {
      const id = `seti_local_${token()}`;
      const clientSecret = `${id}_secret_${token(16)}`;
      await insertSetupIntent(db, { id, clientSecret, billingAccountId: account.id });
      return { client_secret: clientSecret };
    },
    async attachPaymentMethod(account, paymentMethodId) {
      // Only a card confirmed for this very account can be attached to it.
      const intent = await findSucceededIntentForPaymentMethod(db, account.id, paymentMethodId);
      if (!intent) throw new PaymentProviderError('The payment method is unknown for this billing account.');
      return { label: intent.payment_method_label };
    },
    async addTaxId() {
      return { providerRef: null };
    },
    async chargeInvoice(_account, charge) {
      const rows = await db.query<{ charges_decline: boolean }>(
        "SELECT charges_decline FROM setup_intents WHERE payment_method_id = $1 AND status = 'succeeded'",
        [charge.paymentMethodId],
      );
      if (rows[0]?.charges_decline) return { paid: false, message: 'Your card was declined.' };
      return { paid: true, paymentRef: `ch_local_${token()}` };
    },
  };
}

export type CardCheck = { ok: true; brand: string; last4: string } | { ok: false; message: string; code: string; param?: string };

/** Luhn checksum, as every card network uses it. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function brandOf(digits: string): string {
  if (digits.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  return 'card';
}

/** The checks and the outcomes of the local provider's test cards, with the hosted provider's messages and codes. */
export function checkCard(card: ConfirmSetupIntentBody, now = new Date()): CardCheck {
  const digits = card.card_number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) {
    return { ok: false, message: 'Your card number is invalid.', code: 'invalid_number', param: 'card_number' };
  }
  if (card.exp_month < 1 || card.exp_month > 12) {
    return { ok: false, message: "Your card's expiration month is invalid.", code: 'invalid_expiry_month', param: 'exp_month' };
  }
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  const thisYear = now.getUTCFullYear();
  if (year < thisYear || year > thisYear + 50) {
    return { ok: false, message: "Your card's expiration year is invalid.", code: 'invalid_expiry_year', param: 'exp_year' };
  }
  if (year === thisYear && card.exp_month < now.getUTCMonth() + 1) {
    return { ok: false, message: "Your card's expiration date is in the past.", code: 'expired_card', param: 'exp_month' };
  }
  const cvcLength = brandOf(digits) === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(card.cvc)) {
    return { ok: false, message: "Your card's security code is invalid.", code: 'invalid_cvc', param: 'cvc' };
  }
  if (digits === LOCAL_TEST_CARDS.declined) return { ok: false, message: 'Your card was declined.', code: 'card_declined' };
  if (digits === LOCAL_TEST_CARDS.insufficientFunds) {
    return { ok: false, message: 'Your card has insufficient funds.', code: 'card_declined' };
  }
  return { ok: true, brand: brandOf(digits), last4: digits.slice(-4) };
}

export type ConfirmOutcome =
  | { kind: 'succeeded'; setupIntentId: string; paymentMethodId: string }
  | { kind: 'card-error'; message: string; code: string; param?: string }
  | { kind: 'unknown-intent' }
  | { kind: 'already-confirmed' };

/** Confirms a setup intent with a card, as the hosted provider's confirmCardSetup does. */
export async function confirmLocalSetupIntent(db: Queryable, clientSecret: string, card: ConfirmSetupIntentBody): Promise<ConfirmOutcome> {
  const intent = await findSetupIntentBySecret(db, clientSecret);
  if (!intent) return { kind: 'unknown-intent' };
  if (intent.status !== 'requires_payment_method') return { kind: 'already-confirmed' };
  const check = checkCard(card);
  if (!check.ok) return { kind: 'card-error', message: check.message, code: check.code, param: check.param };
  const paymentMethodId = `pm_local_${token()}`;
  const updated = await succeedSetupIntent(db, intent.id, paymentMethodId, `${check.brand} •••• ${check.last4}`);
  if (!updated) return { kind: 'already-confirmed' };
  if (card.card_number.replace(/[\s-]/g, '') === LOCAL_TEST_CARDS.chargeDeclined) {
    await db.query('UPDATE setup_intents SET charges_decline = true WHERE id = $1', [intent.id]);
  }
  return { kind: 'succeeded', setupIntentId: intent.id, paymentMethodId };
}

/** The intent a client secret belongs to (the API checks the caller may manage its billing account). */
export async function findLocalSetupIntent(db: Queryable, clientSecret: string) {
  return findSetupIntentBySecret(db, clientSecret);
}
