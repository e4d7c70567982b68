// @vitest-environment jsdom
// Model-based test of the Grafana users machine ('Manage users from Grafana'): every generated path is replayed on a
// real actor with POST users as a controlled double, and through the add form (tick members, Add to Grafana).
import { expect } from 'vitest';
import { SELECT_USER_MESSAGE } from '../../contract/grafana';
import { grafanaUsersMachine } from '../../src/machines/grafana-users/grafana-users.machine';
import { GrafanaUsersAdd } from '../../src/views/stack/grafana/grafana-users-card';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const dev = { id: '00000000-0000-4000-8000-000000000002', name: 'Dev Eloper', email: 'dev@example.com' };
const viewer = { id: '00000000-0000-4000-8000-000000000003', name: 'Vi Ewer', email: 'viewer@example.com' };
const REFUSED = 'Adding users to Grafana is only available in organization mode.';
const toasts: string[] = [];
const machine = grafanaUsersMachine.provide({
  actions: { notifyAdded: (_, params) => void toasts.push(params.message), refreshUsers: () => undefined },
});

const events = {
  'users.toggle': [{ type: 'users.toggle', user: dev }],
  'users.submit': [{ type: 'users.submit' }],
  'xstate.done.actor.addUsers': [{ type: 'xstate.done.actor.addUsers', output: { message: 'The users have been added to Grafana' } }],
  'xstate.error.actor.addUsers': [{ type: 'xstate.error.actor.addUsers', error: Object.assign(new Error('Organization mode only'), { description: REFUSED }) }],
} satisfies ModelEvents<typeof machine>;

const states = {
  selecting: (s) => {
    expect(s.context.error === null || s.context.error === SELECT_USER_MESSAGE).toBe(true);
    if (s.context.error === SELECT_USER_MESSAGE) expect(s.context.selected).toEqual([]);
  },
  adding: (s) => {
    expect(s.context.selected).toEqual([dev]);
    expect(s.context.error).toBeNull();
  },
  failed: (s) => {
    expect(s.context.error).toBe(REFUSED);
    expect(s.context.selected).toEqual([dev]);
  },
} satisfies ModelStates<typeof machine>;

const checkbox = (screen: ViewScreen, who: typeof dev) => screen.getByText(`${who.name} (${who.email})`).closest('label')!;

const viewEvents = {
  'users.toggle': ({ screen, user }) => user.click(checkbox(screen, dev)),
  'users.submit': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Add to Grafana' })),
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  selecting: ({ screen, snapshot }) => {
    expect(checkbox(screen, dev).getAttribute('data-state')).toBe(snapshot.context.selected.length > 0 ? 'checked' : 'unchecked');
    expect(checkbox(screen, viewer).getAttribute('data-state')).toBe('unchecked');
    if (snapshot.context.error) expect(screen.getByRole('form', { name: 'Add users to Grafana' }).textContent).toContain(SELECT_USER_MESSAGE);
    else expect(screen.getByRole('form', { name: 'Add users to Grafana' }).textContent).not.toContain(SELECT_USER_MESSAGE);
  },
  adding: ({ screen }) => expect((screen.getByRole('button', { name: 'Add to Grafana' }) as HTMLButtonElement).disabled).toBe(true),
  failed: ({ screen }) => {
    expect(screen.getByRole('form', { name: 'Add users to Grafana' }).textContent).toContain(REFUSED);
    expect((screen.getByRole('button', { name: 'Add to Grafana' }) as HTMLButtonElement).disabled).toBe(false);
  },
} satisfies ViewStates<typeof machine>;

describeModel('grafana users machine', {
  name: 'grafana-users',
  machine,
  events,
  states,
  view: { render: (actor) => <GrafanaUsersAdd actor={actor} candidates={[dev, viewer]} />, events: viewEvents, states: viewStates },
});
