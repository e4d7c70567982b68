/**
 * Hepic role confirm: an admin changes a Hepic user's group on the Config page (spec 001 §2 Hepic Config, §4 Hepic
 * role change, §7 UPDATE_HEPIC_USER_ROLE and CANCEL_UPDATE_HEPIC_USER_ROLE), one actor per user row.
 * States:
 * - idle        the row's select shows the saved group
 * - requesting  a group was chosen: the change is sent without the confirmed flag; the server answers the prompt
 * - confirming  the 'Update user role' modal: 'You will change the role of {name} to {role}.' with Cancel and Confirm
 * - saving      Confirm: the change is sent with the confirmed flag (UPDATE_HEPIC_USER_ROLE)
 * - cancelling  Cancel: the previous group is re-submitted (CANCEL_UPDATE_HEPIC_USER_ROLE), the select shows it again
 */
import { assign, fromPromise, setup } from 'xstate';
import type { HepicGroup } from '../../../contract/hepic';
import { errorMessage } from '../error-message';

export interface HepicRoleInput {
  userId: string;
  name: string;
  group: HepicGroup;
}

export interface HepicRoleContext extends HepicRoleInput {
  /** The group chosen in the select, while it is being confirmed or saved. */
  requested: HepicGroup | null;
  /** The server's confirm prompt, shown in the modal. */
  prompt: string | null;
}

export type HepicRoleEvent =
  | { type: 'role.select'; group: HepicGroup }
  | { type: 'role.confirm' }
  | { type: 'role.cancel' }
  | { type: 'role.sync'; group: HepicGroup };

export interface RoleCall {
  userId: string;
  group: HepicGroup;
}

export const hepicRoleConfirmMachine = setup({
  types: {
    context: {} as HepicRoleContext,
    events: {} as HepicRoleEvent,
    input: {} as HepicRoleInput,
  },
  actors: {
    requestConfirm: fromPromise<{ message: string }, RoleCall>(async () => {
      throw new Error('requestConfirm is provided where the actor is created');
    }),
    saveRole: fromPromise<{ message: string }, RoleCall>(async () => {
      throw new Error('saveRole is provided where the actor is created');
    }),
    restoreRole: fromPromise<{ message: string }, RoleCall>(async () => {
      throw new Error('restoreRole is provided where the actor is created');
    }),
  },
  guards: {
    isOtherGroup: ({ context, event }) => event.type === 'role.select' && event.group !== context.group,
  },
  actions: {
    // React-only effects, supplied with .provide() where the actor is created: toasts and refetching the list.
    notifyUpdated: (_, _params: { message: string }) => undefined,
    notifyFailed: (_, _params: { message: string }) => undefined,
    refreshUsers: () => undefined,
  },
}).createMachine({
  id: 'hepicRoleConfirm',
  context: ({ input }) => ({ ...input, requested: null, prompt: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'role.select': { guard: 'isOtherGroup', target: 'requesting', actions: assign({ requested: ({ event }) => event.group }) },
        'role.sync': { actions: assign({ group: ({ event }) => event.group }) },
      },
    },
    requesting: {
      invoke: {
        id: 'requestConfirm',
        src: 'requestConfirm',
        input: ({ context }) => ({ userId: context.userId, group: context.requested! }),
        onDone: { target: 'confirming', actions: assign({ prompt: ({ event }) => event.output.message }) },
        onError: {
          target: 'idle',
          actions: [assign({ requested: null }), { type: 'notifyFailed', params: ({ event }) => ({ message: errorText(event.error) }) }],
        },
      },
    },
    confirming: {
      on: {
        'role.confirm': 'saving',
        'role.cancel': 'cancelling',
      },
    },
    saving: {
      invoke: {
        id: 'saveRole',
        src: 'saveRole',
        input: ({ context }) => ({ userId: context.userId, group: context.requested! }),
        onDone: {
          target: 'idle',
          actions: [
            assign(({ context }) => ({ group: context.requested!, requested: null, prompt: null })),
            { type: 'notifyUpdated', params: ({ event }) => ({ message: event.output.message }) },
            'refreshUsers',
          ],
        },
        onError: {
          target: 'idle',
          actions: [assign({ requested: null, prompt: null }), { type: 'notifyFailed', params: ({ event }) => ({ message: errorText(event.error) }) }, 'refreshUsers'],
        },
      },
    },
    cancelling: {
      invoke: {
        id: 'restoreRole',
        src: 'restoreRole',
        input: ({ context }) => ({ userId: context.userId, group: context.group }),
        // Either way the saved group stands: the select shows it again.
        onDone: { target: 'idle', actions: assign({ requested: null, prompt: null }) },
        onError: {
          target: 'idle',
          actions: [assign({ requested: null, prompt: null }), { type: 'notifyFailed', params: ({ event }) => ({ message: errorText(event.error) }) }],
        },
      },
    },
  },
});

const errorText = (error: unknown) => errorMessage(error, 'The role could not be changed.');

export type HepicRoleConfirmMachine = typeof hepicRoleConfirmMachine;
