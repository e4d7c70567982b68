/**
 * Creating a scoped qryn token (spec 001 §2 qryn Auth page, action=create-token; §5: name required 'You must provide
 * a name.', scope read / write / 'read write', default read; §8 'The new token has been created!').
 * States:
 * - closed     no modal
 * - editing    the form (name, scope); a submit with a bad form stays here with the message at the field
 * - creating   POST tokens; the form stays as filled, its button pending
 * - created    the new token, shown this once with a copy button
 * On a refusal the form comes back as it was filled, with the server's field messages or its reason.
 */
import { assign, fromPromise, setup } from 'xstate';
import { decodeInput } from '../../../contract/common';
import { CreateTokenBody, type TokenScope } from '../../../contract/qryn';
import { errorMessage } from '../error-message';

export const TOKEN_CREATE_FAILED_MESSAGE = 'The token could not be created. Please try again.';

export interface TokenForm {
  name: string;
  scope: TokenScope;
}

export interface CreatedTokenValue {
  name: string;
  scope: string;
  token: string;
}

export interface TokenCreateContext {
  form: TokenForm;
  fieldErrors: Record<string, string[]>;
  error: string | null;
  created: CreatedTokenValue | null;
}

export type TokenCreateEvent = { type: 'token.open' } | { type: 'token.submit'; form: TokenForm } | { type: 'token.close' };

const EMPTY_FORM: TokenForm = { name: '', scope: 'read' };

function formErrors(form: TokenForm): Record<string, string[]> {
  const outcome = decodeInput(CreateTokenBody, { name: form.name.trim(), scope: form.scope });
  return outcome.ok ? {} : outcome.errors;
}

export const qrynTokenCreateMachine = setup({
  types: { context: {} as TokenCreateContext, events: {} as TokenCreateEvent },
  actors: {
    createToken: fromPromise<{ message: string; token: CreatedTokenValue }, TokenForm>(async () => {
      throw new Error('createToken is provided where the actor is created');
    }),
  },
  actions: {
    notifyCreated: (_, _params: { message: string }) => undefined,
    refreshTokens: () => undefined,
  },
  guards: {
    formIsValid: ({ event }) => event.type === 'token.submit' && Object.keys(formErrors(event.form)).length === 0,
  },
}).createMachine({
  id: 'qrynTokenCreate',
  context: { form: EMPTY_FORM, fieldErrors: {}, error: null, created: null },
  initial: 'closed',
  states: {
    closed: { on: { 'token.open': { target: 'editing', actions: assign({ form: EMPTY_FORM, fieldErrors: {}, error: null, created: null }) } } },
    editing: {
      on: {
        'token.submit': [
          { guard: 'formIsValid', target: 'creating', actions: assign({ form: ({ event }) => ({ ...event.form, name: event.form.name.trim() }), fieldErrors: {}, error: null }) },
          { actions: assign({ form: ({ event }) => event.form, fieldErrors: ({ event }) => formErrors(event.form), error: null }) },
        ],
        'token.close': 'closed',
      },
    },
    creating: {
      invoke: {
        id: 'createToken',
        src: 'createToken',
        input: ({ context }) => context.form,
        onDone: {
          target: 'created',
          actions: [
            assign({ created: ({ event }) => event.output.token }),
            { type: 'notifyCreated', params: ({ event }) => ({ message: event.output.message }) },
            'refreshTokens',
          ],
        },
        onError: {
          target: 'editing',
          actions: assign({
            fieldErrors: ({ event }) => ((event.error as { details?: Record<string, string[]> } | null)?.details ?? {}),
            error: ({ event }) => ((event.error as { details?: unknown } | null)?.details ? null : errorMessage(event.error, TOKEN_CREATE_FAILED_MESSAGE)),
          }),
        },
      },
    },
    created: { on: { 'token.close': { target: 'closed', actions: assign({ created: null }) } } },
  },
});

export type QrynTokenCreateMachine = typeof qrynTokenCreateMachine;
