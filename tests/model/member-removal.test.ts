// Model-based test of the member-removal machine (the delete-user modal): every generated path is replayed on a real
// actor with the DELETE call as a controlled double.
import { expect } from 'vitest';
import { memberRemovalMachine } from '../../src/machines/member-removal/member-removal.machine';
import { describeModel, type ModelEvents, type ModelStates } from '../support/model-based';

const member = { id: '00000000-0000-4000-8000-000000000002', name: 'Dev Member', email: 'dev@example.com' };
const toasts: string[] = [];
const machine = memberRemovalMachine.provide({
  actions: { notifyRemoved: (_, params) => void toasts.push(params.message), refreshMembers: () => undefined },
});

const events = {
  'removal.open': [{ type: 'removal.open', member }],
  'removal.confirm': [{ type: 'removal.confirm' }],
  'removal.cancel': [{ type: 'removal.cancel' }],
  'xstate.done.actor.removeMember': [{ type: 'xstate.done.actor.removeMember', output: { message: 'The user has been removed.' } }],
  'xstate.error.actor.removeMember': [
    { type: 'xstate.error.actor.removeMember', error: Object.assign(new Error('Not found'), { description: 'We could not find this user.' }) },
  ],
} satisfies ModelEvents<typeof machine>;

const states = {
  closed: (s) => {
    expect(s.context.member).toBeNull();
    expect(s.context.error).toBeNull();
  },
  confirming: (s) => {
    expect(s.context.member).toEqual(member);
    expect(s.context.error).toBeNull();
  },
  removing: (s) => {
    expect(s.context.member).toEqual(member);
    expect(s.can({ type: 'removal.cancel' })).toBe(false);
  },
  failed: (s) => {
    expect(s.context.member).toEqual(member);
    expect(s.context.error).toBe('We could not find this user.');
  },
} satisfies ModelStates<typeof machine>;

describeModel('member removal machine', { name: 'member-removal', machine, events, states });
