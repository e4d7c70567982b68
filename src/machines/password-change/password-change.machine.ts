/**
 * Password change: the Security card's edit form (spec 000 section 2 Account Settings, edit=password; section 5
 * Password rules, fields newPassword and newPasswordVerification).
 * States:
 * - closed            the Security card without its form
 * - reauthentication  the sign-in is too old for a password change: "sign in again" step (before the form, or after
 *                     the server's 401 reauthentication_required)
 * - redirecting       leaving for the login page (prompt=login); it returns to /account?edit=password
 * - editing.pristine  the form is open, nothing refused yet
 * - editing.invalid   a rule was broken (client check, or the server's field errors): messages under the fields
 * - editing.failed    the server refused for another reason: the message above the buttons; the typed values stay
 * - saving            PATCH users/password; the form stays with its button pending
 * After a change the form closes (closed) with a success toast; the server has signed out the other sessions.
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../error-message';
import { decodeInput, type FieldErrors } from '../../../contract/common';
import { PasswordForm, REAUTHENTICATION_REASON } from '../../../contract/users';

export interface PasswordValues {
  newPassword: string;
  newPasswordVerification: string;
}

export interface PasswordChangeContext {
  errors: FieldErrors;
  error: string | null;
  password: string;
}

export type PasswordChangeEvent =
  /** reauthenticate: the current sign-in is older than the server accepts for a password change. */
  | { type: 'password.open'; reauthenticate?: boolean }
  | { type: 'password.submit'; values: PasswordValues }
  | { type: 'password.cancel' }
  | { type: 'password.reauthenticate' };

export const PASSWORD_CHANGE_FAILED = 'Your password could not be changed. Please try again.';
export const REAUTHENTICATION_TEXT = 'For your security, please sign in again before changing your password.';
export const REAUTHENTICATION_FAILED = 'The sign-in page could not be opened. Please try again.';

const needsReauthentication = (error: unknown) => (error as { reason?: unknown } | null)?.reason === REAUTHENTICATION_REASON;

const validate = (values: PasswordValues) => decodeInput(PasswordForm, values);

/** Server field errors name the wire field (password); the form's field is newPassword. */
function serverFieldErrors(error: unknown): FieldErrors | null {
  const details = (error as { details?: unknown } | null)?.details;
  if (!details || typeof details !== 'object') return null;
  const entries = Object.entries(details as Record<string, unknown>).map(([key, value]) => [key === 'password' ? 'newPassword' : key, (Array.isArray(value) ? value : [value]).map(String)]);
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}

export const passwordChangeMachine = setup({
  types: {
    context: {} as PasswordChangeContext,
    events: {} as PasswordChangeEvent,
  },
  actors: {
    updatePassword: fromPromise<{ message: string }, { password: string }>(async () => {
      throw new Error('updatePassword is provided where the actor is created');
    }),
    // Leaves for the login page; the page is gone before this settles, unless it fails.
    reauthenticate: fromPromise<void>(async () => {
      throw new Error('reauthenticate is provided where the actor is created');
    }),
  },
  guards: {
    valid: ({ event }) => event.type === 'password.submit' && validate(event.values).ok,
    fieldErrors: ({ event }) => serverFieldErrors((event as { error?: unknown }).error) !== null,
    staleSignIn: ({ event }) => event.type === 'password.open' && event.reauthenticate === true,
    reauthenticationRequired: ({ event }) => needsReauthentication((event as { error?: unknown }).error),
  },
  actions: {
    // React-only effects, supplied with .provide() where the actor is created.
    notifyChanged: (_, _params: { message: string }) => undefined,
  },
}).createMachine({
  id: 'passwordChange',
  context: { errors: {}, error: null, password: '' },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'password.open': [
          { guard: 'staleSignIn', target: 'reauthentication', actions: assign({ errors: {}, error: null, password: '' }) },
          { target: 'editing', actions: assign({ errors: {}, error: null, password: '' }) },
        ],
      },
    },
    reauthentication: {
      on: {
        'password.reauthenticate': { target: 'redirecting', actions: assign({ error: null }) },
        'password.cancel': { target: 'closed', actions: assign({ errors: {}, error: null, password: '' }) },
      },
    },
    redirecting: {
      invoke: {
        id: 'reauthenticate',
        src: 'reauthenticate',
        onError: { target: 'reauthentication', actions: assign({ error: REAUTHENTICATION_FAILED }) },
      },
    },
    editing: {
      initial: 'pristine',
      on: {
        'password.submit': [
          { guard: 'valid', target: 'saving', actions: assign({ errors: {}, error: null, password: ({ event }) => event.values.newPassword }) },
          {
            target: '.invalid',
            actions: assign({
              errors: ({ event }) => {
                const outcome = validate(event.values);
                return outcome.ok ? {} : outcome.errors;
              },
              error: null,
            }),
          },
        ],
        'password.cancel': { target: 'closed', actions: assign({ errors: {}, error: null, password: '' }) },
      },
      states: { pristine: {}, invalid: {}, failed: {} },
    },
    saving: {
      invoke: {
        id: 'updatePassword',
        src: 'updatePassword',
        input: ({ context }) => ({ password: context.password }),
        onDone: {
          target: 'closed',
          actions: [{ type: 'notifyChanged', params: ({ event }) => ({ message: event.output.message }) }, assign({ password: '' })],
        },
        onError: [
          { guard: 'reauthenticationRequired', target: 'reauthentication', actions: assign({ password: '', error: null }) },
          { guard: 'fieldErrors', target: 'editing.invalid', actions: assign({ errors: ({ event }) => serverFieldErrors(event.error) ?? {}, password: '' }) },
          {
            target: 'editing.failed',
            actions: assign({
              password: '',
              error: ({ event }) => errorMessage(event.error, PASSWORD_CHANGE_FAILED),
            }),
          },
        ],
      },
    },
  },
});

export type PasswordChangeMachine = typeof passwordChangeMachine;
