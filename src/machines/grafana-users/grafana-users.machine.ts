/**
 * Adding project members to Grafana ('Manage users from Grafana', spec 001 §2 Grafana, §5 Grafana).
 * States:
 * - selecting   members are ticked; Add checks that at least one is ('You need to select at least one user')
 * - adding      POST integrations/grafana/users; the list is locked
 * - failed      the server refused: its reason above the list; change the selection or add again
 * After a success the selection clears, the server's message is a success toast and the users are refetched.
 */
import { assign, fromPromise, setup } from 'xstate';
import { SELECT_USER_MESSAGE } from '../../../contract/grafana';
import { errorMessage } from '../error-message';

export interface GrafanaCandidate {
  id: string;
  name: string;
  email: string;
}

export interface GrafanaUsersContext {
  selected: GrafanaCandidate[];
  error: string | null;
}

export type GrafanaUsersEvent = { type: 'users.toggle'; user: GrafanaCandidate } | { type: 'users.submit' };

export const USERS_FAILED_MESSAGE = 'The users could not be added to Grafana. Please try again.';


export const grafanaUsersMachine = setup({
  types: {
    context: {} as GrafanaUsersContext,
    events: {} as GrafanaUsersEvent,
  },
  actors: {
    addUsers: fromPromise<{ message: string }, { users: GrafanaCandidate[] }>(async () => {
      throw new Error('addUsers is provided where the actor is created');
    }),
  },
  guards: {
    someSelected: ({ context }) => context.selected.length > 0,
  },
  actions: {
    toggle: assign(({ context, event }) => {
      if (event.type !== 'users.toggle') return {};
      const selected = context.selected.some((u) => u.id === event.user.id) ? context.selected.filter((u) => u.id !== event.user.id) : [...context.selected, event.user];
      return { selected, error: null };
    }),
    notifyAdded: (_, _params: { message: string }) => undefined,
    refreshUsers: () => undefined,
  },
}).createMachine({
  id: 'grafanaUsers',
  context: { selected: [], error: null },
  initial: 'selecting',
  states: {
    selecting: {
      on: {
        'users.toggle': { actions: 'toggle' },
        'users.submit': [{ guard: 'someSelected', target: 'adding', actions: assign({ error: null }) }, { actions: assign({ error: SELECT_USER_MESSAGE }) }],
      },
    },
    adding: {
      invoke: {
        id: 'addUsers',
        src: 'addUsers',
        input: ({ context }) => ({ users: context.selected }),
        onDone: {
          target: 'selecting',
          actions: [{ type: 'notifyAdded', params: ({ event }) => ({ message: event.output.message }) }, 'refreshUsers', assign({ selected: [], error: null })],
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error, USERS_FAILED_MESSAGE) }) },
      },
    },
    failed: {
      on: {
        'users.toggle': { target: 'selecting', actions: 'toggle' },
        // The selection that failed is still there (a change of it goes back to selecting): add it again.
        'users.submit': { target: 'adding', actions: assign({ error: null }) },
      },
    },
  },
});

export type GrafanaUsersMachine = typeof grafanaUsersMachine;
