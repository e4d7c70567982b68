// @vitest-environment jsdom
// Model-based test of the member-role machine: every generated path is replayed on a real actor whose promote call
// is a controlled double, and through the row's role button; the toasts and the team refetch are recorded.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { memberRoleMachine, ROLE_CHANGE_FAILED_MESSAGE } from '../../src/machines/member-role/member-role.machine';
import { MemberRoleControl } from '../../src/views/organization/member-role-button';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

const effects: string[] = [];
const machine = memberRoleMachine.provide({
  actions: {
    notifyChanged: (_, params) => void effects.push(`ok:${params.message}`),
    notifyFailed: (_, params) => void effects.push(`failed:${params.message}`),
    refreshMembers: () => void effects.push('refresh'),
  },
});

const events = {
  'role.toggle': [{ type: 'role.toggle' }],
  'role.sync': [{ type: 'role.sync', readOnly: false }],
  'xstate.done.actor.changeRole': [{ type: 'xstate.done.actor.changeRole', output: { message: 'User promoted' } }],
  'xstate.error.actor.changeRole': [{ type: 'xstate.error.actor.changeRole', error: new Error('Forbidden') }],
} satisfies ModelEvents<typeof machine>;

const states = {
  idle: (s) => {
    expect(s.context.requestedReadOnly).toBeNull();
    // Every finished call ends with a toast and a refetch, in that order.
    if (effects.length > 0) expect(effects.at(-1)).toBe('refresh');
    if (effects.length > 0) expect(effects.at(-2)).toMatch(new RegExp(`^(ok:User promoted|failed:${ROLE_CHANGE_FAILED_MESSAGE})$`));
  },
  changing: (s) => {
    expect(s.context.requestedReadOnly).toBe(!s.context.readOnly);
    expect(s.can({ type: 'role.toggle' })).toBe(false);
  },
} satisfies ModelStates<typeof machine>;

describe('member role outcomes', () => {
  it('keeps the role and says so when the promote call fails', async () => {
    const log: string[] = [];
    const actor = createActor(
      memberRoleMachine.provide({
        actors: { changeRole: fromPromise(async () => Promise.reject(new Error('Forbidden'))) },
        actions: { notifyFailed: (_, p) => void log.push(p.message), notifyChanged: (_, p) => void log.push(p.message) },
      }),
      { input: { userId: 'u', organizationId: 7, readOnly: true } },
    ).start();
    actor.send({ type: 'role.toggle' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.readOnly).toBe(true);
    expect(log).toEqual([ROLE_CHANGE_FAILED_MESSAGE]);
  });

  it('takes the new role and shows the server message when the call succeeds', async () => {
    const log: string[] = [];
    const actor = createActor(
      memberRoleMachine.provide({
        actors: { changeRole: fromPromise(async () => ({ message: 'User promoted' })) },
        actions: { notifyFailed: (_, p) => void log.push(p.message), notifyChanged: (_, p) => void log.push(p.message) },
      }),
      { input: { userId: 'u', organizationId: 7, readOnly: true } },
    ).start();
    actor.send({ type: 'role.toggle' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.readOnly).toBe(false);
    expect(log).toEqual(['User promoted']);
  });
});

const NAME = 'Vic Viewer';
const button = (screen: ViewScreen) => screen.getByRole('button', { name: /^Make read-(write|only): Vic Viewer$/ }) as HTMLButtonElement;

const viewEvents = {
  'role.toggle': ({ screen, user }) => user.click(button(screen)),
  // The refetched team list, not a person, tells the row its role.
  'role.sync': 'send-to-actor',
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  idle: ({ screen, snapshot }) => {
    expect(button(screen).textContent).toBe(snapshot.context.readOnly ? 'Make read-write' : 'Make read-only');
    expect(button(screen).disabled).toBe(false);
  },
  changing: ({ screen }) => {
    expect(button(screen).disabled).toBe(true);
    expect(button(screen).getAttribute('aria-busy')).toBe('true');
  },
} satisfies ViewStates<typeof machine>;

describeModel('member role machine', {
  name: 'member-role',
  machine,
  input: { userId: '00000000-0000-4000-8000-000000000001', organizationId: 7, readOnly: true },
  events,
  states,
  view: { render: (actor) => <MemberRoleControl actor={actor} name={NAME} />, events: viewEvents, states: viewStates },
});
