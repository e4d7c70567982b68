// Billing calls of the console (spec 000 section 7 Billing) and the local card provider's confirmation, which stands
// in for the hosted provider's confirmCardSetup in card mock mode.
import { Schema } from 'effect';
import { MessageResponse } from '../../contract/common';
import { InvoiceList } from '../../contract/invoices';
import {
  AddTaxIdResponse,
  AttachPaymentMethodResponse,
  BillingAccountIdResponse,
  CreateBillingAccountResponse,
  CurrentBillingResponse,
  UnfinishedBillingAccountList,
  PaymentConfigResponse,
} from '../../contract/billing';
import { ConfirmSetupIntentResponse } from '../../contract/payments';
import { resolveUrl, settings } from '../config/settings';
import { getAccessToken } from './auth';
import { http } from './http';

export function getCurrentBilling() {
  return http.get('billing/current', CurrentBillingResponse);
}

/**
 * The id of the user's billing account with this name (or null), whether a card is attached to it, and whether it is
 * their unfinished one (opened by the create-organization wizard, no organization yet).
 */
export async function findBillingAccountIdByName(name: string): Promise<{ billingAccountId: number | null; hasPaymentMethod?: boolean; unfinished?: boolean }> {
  return http.get('stripe/billing-account-id', BillingAccountIdResponse, { searchParams: { name } });
}

/** POST billing/; `forOrganization` marks the create-organization wizard's account, which its owner may resume. */
export function createBillingAccount(name: string, options: { forOrganization?: boolean } = {}) {
  return http.post('billing/', CreateBillingAccountResponse, { json: { name, default: false, ...(options.forOrganization ? { forOrganization: true } : {}) } });
}

/** GET billing/unfinished: the user's unfinished organization billing accounts, newest first. */
export async function listUnfinishedBillingAccounts() {
  return (await http.get('billing/unfinished', UnfinishedBillingAccountList)).billingAccounts;
}

export function getPaymentConfig() {
  return http.get('stripe/config', PaymentConfigResponse);
}

/** Asks for a setup intent; the machine checks the client secret's shape itself. */
export async function requestSetupIntent(billingAccountId: number): Promise<{ clientSecret: unknown }> {
  // Decoded loosely on purpose: a missing or malformed client_secret is a case the card flow reports in words.
  const answer = await http.post('billing/payment-methods/setup', Schema.Struct({ client_secret: Schema.optionalKey(Schema.Unknown) }), {
    json: { billingAccountId },
  });
  return { clientSecret: answer.clientSecret };
}

export function attachPaymentMethod(billingAccountId: number, paymentMethodId: string) {
  return http.post('billing/payment-methods/attach', AttachPaymentMethodResponse, { json: { billingAccountId, paymentMethodId } });
}

export interface LocalCardDetails {
  cardNumber: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  name?: string;
}

/**
 * Confirms a card with the platform's local payment provider. Not through the shared HTTP client: like the hosted
 * provider's script, a refused card is an answer (the provider's message), not an API error to toast or report.
 */
export async function confirmLocalCardSetup(
  clientSecret: string,
  card: LocalCardDetails,
  signal?: AbortSignal,
): Promise<{ paymentMethodId: string | null } | { error: string }> {
  const base = resolveUrl(settings.apiUrl, globalThis.location?.origin ?? 'http://localhost');
  const token = await getAccessToken();
  const response = await fetch(new URL(`payments/local/setup-intents/${encodeURIComponent(clientSecret)}/confirm`, base), {
    method: 'POST',
    signal,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ card_number: card.cardNumber, exp_month: card.expMonth, exp_year: card.expYear, cvc: card.cvc, ...(card.name ? { name: card.name } : {}) }),
  });
  const body = (await response.json().catch(() => null)) as unknown;
  if (response.ok) {
    const decoded = Schema.decodeUnknownOption(ConfirmSetupIntentResponse)(body);
    return { paymentMethodId: decoded._tag === 'Some' ? decoded.value.setup_intent.payment_method : null };
  }
  const error = (body as { error?: { message?: unknown }; message?: unknown } | null) ?? null;
  if (error && typeof error.error?.message === 'string') return { error: error.error.message };
  if (error && typeof error.message === 'string') return { error: error.message };
  return { error: 'The card could not be confirmed. Please try again.' };
}

/** POST billing/tax-id: country and type from the table of tax id types, value in the type's format. */
export function addTaxId(input: { billingAccountId: number; country: string; type: string; value: string }) {
  return http.post('billing/tax-id', AddTaxIdResponse, { json: input });
}

/** DELETE billing/tax-id: removes a tax id of the account (and at the hosted provider). */
export function removeTaxId(input: { billingAccountId: number; taxId: number }) {
  return http.delete('billing/tax-id', MessageResponse, { searchParams: { billing_account_id: input.billingAccountId, tax_id: input.taxId } });
}

/** GET billing/invoices: the ledger of the account that pays in the current mode. */
export function listInvoices() {
  return http.get('billing/invoices', InvoiceList);
}
