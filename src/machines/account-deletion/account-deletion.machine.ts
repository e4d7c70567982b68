/**
 * Account deletion: the delete-account modal at /account/delete (spec 000 section 2 Account Settings, section 8
 * "Delete account errors show in a modal with Close; pending payments show 'You have pending payments' with a
 * 'Pay now' link").
 * States:
 * - closed           no modal
 * - confirming       the modal explains what is deleted and what is kept; Cancel or 'Delete my account'
 * - deleting         DELETE users; the modal stays with its button pending
 * - pendingPayments  the API refused because invoices are open: 'You have pending payments', 'Pay now' (the link of
 *                    the answer) and Close
 * - failed           any other refusal: its message and Close (or try again)
 * - deleted          the account is gone: the console signs out
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../error-message';

export interface AccountDeletionContext {
  error: string | null;
  paymentLink: string | null;
}

export type AccountDeletionEvent = { type: 'deletion.open' } | { type: 'deletion.confirm' } | { type: 'deletion.close' };

export const ACCOUNT_DELETION_FAILED = 'Your account could not be deleted. Please try again.';

/** The payment link of a 402 answer (pending payments), if the error carries one. */
export function paymentLinkOf(error: unknown): string | null {
  const body = (error as { body?: unknown } | null)?.body as { payment_link?: unknown; paymentLink?: unknown } | undefined;
  const link = body?.payment_link ?? body?.paymentLink;
  return typeof link === 'string' && link ? link : null;
}

const closed = { error: null, paymentLink: null };

export const accountDeletionMachine = setup({
  types: {
    context: {} as AccountDeletionContext,
    events: {} as AccountDeletionEvent,
  },
  actors: {
    deleteAccount: fromPromise<{ message: string }, void>(async () => {
      throw new Error('deleteAccount is provided where the actor is created');
    }),
  },
  guards: {
    pendingPayments: ({ event }) => paymentLinkOf((event as { error?: unknown }).error) !== null,
  },
  actions: {
    // React-only effects, supplied with .provide() where the actor is created.
    signOut: (_, _params: { message: string }) => undefined,
    leave: () => undefined,
  },
}).createMachine({
  id: 'accountDeletion',
  context: closed,
  initial: 'closed',
  states: {
    closed: { on: { 'deletion.open': { target: 'confirming', actions: assign(closed) } } },
    confirming: {
      on: {
        'deletion.confirm': 'deleting',
        'deletion.close': { target: 'closed', actions: 'leave' },
      },
    },
    deleting: {
      invoke: {
        id: 'deleteAccount',
        src: 'deleteAccount',
        onDone: { target: 'deleted', actions: { type: 'signOut', params: ({ event }) => ({ message: event.output.message }) } },
        onError: [
          { guard: 'pendingPayments', target: 'pendingPayments', actions: assign({ paymentLink: ({ event }) => paymentLinkOf(event.error) }) },
          {
            target: 'failed',
            actions: assign({
              error: ({ event }) => errorMessage(event.error, ACCOUNT_DELETION_FAILED),
            }),
          },
        ],
      },
    },
    pendingPayments: { on: { 'deletion.close': { target: 'closed', actions: [assign(closed), 'leave'] } } },
    failed: {
      on: {
        'deletion.confirm': { target: 'deleting', actions: assign({ error: null }) },
        'deletion.close': { target: 'closed', actions: [assign(closed), 'leave'] },
      },
    },
    deleted: { type: 'final' },
  },
});

export type AccountDeletionMachine = typeof accountDeletionMachine;
