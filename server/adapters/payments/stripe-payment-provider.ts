import { PaymentProviderError, type PaymentProvider } from './payment-provider';

// The hosted card provider over its REST API (form-encoded bodies, bearer secret key). Kept small on purpose:
// only the calls the console's card, tax, invoice and clean-up flows need.

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<{
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}>;

export interface StripeOptions {
  secretKey: string;
  fetch?: FetchLike;
  apiBase?: string;
}

/** Flattens `{a: {b: 1}}` into `a[b]=1`, the provider's form encoding. */
export function formEncode(params: Record<string, unknown>, prefix = ''): string[] {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const name = prefix ? `${prefix}[${key}]` : key;
    if (typeof value === 'object' && !Array.isArray(value)) parts.push(...formEncode(value as Record<string, unknown>, name));
    else if (Array.isArray(value)) value.forEach((v, i) => parts.push(`${encodeURIComponent(`${name}[${i}]`)}=${encodeURIComponent(String(v))}`));
    else parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts;
}

/** The provider's refusal as the console reports it: its own message, 502 when the provider failed, else 400. */
function refusal(status: number, body: { error?: { message?: string } }): PaymentProviderError {
  return new PaymentProviderError(body.error?.message ?? 'The payment provider refused the request.', status >= 500 ? 502 : 400);
}

export function createStripePaymentProvider(options: StripeOptions): PaymentProvider {
  const doFetch: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const base = options.apiBase ?? 'https://api.stripe.com/v1';

  async function call<T>(method: string, path: string, params: Record<string, unknown> = {}, idempotencyKey?: string): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
    };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const response = await doFetch(`${base}${path}`, { method, headers, body: formEncode(params).join('&') });
    const body = (await response.json()) as { error?: { message?: string } } & T;
    if (!response.ok) throw refusal(response.status, body);
    return body;
  }

  const requireCustomer = (ref: string | null): string => {
    if (!ref) throw new PaymentProviderError('The billing account has no customer at the payment provider yet.');
    return ref;
  };

  return {
    kind: 'stripe',
    async createCustomer(account) {
      const customer = await call<{ id: string }>('POST', '/customers', {
        name: account.name,
        email: account.ownerEmail,
        metadata: { billing_account_id: account.id },
      }, `customer-${account.id}`);
      return customer.id;
    },
    async createSetupIntent(account) {
      const intent = await call<{ client_secret: string }>('POST', '/setup_intents', {
        customer: requireCustomer(account.customerRef),
        usage: 'off_session',
        payment_method_types: ['card'],
      });
      return { client_secret: intent.client_secret };
    },
    async attachPaymentMethod(account, paymentMethodId) {
      const customer = requireCustomer(account.customerRef);
      const pm = await call<{ card?: { brand?: string; last4?: string } }>('POST', `/payment_methods/${encodeURIComponent(paymentMethodId)}/attach`, { customer });
      await call('POST', `/customers/${encodeURIComponent(customer)}`, { invoice_settings: { default_payment_method: paymentMethodId } });
      return { label: pm.card?.last4 ? `${pm.card.brand ?? 'card'} •••• ${pm.card.last4}` : null };
    },
    async addTaxId(account, taxId) {
      const created = await call<{ id: string }>('POST', `/customers/${encodeURIComponent(requireCustomer(account.customerRef))}/tax_ids`, taxId);
      return { providerRef: created.id };
    },
    async removeTaxId(account, providerRef) {
      await call('DELETE', `/customers/${encodeURIComponent(requireCustomer(account.customerRef))}/tax_ids/${encodeURIComponent(providerRef)}`, {});
    },
    async deleteCustomer(customerRef) {
      const response = await doFetch(`${base}/customers/${encodeURIComponent(customerRef)}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${options.secretKey}` },
      });
      if (response.ok || response.status === 404) return;
      throw refusal(response.status, (await response.json().catch(() => ({}))) as { error?: { message?: string } });
    },
    async chargeInvoice(account, charge) {
      // An off-session PaymentIntent on the card on file; a decline is an answer the ledger records on the invoice.
      try {
        const intent = await call<{ id: string; status: string }>(
          'POST',
          '/payment_intents',
          {
            customer: requireCustomer(account.customerRef),
            amount: charge.amountCents,
            currency: charge.currency,
            payment_method: charge.paymentMethodId,
            off_session: true,
            confirm: true,
            description: charge.description,
            metadata: { invoice_id: charge.invoiceId },
          },
          `invoice-${charge.invoiceId}`,
        );
        return intent.status === 'succeeded' ? { paid: true, paymentRef: intent.id } : { paid: false, message: `The payment is ${intent.status}.` };
      } catch (error) {
        if (error instanceof PaymentProviderError) return { paid: false, message: error.message };
        throw error;
      }
    },
  };
}
