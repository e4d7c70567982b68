/**
 * Member removal: an owner removes a member from the organization through the delete-user modal (spec 000 section 2
 * "Delete-user modal", query action=delete-org-user-{id}).
 * States:
 * - closed       no modal
 * - confirming   the modal shows the warning (removed from all projects and integrations, cannot be undone)
 * - removing     DELETE organizations/user/{id}; the modal stays open with its button pending
 * - failed       the modal stays open with the error; confirm again or cancel
 * After a removal the modal closes (closed), the server's message is a success toast and the team is refetched.
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../error-message';

export interface MemberToRemove {
  id: string;
  name: string;
  email: string;
}

export interface MemberRemovalContext {
  member: MemberToRemove | null;
  error: string | null;
}

export type MemberRemovalEvent =
  | { type: 'removal.open'; member: MemberToRemove }
  | { type: 'removal.confirm' }
  | { type: 'removal.cancel' };

export const REMOVAL_FAILED_MESSAGE = 'The user could not be removed. Please try again.';

export const memberRemovalMachine = setup({
  types: {
    context: {} as MemberRemovalContext,
    events: {} as MemberRemovalEvent,
  },
  actors: {
    removeMember: fromPromise<{ message: string }, { userId: string }>(async () => {
      throw new Error('removeMember is provided where the actor is created');
    }),
  },
  actions: {
    // React-only effects, supplied with .provide() where the actor is created.
    notifyRemoved: (_, _params: { message: string }) => undefined,
    refreshMembers: () => undefined,
  },
}).createMachine({
  id: 'memberRemoval',
  context: { member: null, error: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'removal.open': { target: 'confirming', actions: assign({ member: ({ event }) => event.member, error: null }) } },
    },
    confirming: {
      on: {
        'removal.confirm': 'removing',
        'removal.cancel': { target: 'closed', actions: assign({ member: null }) },
      },
    },
    removing: {
      invoke: {
        id: 'removeMember',
        src: 'removeMember',
        input: ({ context }) => ({ userId: context.member!.id }),
        onDone: {
          target: 'closed',
          actions: [{ type: 'notifyRemoved', params: ({ event }) => ({ message: event.output.message }) }, 'refreshMembers', assign({ member: null })],
        },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorMessage(event.error, REMOVAL_FAILED_MESSAGE),
          }),
        },
      },
    },
    failed: {
      on: {
        'removal.confirm': { target: 'removing', actions: assign({ error: null }) },
        'removal.cancel': { target: 'closed', actions: assign({ member: null, error: null }) },
      },
    },
  },
});

export type MemberRemovalMachine = typeof memberRemovalMachine;
