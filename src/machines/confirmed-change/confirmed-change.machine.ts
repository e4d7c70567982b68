/**
 * A change that a modal asks to confirm (qryn: deleting a token with action=delete-token, changing the retention
 * policy with modal=open; the organization: deleting a pending invitation): the subject is chosen, the modal says
 * what will happen, confirming applies it.
 * States:
 * - closed       no modal
 * - confirming   the modal names the subject; Cancel / the confirm button
 * - applying     the call runs; the modal stays open with its buttons pending
 * - failed       the modal stays open with the reason; confirm again or cancel
 * After the change the modal closes (closed): the server's message is a success toast and the data is refetched.
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../error-message';

export const CHANGE_FAILED_MESSAGE = 'The change could not be made. Please try again.';

export interface ChangeSubject {
  id: string;
  label: string;
}

export interface ConfirmedChangeContext {
  subject: ChangeSubject | null;
  error: string | null;
}

export type ConfirmedChangeEvent = { type: 'change.open'; subject: ChangeSubject } | { type: 'change.confirm' } | { type: 'change.cancel' };

export const confirmedChangeMachine = setup({
  types: { context: {} as ConfirmedChangeContext, events: {} as ConfirmedChangeEvent },
  actors: {
    applyChange: fromPromise<{ message: string }, ChangeSubject>(async () => {
      throw new Error('applyChange is provided where the actor is created');
    }),
  },
  actions: {
    notifyApplied: (_, _params: { message: string }) => undefined,
    refresh: () => undefined,
  },
}).createMachine({
  id: 'confirmedChange',
  context: { subject: null, error: null },
  initial: 'closed',
  states: {
    closed: { on: { 'change.open': { target: 'confirming', actions: assign({ subject: ({ event }) => event.subject, error: null }) } } },
    confirming: {
      on: {
        'change.confirm': 'applying',
        'change.cancel': { target: 'closed', actions: assign({ subject: null }) },
      },
    },
    applying: {
      invoke: {
        id: 'applyChange',
        src: 'applyChange',
        input: ({ context }) => context.subject!,
        onDone: {
          target: 'closed',
          actions: [{ type: 'notifyApplied', params: ({ event }) => ({ message: event.output.message }) }, 'refresh', assign({ subject: null })],
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error, CHANGE_FAILED_MESSAGE) }) },
      },
    },
    failed: {
      on: {
        'change.confirm': { target: 'applying', actions: assign({ error: null }) },
        'change.cancel': { target: 'closed', actions: assign({ subject: null, error: null }) },
      },
    },
  },
});

export type ConfirmedChangeMachine = typeof confirmedChangeMachine;
