// @vitest-environment jsdom
// Proves the harness on a fixture machine with invoke, after (numeric and named delays), guards and nested states,
// replayed both on the machine and through its React view.
import { expect } from 'vitest';
import { describeModel, type ModelStates, type ViewEvents, type ViewStates } from '../support/model-based';
import { sessionMachine } from './fixtures/session.machine';
import { sessionEvents } from './fixtures/session-events';
import { SessionView } from './fixtures/session-view';

type SessionMachine = typeof sessionMachine;

const events = sessionEvents;

const states = {
  'editing.pristine': (s) => expect(s.context.name).toBeNull(),
  'editing.invalid': (s) => expect(s.matches({ editing: 'invalid' })).toBe(true),
  submitting: (s) => expect(s.context.email).toBe('ada@example.com'),
  failed: (s) => expect(s.context.error).toBe('Network down'),
  verifying: (s) => expect(s.context.name).toBeNull(),
  'signedIn.active': (s) => expect(s.context.name).toBe('Ada'),
  'signedIn.warning': (s) => expect(s.context.name).toBe('Ada'),
  signedOut: (s) => expect(s.status).toBe('done'),
} satisfies ModelStates<SessionMachine>;

const viewEvents = {
  'form.submit': async ({ screen, user, event }) => {
    const input = screen.getByLabelText('Email');
    await user.clear(input);
    await user.type(input, event.email);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
  },
  retry: ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Try again' })),
  back: ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Back' })),
  activity: ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Stay signed in' })),
  'sign.out': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Sign out' })),
} satisfies ViewEvents<SessionMachine>;

const viewStates = {
  'editing.pristine': ({ screen }) => {
    expect(screen.getByRole('form', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  },
  'editing.invalid': ({ screen }) =>
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid email address.'),
  submitting: ({ screen }) => expect(screen.getByRole('status').textContent).toBe('Signing in…'),
  failed: ({ screen }) => expect(screen.getByRole('alert').textContent).toBe('Network down'),
  verifying: ({ screen }) => expect(screen.getByRole('heading').textContent).toBe('Your account is not yet verified'),
  'signedIn.active': ({ screen }) => {
    expect(screen.getByRole('heading').textContent).toBe('Hello Ada');
    expect(screen.queryByRole('dialog')).toBeNull();
  },
  'signedIn.warning': ({ screen }) => expect(screen.getByRole('dialog', { name: 'Still there?' })).toBeTruthy(),
  signedOut: ({ screen }) => expect(screen.getByText('Signed out')).toBeTruthy(),
} satisfies ViewStates<SessionMachine>;

describeModel('session fixture machine', {
  name: 'fixture: session',
  machine: sessionMachine,
  events,
  states,
  view: { render: (actor) => <SessionView actor={actor} />, events: viewEvents, states: viewStates },
});
