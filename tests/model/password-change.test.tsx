// @vitest-environment jsdom
// Model-based test of the password-change machine (the Security card's form): every generated path is replayed on a
// real actor with PATCH users/password as a controlled double, and through the form (typing into both fields).
import { useSelector } from '@xstate/react';
import { expect } from 'vitest';
import { PASSWORDS_DO_NOT_MATCH, PasswordRuleMessage } from '../../contract/users';
import { passwordChangeMachine, REAUTHENTICATION_FAILED, REAUTHENTICATION_TEXT, type PasswordValues } from '../../src/machines/password-change/password-change.machine';
import { PasswordForm } from '../../src/views/account/password-form';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const toasts: string[] = [];
const machine = passwordChangeMachine.provide({ actions: { notifyChanged: (_, params) => void toasts.push(params.message) } });

const GOOD: PasswordValues = { newPassword: 'Better-Pass1!', newPasswordVerification: 'Better-Pass1!' };
const NO_UPPER: PasswordValues = { newPassword: 'better-pass1!', newPasswordVerification: 'better-pass1!' };
const MISMATCH: PasswordValues = { newPassword: 'Better-Pass1!', newPasswordVerification: 'Better-Pass2!' };
const SERVER_RULE = 'The new password must include at least 1 number.';

const events = {
  'password.open': [{ type: 'password.open' }, { type: 'password.open', reauthenticate: true }],
  'password.submit': [
    { type: 'password.submit', values: GOOD },
    { type: 'password.submit', values: NO_UPPER },
    { type: 'password.submit', values: MISMATCH },
  ],
  'password.cancel': [{ type: 'password.cancel' }],
  'password.reauthenticate': [{ type: 'password.reauthenticate' }],
  'xstate.error.actor.reauthenticate': [{ type: 'xstate.error.actor.reauthenticate', error: new Error('popup blocked') }],
  'xstate.done.actor.updatePassword': [{ type: 'xstate.done.actor.updatePassword', output: { message: 'Your password has been updated.' } }],
  'xstate.error.actor.updatePassword': [
    { type: 'xstate.error.actor.updatePassword', error: Object.assign(new Error('Validation error'), { details: { password: [SERVER_RULE] } }) },
    { type: 'xstate.error.actor.updatePassword', error: Object.assign(new Error('Forbidden'), { description: 'Your account signs in with an external provider.' }) },
    // The server's 401 when the sign-in is too old: the sign-in-again step, not a logout.
    { type: 'xstate.error.actor.updatePassword', error: Object.assign(new Error('Please sign in again'), { reason: 'reauthentication_required' }) },
  ],
} satisfies ModelEvents<typeof machine>;

const allowedErrors = [PasswordRuleMessage.upper, PASSWORDS_DO_NOT_MATCH, SERVER_RULE];

const states = {
  closed: (s) => {
    expect(s.context.errors).toEqual({});
    expect(s.context.password).toBe('');
  },
  'editing.pristine': (s) => {
    expect(s.context.errors).toEqual({});
    expect(s.context.error).toBeNull();
  },
  'editing.invalid': (s) => {
    const messages = Object.values(s.context.errors).flat();
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(allowedErrors).toContain(message);
  },
  'editing.failed': (s) => {
    expect(s.context.error).toBe('Your account signs in with an external provider.');
    expect(s.context.password).toBe('');
  },
  saving: (s) => {
    expect(s.context.password).toBe(GOOD.newPassword);
    expect(s.context.errors).toEqual({});
  },
  reauthentication: (s) => {
    expect(s.context.password).toBe('');
    expect([null, REAUTHENTICATION_FAILED]).toContain(s.context.error);
  },
  redirecting: (s) => {
    expect(s.context.error).toBeNull();
    expect(s.context.password).toBe('');
  },
} satisfies ModelStates<typeof machine>;

function Harness({ actor }: { actor: Parameters<typeof PasswordForm>[0]['actor'] }) {
  const closed = useSelector(actor, (s) => s.matches('closed'));
  return (
    <>
      {closed && (
        <>
          <button type="button" onClick={() => actor.send({ type: 'password.open' })}>
            Open password form
          </button>
          <button type="button" onClick={() => actor.send({ type: 'password.open', reauthenticate: true })}>
            Open password form after an old sign-in
          </button>
        </>
      )}
      <PasswordForm actor={actor} />
    </>
  );
}

const field = (screen: ViewScreen, label: string) => screen.getByLabelText(new RegExp(`^${label}`)) as HTMLInputElement;

const viewEvents = {
  'password.open': ({ screen, user, event }) =>
    user.click(screen.getByRole('button', { name: event.reauthenticate ? 'Open password form after an old sign-in' : 'Open password form' })),
  'password.reauthenticate': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Sign in again' })),
  'password.submit': async ({ screen, user, event }) => {
    await user.clear(field(screen, 'New password'));
    await user.type(field(screen, 'New password'), event.values.newPassword);
    await user.clear(field(screen, 'Confirm new password'));
    await user.type(field(screen, 'Confirm new password'), event.values.newPasswordVerification);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
  },
  'password.cancel': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Cancel' })),
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  closed: ({ screen }) => expect(screen.queryByRole('form', { name: 'Change password' })).toBeNull(),
  'editing.pristine': ({ screen }) => {
    expect(screen.getByRole('form', { name: 'Change password' })).toBeTruthy();
    expect(screen.queryByText(PASSWORDS_DO_NOT_MATCH)).toBeNull();
  },
  'editing.invalid': ({ screen }) => {
    const form = screen.getByRole('form', { name: 'Change password' });
    expect(allowedErrors.some((message) => form.textContent!.includes(message))).toBe(true);
  },
  'editing.failed': ({ screen }) => {
    expect(screen.getByRole('form', { name: 'Change password' }).textContent).toContain('Your account signs in with an external provider.');
    // The form keeps what the user typed.
    expect(field(screen, 'New password').value).not.toBe('');
  },
  saving: ({ screen }) => expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true),
  reauthentication: ({ screen }) => {
    // The step comes before the form: no password field to fill until the user has signed in again.
    expect(screen.queryByRole('form', { name: 'Change password' })).toBeNull();
    const step = screen.getByRole('region', { name: 'Confirm it is you' });
    expect(step.textContent).toContain(REAUTHENTICATION_TEXT);
    expect((screen.getByRole('button', { name: 'Sign in again' }) as HTMLButtonElement).disabled).toBe(false);
  },
  redirecting: ({ screen }) => expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true),
} satisfies ViewStates<typeof machine>;

describeModel('password change machine', {
  name: 'password-change',
  machine,
  events,
  states,
  view: { render: (actor) => <Harness actor={actor} />, events: viewEvents, states: viewStates },
});
