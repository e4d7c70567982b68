/**
 * Cancel subscription: the confirm modal of a product page (spec 001 §4 "Cancel subscription: a confirm modal, then
 * on success a redirect to the stack page"; Grafana's cancel reaches every project of the organization).
 * States:
 * - closed       no modal
 * - confirming   the modal says what cancelling means; confirm or keep the subscription
 * - cancelling   POST integrations/{product}/cancel; the modal stays open with its buttons pending
 * - failed       the modal stays open with the error; confirm again or keep the subscription
 * - cancelled    done: the server's message is a toast with the cancellation date, the integrations are refetched
 *                and the person lands on the stack page
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../error-message';

export interface CancelSubscriptionInput {
  productSlug: string;
  projectId: number;
}

export interface CancelSubscriptionContext extends CancelSubscriptionInput {
  error: string | null;
}

export type CancelSubscriptionEvent = { type: 'cancel.open' } | { type: 'cancel.confirm' } | { type: 'cancel.keep' };

/** What POST integrations/{product}/cancel answers. */
export interface CancelSubscriptionOutput {
  message: string;
  cancellationDateTimestamp: number;
}

export const CANCEL_FAILED_MESSAGE = 'The subscription could not be cancelled. Please try again.';

export const cancelSubscriptionMachine = setup({
  types: {
    context: {} as CancelSubscriptionContext,
    events: {} as CancelSubscriptionEvent,
    input: {} as CancelSubscriptionInput,
  },
  actors: {
    cancelSubscription: fromPromise<CancelSubscriptionOutput, CancelSubscriptionInput>(async () => {
      throw new Error('cancelSubscription is provided where the actor is created');
    }),
  },
  actions: {
    // React-only effects, supplied with .provide() where the actor is created.
    notifyCancelled: (_, _params: CancelSubscriptionOutput) => undefined,
    openStack: () => undefined,
  },
}).createMachine({
  id: 'cancelSubscription',
  context: ({ input }) => ({ ...input, error: null }),
  initial: 'closed',
  states: {
    closed: {
      on: { 'cancel.open': { target: 'confirming', actions: assign({ error: null }) } },
    },
    confirming: {
      on: {
        'cancel.confirm': 'cancelling',
        'cancel.keep': 'closed',
      },
    },
    cancelling: {
      invoke: {
        id: 'cancelSubscription',
        src: 'cancelSubscription',
        input: ({ context }) => ({ productSlug: context.productSlug, projectId: context.projectId }),
        onDone: {
          target: 'cancelled',
          actions: [{ type: 'notifyCancelled', params: ({ event }) => event.output }, 'openStack'],
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorMessage(event.error, CANCEL_FAILED_MESSAGE) }),
        },
      },
    },
    failed: {
      on: {
        'cancel.confirm': { target: 'cancelling', actions: assign({ error: null }) },
        'cancel.keep': { target: 'closed', actions: assign({ error: null }) },
      },
    },
    cancelled: { type: 'final' },
  },
});

export type CancelSubscriptionMachine = typeof cancelSubscriptionMachine;
