/**
 * Card setup: add a card to a billing account (spec 000 section 4 "Card setup", section 5 card form, section 8 Card).
 * States:
 * - editing.idle        the card form is shown; nothing has been sent yet
 * - editing.incomplete  the last submit had empty fields: 'Please fill all the fields'
 * - editing.failed      the last attempt failed; its message is shown and every typed value is kept
 * - requestingSetup     POST billing/payment-methods/setup asks for a setup intent (client secret)
 * - confirmingCard      the payment provider confirms the card against that setup intent
 * - attaching           POST billing/payment-methods/attach records the confirmed card on the billing account
 * - attached            final: the card is on the billing account (output: the payment method id)
 *
 * A retry never redoes a step that succeeded: a setup intent whose card was declined stays usable (the provider
 * keeps it in requires_payment_method), and a confirmed card whose attach failed is attached again, not confirmed
 * again, so one attempt never leaves two cards behind.
 */
import { assign, fromPromise, setup } from 'xstate';

export const CARD_INCOMPLETE_MESSAGE = 'Please fill all the fields';
export const INVALID_CLIENT_SECRET_MESSAGE = 'The request to the payment setup did not return a valid client_secret';
export const MISSING_PAYMENT_METHOD_MESSAGE = 'User SetupIntent does not have a valid payment_method';

/** Name, address and phone sent to the payment provider with the card (its billing_details). */
export interface BillingDetails {
  address: string;
  address2: string;
  city: string;
  postalCode: string;
  country: string;
  phone: string;
}

export interface CardSetupInput {
  billingAccountId: number;
}

export interface CardSetupContext {
  billingAccountId: number;
  billingDetails: BillingDetails | null;
  clientSecret: string | null;
  paymentMethodId: string | null;
  error: string | null;
}

export type CardSetupEvent = {
  type: 'card.submit';
  /** False when an address field, the terms or the card details are missing (the view checks them). */
  complete: boolean;
  billingDetails: BillingDetails;
};

/** What the provider answers to a confirmation: a payment method, or the provider's own message. */
export type CardConfirmation = { paymentMethodId: string | null } | { error: string };

/** A client secret has the shape `<intent id>_secret_<secret>` at every provider we speak to. */
export function isValidClientSecret(secret: unknown): secret is string {
  return typeof secret === 'string' && /^[A-Za-z0-9]+_[A-Za-z0-9_]+_secret_[A-Za-z0-9]+$/.test(secret);
}

function messageOf(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}

export const cardSetupMachine = setup({
  types: {
    context: {} as CardSetupContext,
    events: {} as CardSetupEvent,
    input: {} as CardSetupInput,
    output: {} as { paymentMethodId: string },
  },
  actors: {
    requestSetupIntent: fromPromise<{ clientSecret: unknown }, { billingAccountId: number }>(async () => {
      throw new Error('requestSetupIntent is provided where the actor is created');
    }),
    confirmCard: fromPromise<CardConfirmation, { clientSecret: string; billingDetails: BillingDetails }>(async () => {
      throw new Error('confirmCard is provided by the card details in use (local fields or the hosted card element)');
    }),
    attachPaymentMethod: fromPromise<unknown, { billingAccountId: number; paymentMethodId: string }>(async () => {
      throw new Error('attachPaymentMethod is provided where the actor is created');
    }),
  },
  guards: {
    isIncomplete: ({ event }) => !event.complete,
    hasConfirmedCard: ({ context }) => context.paymentMethodId !== null,
    hasClientSecret: ({ context }) => context.clientSecret !== null,
    isValidSecret: (_, params: { clientSecret: unknown }) => isValidClientSecret(params.clientSecret),
    isProviderError: (_, params: { confirmation: CardConfirmation }) => 'error' in params.confirmation,
    hasPaymentMethod: (_, params: { confirmation: CardConfirmation }) =>
      'paymentMethodId' in params.confirmation && typeof params.confirmation.paymentMethodId === 'string' && params.confirmation.paymentMethodId !== '',
  },
  actions: {
    storeDetails: assign({ billingDetails: ({ event }) => event.billingDetails, error: null }),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    // React-only effects, supplied with .provide() where the actor is created.
    notifyFailure: (_, _params: { message: string }) => undefined,
  },
}).createMachine({
  id: 'cardSetup',
  initial: 'editing',
  context: ({ input }) => ({
    billingAccountId: input.billingAccountId,
    billingDetails: null,
    clientSecret: null,
    paymentMethodId: null,
    error: null,
  }),
  output: ({ context }) => ({ paymentMethodId: context.paymentMethodId ?? '' }),
  states: {
    editing: {
      initial: 'idle',
      states: {
        idle: {},
        incomplete: {},
        failed: {},
      },
      on: {
        // A retry starts at the first step that has not succeeded yet.
        'card.submit': [
          {
            guard: { type: 'isIncomplete' },
            target: '.incomplete',
            actions: { type: 'setError', params: { message: CARD_INCOMPLETE_MESSAGE } },
          },
          { guard: 'hasConfirmedCard', actions: 'storeDetails', target: '#cardSetup.attaching' },
          { guard: 'hasClientSecret', actions: 'storeDetails', target: '#cardSetup.confirmingCard' },
          { actions: 'storeDetails', target: '#cardSetup.requestingSetup' },
        ],
      },
    },
    requestingSetup: {
      invoke: {
        id: 'requestSetupIntent',
        src: 'requestSetupIntent',
        input: ({ context }) => ({ billingAccountId: context.billingAccountId }),
        onDone: [
          {
            guard: { type: 'isValidSecret', params: ({ event }) => ({ clientSecret: event.output.clientSecret }) },
            target: 'confirmingCard',
            actions: assign({ clientSecret: ({ event }) => event.output.clientSecret as string }),
          },
          {
            target: 'editing.failed',
            actions: [
              { type: 'setError', params: { message: INVALID_CLIENT_SECRET_MESSAGE } },
              { type: 'notifyFailure', params: { message: INVALID_CLIENT_SECRET_MESSAGE } },
            ],
          },
        ],
        onError: {
          target: 'editing.failed',
          actions: [
            { type: 'setError', params: ({ event }) => ({ message: messageOf(event.error, INVALID_CLIENT_SECRET_MESSAGE) }) },
            { type: 'notifyFailure', params: ({ event }) => ({ message: messageOf(event.error, INVALID_CLIENT_SECRET_MESSAGE) }) },
          ],
        },
      },
    },
    confirmingCard: {
      invoke: {
        id: 'confirmCard',
        src: 'confirmCard',
        input: ({ context }) => ({ clientSecret: context.clientSecret!, billingDetails: context.billingDetails! }),
        onDone: [
          {
            guard: { type: 'isProviderError', params: ({ event }) => ({ confirmation: event.output }) },
            target: 'editing.failed',
            actions: [
              { type: 'setError', params: ({ event }) => ({ message: (event.output as { error: string }).error }) },
              { type: 'notifyFailure', params: ({ event }) => ({ message: (event.output as { error: string }).error }) },
            ],
          },
          {
            guard: { type: 'hasPaymentMethod', params: ({ event }) => ({ confirmation: event.output }) },
            target: 'attaching',
            actions: assign({ paymentMethodId: ({ event }) => (event.output as { paymentMethodId: string }).paymentMethodId }),
          },
          {
            target: 'editing.failed',
            actions: [
              { type: 'setError', params: { message: MISSING_PAYMENT_METHOD_MESSAGE } },
              { type: 'notifyFailure', params: { message: MISSING_PAYMENT_METHOD_MESSAGE } },
            ],
          },
        ],
        onError: {
          target: 'editing.failed',
          actions: [
            { type: 'setError', params: ({ event }) => ({ message: messageOf(event.error, MISSING_PAYMENT_METHOD_MESSAGE) }) },
            { type: 'notifyFailure', params: ({ event }) => ({ message: messageOf(event.error, MISSING_PAYMENT_METHOD_MESSAGE) }) },
          ],
        },
      },
    },
    attaching: {
      invoke: {
        id: 'attachPaymentMethod',
        src: 'attachPaymentMethod',
        input: ({ context }) => ({ billingAccountId: context.billingAccountId, paymentMethodId: context.paymentMethodId! }),
        onDone: { target: 'attached' },
        onError: {
          target: 'editing.failed',
          actions: [
            { type: 'setError', params: ({ event }) => ({ message: messageOf(event.error, 'The card could not be saved. Please try again.') }) },
            { type: 'notifyFailure', params: ({ event }) => ({ message: messageOf(event.error, 'The card could not be saved. Please try again.') }) },
          ],
        },
      },
    },
    attached: { type: 'final' },
  },
});

export type CardSetupMachine = typeof cardSetupMachine;
