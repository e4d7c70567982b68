// The card form with its card-setup actor and the card details of the mode in use: the local provider's fields in
// card mock mode (the default against the local platform), otherwise the hosted provider's card element, loaded
// lazily so that its script is only fetched when it is really used.
import { useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { lazy, Suspense, useCallback, useEffect, useRef, type ReactNode } from 'react';
import { fromPromise } from 'xstate';
import { settings } from '../../config/settings';
import { cardSetupMachine, type BillingDetails } from '../../machines/card-setup/card-setup.machine';
import { attachPaymentMethod, getPaymentConfig, requestSetupIntent } from '../../services/billing';
import { Spinner } from '../../components/ui/spinner';
import type { CardDetailsProps, CardDetailsState } from './card-details';
import { CardForm } from './card-form';
import { LocalCardFields } from './local-card-fields';

const StripeCardFields = lazy(async () => ({ default: (await import('./stripe-card-fields')).StripeCardFields }));

export interface CardSetupPanelProps {
  billingAccountId: number;
  onAttached: (paymentMethodId: string) => void;
  /** Toast for a failed step (the wizard says 'Error while creating organization'). */
  onFailure?: (message: string) => void;
  submitLabel?: string;
  secondaryAction?: ReactNode;
}

export function CardSetupPanel({ billingAccountId, onAttached, onFailure, submitLabel, secondaryAction }: CardSetupPanelProps) {
  const details = useRef<CardDetailsState>({ complete: false, confirm: null });
  const failure = useRef(onFailure);
  failure.current = onFailure;
  const config = useQuery({ queryKey: ['stripe', 'config'], queryFn: getPaymentConfig, staleTime: 60 * 60 * 1000, enabled: !settings.cardMock });

  const actor = useActorRef(
    cardSetupMachine.provide({
      actors: {
        requestSetupIntent: fromPromise(({ input }) => requestSetupIntent(input.billingAccountId)),
        confirmCard: fromPromise(async ({ input }: { input: { clientSecret: string; billingDetails: BillingDetails } }) => {
          const confirm = details.current.confirm;
          if (!confirm) return { error: 'Please fill all the fields' };
          return confirm(input.clientSecret, input.billingDetails);
        }),
        attachPaymentMethod: fromPromise(({ input }) => attachPaymentMethod(input.billingAccountId, input.paymentMethodId)),
      },
      actions: { notifyFailure: (_, params) => failure.current?.(params.message) },
    }),
    { input: { billingAccountId } },
  );
  const attached = useSelector(actor, (s) => (s.status === 'done' ? s.output?.paymentMethodId ?? null : null));
  useEffect(() => {
    if (attached) onAttached(attached);
  }, [attached, onAttached]);

  const onDetailsChange = useCallback((state: CardDetailsState) => {
    details.current = state;
  }, []);

  const publishableKey = config.data?.publishableKey ?? (settings.paymentPublicKey.startsWith('pk_local') ? null : settings.paymentPublicKey);
  const renderDetails = (props: CardDetailsProps) => {
    if (settings.cardMock || config.data?.mock) return <LocalCardFields {...props} />;
    if (config.isPending) return <Spinner />;
    if (!publishableKey) return <LocalCardFields {...props} />;
    return (
      <Suspense fallback={<Spinner />}>
        <StripeCardFields publishableKey={publishableKey} {...props} />
      </Suspense>
    );
  };

  return <CardForm actor={actor} renderDetails={renderDetails} onDetailsChange={onDetailsChange} submitLabel={submitLabel} secondaryAction={secondaryAction} />;
}
