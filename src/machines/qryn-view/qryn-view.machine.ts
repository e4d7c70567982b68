/**
 * The qryn View (spec 001 §2 qryn Overview side card 'qryn View'; §7 Other: the organization_project cookie with auth
 * and url): connect to the instance's read side with a credential, then query it and show the results.
 * States:
 * - disconnected   the credential form (a token or key:secret, or 'Create a read token for the View'); errors here
 * - creatingToken  POST tokens (name 'qryn View', scope read); its token becomes the credential
 * - connecting     the credential is tried on the instance (Loki labels); on success the cookie is written
 * - connected      the credential works; the query box and its results:
 *   - ready        no query run yet: label pickers, query box, time range
 *   - querying     the query runs on the instance's read side; the form stays as filled
 *   - showing      the results as a table (log lines, series samples or spans), exportable as JSON or CSV
 *   - queryFailed  the instance refused the query (its reason at the query box); the query stays as written
 * A credential refused while querying (keys rotated, token deleted) leads back to disconnected and the cookie is
 * forgotten.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ViewQuery, ViewTable } from '../../services/qryn-view';
import { errorMessage } from '../error-message';

export const VIEW_TOKEN_NAME = 'qryn View';
export const CREDENTIAL_REQUIRED_MESSAGE = 'Paste a token, or the API key and secret as key:secret.';
export const QUERY_REQUIRED_MESSAGE = 'Enter a query.';
export const TRACE_ID_MESSAGE = 'A trace id is 1 to 32 hexadecimal characters.';
export const VIEW_CONNECT_FAILED_MESSAGE = 'The instance could not be reached with this credential.';
export const VIEW_QUERY_FAILED_MESSAGE = 'The query could not be run.';

export interface QrynViewContext {
  auth: string | null;
  /** The credential form's message (at its field). */
  credentialError: string | null;
  /** The query box's message: the client's rule or the instance's reason. */
  queryError: string | null;
  query: ViewQuery | null;
  table: ViewTable | null;
}

export type QrynViewEvent =
  | { type: 'view.connect'; auth: string }
  | { type: 'view.createToken' }
  | { type: 'view.run'; query: ViewQuery }
  | { type: 'view.disconnect' };

/** The client's rule for a query (the instance checks the selector itself and says what is wrong with it). */
export function queryProblem(query: ViewQuery): string | null {
  const text = query.query.trim();
  if (!text) return QUERY_REQUIRED_MESSAGE;
  if (query.mode === 'traces' && !/^[0-9a-fA-F]{1,32}$/.test(text)) return TRACE_ID_MESSAGE;
  return null;
}

const refused = (error: unknown) => {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 401 || status === 403;
};

const base = setup({
  types: { context: {} as QrynViewContext, events: {} as QrynViewEvent },
  actors: {
    createViewToken: fromPromise<{ token: string }>(async () => {
      throw new Error('createViewToken is provided where the actor is created');
    }),
    checkCredential: fromPromise<string[], { auth: string }>(async () => {
      throw new Error('checkCredential is provided where the actor is created');
    }),
    runQuery: fromPromise<ViewTable, { auth: string; query: ViewQuery }>(async () => {
      throw new Error('runQuery is provided where the actor is created');
    }),
  },
  actions: {
    rememberCredential: (_, _params: { auth: string }) => undefined,
    forgetCredential: () => undefined,
  },
  guards: {
    credentialGiven: ({ event }) => event.type === 'view.connect' && event.auth.trim() !== '',
    queryIsValid: ({ event }) => event.type === 'view.run' && queryProblem(event.query) === null,
    refused: ({ event }) => refused((event as { error?: unknown }).error),
  },
});

// A query is run from any connected state but a running one (its form is disabled meanwhile).
const runQuery = [
  { guard: 'queryIsValid' as const, target: 'querying', actions: assign<QrynViewContext, QrynViewEvent, undefined, QrynViewEvent, never>({ query: ({ event }) => (event.type === 'view.run' ? { ...event.query, query: event.query.query.trim() } : null), queryError: null }) },
  { actions: assign<QrynViewContext, QrynViewEvent, undefined, QrynViewEvent, never>({ queryError: ({ event }) => (event.type === 'view.run' ? queryProblem(event.query) : null) }) },
];

export const qrynViewMachine = base.createMachine({
  id: 'qrynView',
  context: { auth: null, credentialError: null, queryError: null, query: null, table: null },
  initial: 'disconnected',
  states: {
    disconnected: {
      on: {
        'view.connect': [
          { guard: 'credentialGiven', target: 'connecting', actions: assign({ auth: ({ event }) => event.auth.trim(), credentialError: null }) },
          { actions: assign({ credentialError: CREDENTIAL_REQUIRED_MESSAGE }) },
        ],
        'view.createToken': { target: 'creatingToken', actions: assign({ credentialError: null }) },
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
        onDone: { target: 'connected', actions: { type: 'rememberCredential', params: ({ context }) => ({ auth: context.auth ?? '' }) } },
        onError: {
          target: 'disconnected',
          actions: [assign({ auth: null, credentialError: ({ event }) => errorMessage(event.error, VIEW_CONNECT_FAILED_MESSAGE) }), 'forgetCredential'],
        },
      },
    },
    connected: {
      initial: 'ready',
      on: {
        'view.disconnect': { target: 'disconnected', actions: [assign({ auth: null, table: null, query: null, queryError: null, credentialError: null }), 'forgetCredential'] },
      },
      states: {
        ready: { on: { 'view.run': runQuery } },
        querying: {
          invoke: {
            id: 'runQuery',
            src: 'runQuery',
            input: ({ context }) => ({ auth: context.auth ?? '', query: context.query! }),
            onDone: { target: 'showing', actions: assign({ table: ({ event }) => event.output }) },
            onError: [
              {
                guard: 'refused',
                target: '#qrynView.disconnected',
                actions: [assign({ auth: null, table: null, credentialError: ({ event }) => errorMessage(event.error, VIEW_CONNECT_FAILED_MESSAGE) }), 'forgetCredential'],
              },
              { target: 'queryFailed', actions: assign({ table: null, queryError: ({ event }) => errorMessage(event.error, VIEW_QUERY_FAILED_MESSAGE) }) },
            ],
          },
        },
        showing: { on: { 'view.run': runQuery } },
        queryFailed: { on: { 'view.run': runQuery } },
      },
    },
  },
});

export type QrynViewMachine = typeof qrynViewMachine;
