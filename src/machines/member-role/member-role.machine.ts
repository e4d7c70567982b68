/**
 * Member role: an owner switches a non-owner between read-only and read-write (spec 000 section 4 "Member role",
 * section 7 GET users/promote), one actor per member row.
 * States:
 * - idle       the member's current role shows with the button that switches it
 * - changing   GET users/promote runs; the button shows its pending state and nothing else can be sent
 * - idle is entered again after the call: 'User promoted' (and the new role) or 'Failed to promote user'
 */
import { assign, fromPromise, setup } from 'xstate';

export const ROLE_CHANGED_MESSAGE = 'User promoted';
export const ROLE_CHANGE_FAILED_MESSAGE = 'Failed to promote user';

export interface MemberRoleInput {
  userId: string;
  organizationId: number;
  readOnly: boolean;
}

export interface MemberRoleContext extends MemberRoleInput {
  /** The role being requested while `changing`. */
  requestedReadOnly: boolean | null;
}

/** role.toggle asks for the other role (the only change there is); role.sync takes the role the team list reports. */
export type MemberRoleEvent = { type: 'role.toggle' } | { type: 'role.sync'; readOnly: boolean };

export const memberRoleMachine = setup({
  types: {
    context: {} as MemberRoleContext,
    events: {} as MemberRoleEvent,
    input: {} as MemberRoleInput,
  },
  actors: {
    changeRole: fromPromise<{ message: string }, { userId: string; organizationId: number; readOnly: boolean }>(async () => {
      throw new Error('changeRole is provided where the actor is created');
    }),
  },
  actions: {
    // React-only effects, supplied with .provide() where the actor is created: toasts and refetching the team.
    notifyChanged: (_, _params: { message: string }) => undefined,
    notifyFailed: (_, _params: { message: string }) => undefined,
    refreshMembers: () => undefined,
  },
}).createMachine({
  id: 'memberRole',
  context: ({ input }) => ({ ...input, requestedReadOnly: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'role.toggle': {
          target: 'changing',
          actions: assign({ requestedReadOnly: ({ context }) => !context.readOnly }),
        },
        // The refetched team list is the truth once it arrives (another owner's tab may have changed the role).
        'role.sync': { actions: assign({ readOnly: ({ event }) => event.readOnly }) },
      },
    },
    changing: {
      invoke: {
        id: 'changeRole',
        src: 'changeRole',
        input: ({ context }) => ({ userId: context.userId, organizationId: context.organizationId, readOnly: context.requestedReadOnly! }),
        onDone: {
          target: 'idle',
          actions: [
            assign(({ context }) => ({ readOnly: context.requestedReadOnly!, requestedReadOnly: null })),
            { type: 'notifyChanged', params: ({ event }) => ({ message: event.output.message || ROLE_CHANGED_MESSAGE }) },
            'refreshMembers',
          ],
        },
        onError: {
          target: 'idle',
          actions: [assign({ requestedReadOnly: null }), { type: 'notifyFailed', params: { message: ROLE_CHANGE_FAILED_MESSAGE } }, 'refreshMembers'],
        },
      },
    },
  },
});

export type MemberRoleMachine = typeof memberRoleMachine;
