// The hosted provider's card element. Loaded lazily and only when card mock mode is off: importing the provider's
// main entry would inject its script even unused, so only `@stripe/stripe-js/pure` is imported, here.
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useEffect, useMemo, useState } from 'react';
import { css } from 'styled-system/css';
import type { CardDetailsProps } from './card-details';

const loaded = new Map<string, Promise<Stripe | null>>();

function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let promise = loaded.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey);
    loaded.set(publishableKey, promise);
  }
  return promise;
}

function CardElementFields({ disabled, onChange }: CardDetailsProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [complete, setComplete] = useState(false);

  useEffect(() => {
    onChange({
      complete,
      confirm:
        stripe && elements
          ? async (clientSecret, details) => {
              const card = elements.getElement(CardElement);
              if (!card) return { error: 'The card form is not ready yet. Please try again.' };
              const result = await stripe.confirmCardSetup(clientSecret, {
                payment_method: {
                  card,
                  billing_details: {
                    phone: details.phone,
                    address: {
                      line1: details.address,
                      line2: details.address2 || undefined,
                      city: details.city,
                      postal_code: details.postalCode,
                      country: details.country,
                    },
                  },
                },
              });
              if (result.error) return { error: result.error.message ?? 'Your card could not be confirmed.' };
              const method = result.setupIntent.payment_method;
              return { paymentMethodId: typeof method === 'string' ? method : (method?.id ?? null) };
            }
          : null,
    });
  }, [stripe, elements, complete, onChange]);

  return (
    <div className={css({ borderWidth: '1px', borderColor: 'border', borderRadius: 'l2', px: '3', py: '2.5' })} aria-label="Card details">
      <CardElement options={{ disabled, hidePostalCode: true }} onChange={(event) => setComplete(event.complete)} />
    </div>
  );
}

export function StripeCardFields({ publishableKey, ...props }: CardDetailsProps & { publishableKey: string }) {
  const stripe = useMemo(() => stripeFor(publishableKey), [publishableKey]);
  return (
    <Elements stripe={stripe}>
      <CardElementFields {...props} />
    </Elements>
  );
}
