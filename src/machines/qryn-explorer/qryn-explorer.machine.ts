/**
 * The qryn explorer's shell (spec 001 §2 'qryn View'; §7 Other: the organization_project cookie with auth and url):
 * connect to the instance's read side with the member's sign-in or a credential, then explore it (the query, range
 * and results live in the address and in the panels' own machines).
 * States:
 * - disconnected   the credential form ('Use my sign-in', a token or key:secret, or 'Create a read token'); errors here
 * - creatingToken  POST tokens (name 'qryn View', scope read); its token becomes the credential
 * - connecting     the sign-in or the credential is tried on the instance (Loki labels); a credential is then kept in the cookie
 * - connected      the explorer: language switch, editor, label browser, time range, refresh and the results panel
 * The page starts with the sign-in (explorer.useSession): the gateway lets the project's members read with it, their
 * role deciding, so nothing has to be made first. A read-only member may also explore with a credential someone gave
 * them but not create a token (the console's API refuses it too). A sign-in or credential refused later (keys
 * rotated, token deleted, membership ended), reported by any panel, leads back to disconnected with the instance's
 * reason and the cookie forgotten.
 */
import { assign, fromPromise, setup } from 'xstate';
import { SESSION_AUTH } from '../../services/qryn-view';
import { errorMessage } from '../error-message';

export const VIEW_TOKEN_NAME = 'qryn View';
export const CREDENTIAL_REQUIRED_MESSAGE = 'Paste a token, or the API key and secret as key:secret.';
export const VIEW_CONNECT_FAILED_MESSAGE = 'The instance could not be reached with this credential.';
export const READ_ONLY_TOKEN_MESSAGE = 'A read-only member cannot create tokens. Ask a member who may change the project for a read token.';

export interface QrynExplorerContext {
  auth: string | null;
  /** The credential form's message (at its field). */
  credentialError: string | null;
  readOnly: boolean;
}

export type QrynExplorerEvent =
  | { type: 'explorer.connect'; auth: string }
  | { type: 'explorer.useSession' }
  | { type: 'explorer.createToken' }
  | { type: 'explorer.disconnect' }
  | { type: 'explorer.refused'; message: string };

const base = setup({
  types: { context: {} as QrynExplorerContext, events: {} as QrynExplorerEvent, input: {} as { readOnly?: boolean } | undefined },
  actors: {
    createViewToken: fromPromise<{ token: string }>(async () => {
      throw new Error('createViewToken is provided where the actor is created');
    }),
    checkCredential: fromPromise<string[], { auth: string }>(async () => {
      throw new Error('checkCredential is provided where the actor is created');
    }),
  },
  actions: {
    rememberCredential: (_, _params: { auth: string }) => undefined,
    forgetCredential: () => undefined,
  },
  guards: {
    credentialGiven: ({ event }) => event.type === 'explorer.connect' && event.auth.trim() !== '',
    mayCreateToken: ({ context }) => !context.readOnly,
    usesSession: ({ context }) => context.auth === SESSION_AUTH,
  },
});

export const qrynExplorerMachine = base.createMachine({
  id: 'qrynExplorer',
  context: ({ input }) => ({ auth: null, credentialError: null, readOnly: input?.readOnly ?? false }),
  initial: 'disconnected',
  states: {
    disconnected: {
      on: {
        'explorer.connect': [
          { guard: 'credentialGiven', target: 'connecting', actions: assign({ auth: ({ event }) => event.auth.trim(), credentialError: null }) },
          { actions: assign({ credentialError: CREDENTIAL_REQUIRED_MESSAGE }) },
        ],
        'explorer.useSession': { target: 'connecting', actions: assign({ auth: SESSION_AUTH, credentialError: null }) },
        'explorer.createToken': [{ guard: 'mayCreateToken', target: 'creatingToken', actions: assign({ credentialError: null }) }, { actions: assign({ credentialError: READ_ONLY_TOKEN_MESSAGE }) }],
      },
    },
    creatingToken: {
      invoke: {
        id: 'createViewToken',
        src: 'createViewToken',
        onDone: { target: 'connecting', actions: assign({ auth: ({ event }) => event.output.token }) },
        onError: { target: 'disconnected', actions: assign({ credentialError: ({ event }) => errorMessage(event.error, VIEW_CONNECT_FAILED_MESSAGE) }) },
      },
    },
    connecting: {
      invoke: {
        id: 'checkCredential',
        src: 'checkCredential',
        input: ({ context }) => ({ auth: context.auth ?? '' }),
        // The sign-in is the console's own: only a credential is kept in the cookie.
        onDone: [{ guard: 'usesSession', target: 'connected' }, { target: 'connected', actions: { type: 'rememberCredential', params: ({ context }) => ({ auth: context.auth ?? '' }) } }],
        onError: {
          target: 'disconnected',
          actions: [assign({ auth: null, credentialError: ({ event }) => errorMessage(event.error, VIEW_CONNECT_FAILED_MESSAGE) }), 'forgetCredential'],
        },
      },
    },
    connected: {
      on: {
        'explorer.disconnect': { target: 'disconnected', actions: [assign({ auth: null, credentialError: null }), 'forgetCredential'] },
        'explorer.refused': { target: 'disconnected', actions: [assign({ auth: null, credentialError: ({ event }) => event.message || VIEW_CONNECT_FAILED_MESSAGE }), 'forgetCredential'] },
      },
    },
  },
});

export type QrynExplorerMachine = typeof qrynExplorerMachine;
