import { describe, expect, it } from 'vitest';
import { createStripePaymentProvider, formEncode, type FetchLike } from '../../server/adapters/payments/stripe-payment-provider';
import { checkCard, passesLuhn } from '../../server/adapters/payments/local-payment-provider';
import { PaymentProviderError } from '../../server/adapters/payments/payment-provider';

// The hosted provider cannot be reached from here: its requests are checked against a fake fetch.
function fakeFetch(replies: Record<string, { status?: number; body: unknown }>) {
  const calls: { url: string; method: string; headers: Record<string, string>; body: string }[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, method: init.method, headers: init.headers, body: init.body ?? '' });
    const path = new URL(url).pathname;
    const reply = replies[path] ?? { status: 404, body: { error: { message: `no fake for ${path}` } } };
    const status = reply.status ?? 200;
    return { ok: status < 400, status, json: async () => reply.body };
  };
  return { fetch, calls };
}

const account = { id: 7, name: 'Acme billing', customerRef: 'cus_123', ownerEmail: 'demo@example.com' };

describe('hosted card provider request building', () => {
  it('encodes nested parameters the way the provider expects', () => {
    expect(formEncode({ a: 1, b: { c: 'x y', d: { e: true } }, list: ['card', 'sepa'], skip: undefined })).toEqual([
      'a=1',
      'b%5Bc%5D=x%20y',
      'b%5Bd%5D%5Be%5D=true',
      'list%5B0%5D=card',
      'list%5B1%5D=sepa',
    ]);
  });

  it('creates a customer with an idempotency key, then a setup intent for it', async () => {
    const { fetch, calls } = fakeFetch({
      '/v1/customers': { body: { id: 'cus_new' } },
      '/v1/setup_intents': { body: { id: 'seti_1', client_secret: 'seti_1_secret_x' } },
    });
    const provider = createStripePaymentProvider({ secretKey: 'sk_test_abc', fetch });
    const customer = await provider.createCustomer!({ ...account, customerRef: null });
    expect(customer).toBe('cus_new');
    const intent = await provider.createSetupIntent({ ...account, customerRef: customer });
    expect(intent).toEqual({ client_secret: 'seti_1_secret_x' });
    expect(calls[0]).toMatchObject({ url: 'https://api.stripe.com/v1/customers', method: 'POST' });
    expect(calls[0].headers).toMatchObject({ authorization: 'Bearer sk_test_abc', 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': 'customer-7' });
    expect(new URLSearchParams(calls[0].body).get('metadata[billing_account_id]')).toBe('7');
    expect(new URLSearchParams(calls[1].body).get('customer')).toBe('cus_new');
    expect(new URLSearchParams(calls[1].body).get('usage')).toBe('off_session');
  });

  it('attaches the payment method and makes it the default, returning a display label', async () => {
    const { fetch, calls } = fakeFetch({
      '/v1/payment_methods/pm_1/attach': { body: { id: 'pm_1', card: { brand: 'visa', last4: '4242' } } },
      '/v1/customers/cus_123': { body: { id: 'cus_123' } },
    });
    const provider = createStripePaymentProvider({ secretKey: 'sk', fetch });
    expect(await provider.attachPaymentMethod(account, 'pm_1')).toEqual({ label: 'visa •••• 4242' });
    expect(new URLSearchParams(calls[1].body).get('invoice_settings[default_payment_method]')).toBe('pm_1');
  });

  it('adds a tax id and turns provider refusals into PaymentProviderError with its message', async () => {
    const { fetch } = fakeFetch({
      '/v1/customers/cus_123/tax_ids': { status: 400, body: { error: { message: 'Invalid value for eu_vat.' } } },
    });
    const provider = createStripePaymentProvider({ secretKey: 'sk', fetch });
    const error = await provider.addTaxId(account, { type: 'eu_vat', value: 'bad' }).catch((e) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect(error.message).toBe('Invalid value for eu_vat.');
    expect(error.status).toBe(400);
  });

  it('deletes a customer; one the provider no longer has counts as deleted; a failure is an error', async () => {
    const { fetch, calls } = fakeFetch({ '/v1/customers/cus_123': { body: { id: 'cus_123', deleted: true } } });
    const provider = createStripePaymentProvider({ secretKey: 'sk_live_x', fetch });
    await provider.deleteCustomer!('cus_123');
    expect(calls[0]).toMatchObject({ url: 'https://api.stripe.com/v1/customers/cus_123', method: 'DELETE' });
    expect(calls[0].headers.authorization).toBe('Bearer sk_live_x');
    // No fake for this path: the fake answers 404, as the provider does for a customer already deleted.
    await expect(provider.deleteCustomer!('cus_gone')).resolves.toBeUndefined();
    const down = createStripePaymentProvider({ secretKey: 'sk', fetch: fakeFetch({ '/v1/customers/cus_1': { status: 500, body: { error: { message: 'Try again later.' } } } }).fetch });
    const error = await down.deleteCustomer!('cus_1').catch((e) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect(error).toMatchObject({ message: 'Try again later.', status: 502 });
  });

  it('refuses to create a setup intent without a customer', async () => {
    const provider = createStripePaymentProvider({ secretKey: 'sk', fetch: fakeFetch({}).fetch });
    await expect(provider.createSetupIntent({ ...account, customerRef: null })).rejects.toBeInstanceOf(PaymentProviderError);
  });
});

describe('local card checks', () => {
  const year = new Date().getUTCFullYear() + 1;
  it('Luhn', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4000000000000002')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
  });
  it('accepts the success card, declines the decline cards, and names the wrong field', () => {
    expect(checkCard({ card_number: '4242 4242 4242 4242', exp_month: 1, exp_year: year, cvc: '123' })).toEqual({ ok: true, brand: 'visa', last4: '4242' });
    expect(checkCard({ card_number: '4000000000000002', exp_month: 1, exp_year: year, cvc: '123' })).toMatchObject({ ok: false, code: 'card_declined', message: 'Your card was declined.' });
    expect(checkCard({ card_number: '4000000000009995', exp_month: 1, exp_year: year, cvc: '123' })).toMatchObject({ ok: false, message: 'Your card has insufficient funds.' });
    expect(checkCard({ card_number: '378282246310005', exp_month: 1, exp_year: year, cvc: '123' })).toMatchObject({ ok: false, code: 'invalid_cvc' });
    expect(checkCard({ card_number: '378282246310005', exp_month: 1, exp_year: year, cvc: '1234' })).toMatchObject({ ok: true, brand: 'amex' });
    const now = new Date(Date.UTC(2030, 5, 15));
    expect(checkCard({ card_number: '4242424242424242', exp_month: 5, exp_year: 2030, cvc: '123' }, now)).toMatchObject({ code: 'expired_card' });
    expect(checkCard({ card_number: '4242424242424242', exp_month: 6, exp_year: 30, cvc: '123' }, now)).toMatchObject({ ok: true });
  });
});
