/**
 * One trace in the explorer (issue 26): the trace the shell names (from the URL, a log line's link or a search
 * result) read from the instance (/api/traces/{id}) and shown as a waterfall of spans.
 * States:
 * - closed    no trace is open (the search results show)
 * - loading   the trace is read; opening another trace cancels the read and starts again
 * - showing   the waterfall: spans nested by parent on the trace's time axis; a span opens its attributes
 * - error     the id is not a trace id, the instance has no such trace (404) or refused; a refused credential
 *             (401/403) also calls credentialRefused
 */
import { assign, fromPromise, setup } from 'xstate';
import { TRACE_ID_PROBLEM, type TraceRequest, type TraceSpan } from '../../services/qryn-traces';
import { errorMessage } from '../error-message';

export const TRACE_READ_FAILED = 'The trace could not be read.';

export interface TraceViewContext {
  request: TraceRequest | null;
  spans: TraceSpan[];
  error: string | null;
}

export type TraceViewEvent = { type: 'trace.open'; request: TraceRequest } | { type: 'trace.close' };

const refused = (error: unknown) => {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 401 || status === 403;
};

export const qrynTraceViewMachine = setup({
  types: { context: {} as TraceViewContext, events: {} as TraceViewEvent },
  actors: {
    readTrace: fromPromise<TraceSpan[], TraceRequest>(async () => {
      throw new Error('readTrace is provided where the actor is created');
    }),
  },
  actions: {
    credentialRefused: () => undefined,
  },
  guards: {
    validId: ({ event }) => event.type === 'trace.open' && /^[0-9a-fA-F]{1,32}$/.test(event.request.traceId.trim()),
    refused: ({ event }) => refused((event as { error?: unknown }).error),
  },
}).createMachine({
  id: 'qrynTraceView',
  context: { request: null, spans: [], error: null },
  initial: 'closed',
  on: {
    'trace.open': [
      { guard: 'validId', target: '.loading', reenter: true, actions: assign({ request: ({ event }) => event.request, spans: [], error: null }) },
      { target: '.error', actions: assign({ request: ({ event }) => event.request, spans: [], error: TRACE_ID_PROBLEM }) },
    ],
    'trace.close': { target: '.closed', actions: assign({ request: null, spans: [], error: null }) },
  },
  states: {
    closed: {},
    loading: {
      invoke: {
        id: 'readTrace',
        src: 'readTrace',
        input: ({ context }) => context.request!,
        onDone: { target: 'showing', actions: assign({ spans: ({ event }) => event.output }) },
        onError: [
          { guard: 'refused', target: 'error', actions: [assign({ error: ({ event }) => errorMessage(event.error, TRACE_READ_FAILED) }), 'credentialRefused'] },
          { target: 'error', actions: assign({ error: ({ event }) => errorMessage(event.error, TRACE_READ_FAILED) }) },
        ],
      },
    },
    showing: {},
    error: {},
  },
});

export type QrynTraceViewMachine = typeof qrynTraceViewMachine;
