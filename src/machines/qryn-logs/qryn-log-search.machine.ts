/**
 * The explorer's log search (issue 26): a log query over a time range read from the instance — its lines (Loki
 * query_range, newest first) and its volume by level (the query Grafana's Explore sends) — each time the user runs.
 * States:
 * - idle      nothing run yet
 * - running   the two reads are under way; a new run (logs.run) cancels them (the invoked promise's AbortSignal)
 *             and starts again with the new query
 * - results   the lines and the volume histogram (or the volume's own error beside the lines)
 * - error     the instance refused the query (its reason), or could not be reached; a refused credential (401/403)
 *             also calls credentialRefused so that the explorer asks for the credential again
 */
import { assign, fromPromise, setup } from 'xstate';
import type { LogSearchRequest, LogSearchResult } from '../../services/qryn-logs';
import { errorMessage } from '../error-message';

export const LOG_QUERY_REQUIRED = 'Enter a log query: a stream selector such as {job="app"}.';
export const LOG_SEARCH_FAILED = 'The log query could not be run.';

export interface LogSearchContext {
  request: LogSearchRequest | null;
  result: LogSearchResult | null;
  error: string | null;
}

export type LogSearchEvent = { type: 'logs.run'; request: LogSearchRequest };

const refused = (error: unknown) => {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 401 || status === 403;
};

export const qrynLogSearchMachine = setup({
  types: { context: {} as LogSearchContext, events: {} as LogSearchEvent },
  actors: {
    searchLogs: fromPromise<LogSearchResult, LogSearchRequest>(async () => {
      throw new Error('searchLogs is provided where the actor is created');
    }),
  },
  actions: {
    credentialRefused: () => undefined,
  },
  guards: {
    hasQuery: ({ event }) => event.request.query.trim() !== '',
    refused: ({ event }) => refused((event as { error?: unknown }).error),
  },
}).createMachine({
  id: 'qrynLogSearch',
  context: { request: null, result: null, error: null },
  initial: 'idle',
  on: {
    // From any state, running included: re-entering `running` stops the previous read (its signal aborts).
    'logs.run': [
      { guard: 'hasQuery', target: '.running', reenter: true, actions: assign({ request: ({ event }) => event.request, error: null }) },
      { target: '.error', actions: assign({ request: ({ event }) => event.request, result: null, error: LOG_QUERY_REQUIRED }) },
    ],
  },
  states: {
    idle: {},
    running: {
      invoke: {
        id: 'searchLogs',
        src: 'searchLogs',
        input: ({ context }) => context.request!,
        onDone: { target: 'results', actions: assign({ result: ({ event }) => event.output }) },
        onError: [
          { guard: 'refused', target: 'error', actions: [assign({ result: null, error: ({ event }) => errorMessage(event.error, LOG_SEARCH_FAILED) }), 'credentialRefused'] },
          { target: 'error', actions: assign({ result: null, error: ({ event }) => errorMessage(event.error, LOG_SEARCH_FAILED) }) },
        ],
      },
    },
    results: {},
    error: {},
  },
});

export type QrynLogSearchMachine = typeof qrynLogSearchMachine;
