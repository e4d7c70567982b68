// The card payment provider behind one small interface: the local provider (default, the spec's "card mock mode")
// and the hosted provider when a secret key is configured. Routes never know which one runs.

export interface BillingAccountRef {
  id: number;
  name: string;
  /** The provider's customer id, when one was created. */
  customerRef: string | null;
  ownerEmail: string;
}

export interface PaymentProvider {
  readonly kind: 'local' | 'stripe';
  /** Providers that keep customers create one before the first setup intent; the caller stores the id. */
  createCustomer?(account: BillingAccountRef): Promise<string>;
  createSetupIntent(account: BillingAccountRef): Promise<{ client_secret: string }>;
  /** Makes the payment method the account's card; returns a short label for display (brand and last four). */
  attachPaymentMethod(account: BillingAccountRef, paymentMethodId: string): Promise<{ label: string | null }>;
  addTaxId(account: BillingAccountRef, taxId: { type: string; value: string }): Promise<{ providerRef: string | null }>;
  /** Removes a tax id the provider keeps (providerRef from addTaxId). */
  removeTaxId?(account: BillingAccountRef, providerRef: string): Promise<void>;
  /**
   * Removes a customer the provider keeps (an unfinished billing account being cleaned up). A customer the provider
   * no longer has counts as removed, so a pass that failed after the provider's answer can simply run again.
   */
  deleteCustomer?(customerRef: string): Promise<void>;
  /** Charges an invoice to the card on file, off-session. A refusal is an answer (declined), not an exception. */
  chargeInvoice?(account: BillingAccountRef, charge: InvoiceCharge): Promise<ChargeOutcome>;
}

export interface InvoiceCharge {
  invoiceId: number;
  amountCents: number;
  currency: string;
  description: string;
  paymentMethodId: string;
}

export type ChargeOutcome = { paid: true; paymentRef: string } | { paid: false; message: string };

/** A refusal by the provider that the person can act on (unknown payment method, tax id rejected ...). */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}
