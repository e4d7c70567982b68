/**
 * The explorer's trace search (issue 26): a TraceQL query over a time range (Tempo's /api/search on the instance),
 * its traces as a table, each time the user runs.
 * States:
 * - idle      nothing run yet
 * - running   the search is under way; a new run (traces.run) cancels it (the invoked promise's AbortSignal) and
 *             starts again with the new query
 * - results   the traces found (service, name, duration, start)
 * - error     the instance refused the query (its TraceQL parse error) or could not be reached; a refused
 *             credential (401/403) also calls credentialRefused
 */
import { assign, fromPromise, setup } from 'xstate';
import type { TraceHit, TraceSearchRequest } from '../../services/qryn-traces';
import { errorMessage } from '../error-message';

export const TRACE_SEARCH_FAILED = 'The trace search could not be run.';

export interface TraceSearchContext {
  request: TraceSearchRequest | null;
  hits: TraceHit[];
  error: string | null;
}

export type TraceSearchEvent = { type: 'traces.run'; request: TraceSearchRequest };

const refused = (error: unknown) => {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 401 || status === 403;
};

export const qrynTraceSearchMachine = setup({
  types: { context: {} as TraceSearchContext, events: {} as TraceSearchEvent },
  actors: {
    searchTraces: fromPromise<TraceHit[], TraceSearchRequest>(async () => {
      throw new Error('searchTraces is provided where the actor is created');
    }),
  },
  actions: {
    credentialRefused: () => undefined,
  },
  guards: {
    refused: ({ event }) => refused((event as { error?: unknown }).error),
  },
}).createMachine({
  id: 'qrynTraceSearch',
  context: { request: null, hits: [], error: null },
  initial: 'idle',
  on: {
    // An empty query searches every trace of the range ({}), as Tempo does; re-entering running cancels the last read.
    'traces.run': { target: '.running', reenter: true, actions: assign({ request: ({ event }) => event.request, error: null }) },
  },
  states: {
    idle: {},
    running: {
      invoke: {
        id: 'searchTraces',
        src: 'searchTraces',
        input: ({ context }) => context.request!,
        onDone: { target: 'results', actions: assign({ hits: ({ event }) => event.output }) },
        onError: [
          { guard: 'refused', target: 'error', actions: [assign({ hits: [], error: ({ event }) => errorMessage(event.error, TRACE_SEARCH_FAILED) }), 'credentialRefused'] },
          { target: 'error', actions: assign({ hits: [], error: ({ event }) => errorMessage(event.error, TRACE_SEARCH_FAILED) }) },
        ],
      },
    },
    results: {},
    error: {},
  },
});

export type QrynTraceSearchMachine = typeof qrynTraceSearchMachine;
