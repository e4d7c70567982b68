import type { Queryable } from '../../db/database';
import type { PaymentProvider } from './payment-provider';
import { createLocalPaymentProvider } from './local-payment-provider';
import { createStripePaymentProvider } from './stripe-payment-provider';

/** The hosted provider when a secret key is configured, the local one otherwise. */
export function createPaymentProvider(db: Queryable, config: { stripeSecretKey: string | undefined }): PaymentProvider {
  return config.stripeSecretKey ? createStripePaymentProvider({ secretKey: config.stripeSecretKey }) : createLocalPaymentProvider(db);
}
