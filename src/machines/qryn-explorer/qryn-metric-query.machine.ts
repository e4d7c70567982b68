/**
 * A metric query of the qryn explorer: PromQL on the instance's Prometheus API, or a LogQL metric query on Loki's,
 * drawn as a chart or a table.
 * States:
 * - idle     nothing run yet (or the credential was refused: the shell shows the credential form)
 * - running  the query runs; a new run cancels it (its request is aborted) and starts the new one
 * - results  the answer: a matrix as a chart or table, an instant vector or scalar as a table
 * - error    the instance's reason (a parse error with its position, underlined in the editor), or the client's rule
 * A 401/403 from the instance leads back to idle and tells the shell (credentialRefused), which asks for a credential.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { MetricRequest, MetricResult } from '../../services/qryn-explorer';
import { errorMessage } from '../error-message';

export const QUERY_REQUIRED_MESSAGE = 'Enter a query.';
export const METRIC_QUERY_FAILED_MESSAGE = 'The query could not be run.';

export interface QrynMetricQueryContext {
  request: MetricRequest | null;
  result: MetricResult | null;
  error: string | null;
}

export type QrynMetricQueryEvent = { type: 'metric.run'; request: MetricRequest };

const refused = (error: unknown) => {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 401 || status === 403;
};

const base = setup({
  types: { context: {} as QrynMetricQueryContext, events: {} as QrynMetricQueryEvent },
  actors: {
    runMetricQuery: fromPromise<MetricResult, MetricRequest>(async () => {
      throw new Error('runMetricQuery is provided where the actor is created');
    }),
  },
  actions: {
    credentialRefused: (_, _params: { message: string }) => undefined,
  },
  guards: {
    queryGiven: ({ event }) => event.request.query.trim() !== '',
    refused: ({ event }) => refused((event as { error?: unknown }).error),
  },
});

// From every state, running included: re-entering running stops the invoked read, whose signal aborts its request.
const run = [
  { guard: 'queryGiven' as const, target: '#qrynMetricQuery.running', reenter: true, actions: assign<QrynMetricQueryContext, QrynMetricQueryEvent, undefined, QrynMetricQueryEvent, never>({ request: ({ event }) => ({ ...event.request, query: event.request.query.trim() }), error: null }) },
  { target: '#qrynMetricQuery.error', actions: assign<QrynMetricQueryContext, QrynMetricQueryEvent, undefined, QrynMetricQueryEvent, never>({ result: null, error: QUERY_REQUIRED_MESSAGE }) },
];

export const qrynMetricQueryMachine = base.createMachine({
  id: 'qrynMetricQuery',
  context: { request: null, result: null, error: null },
  initial: 'idle',
  on: { 'metric.run': run },
  states: {
    idle: {},
    running: {
      invoke: {
        id: 'runMetricQuery',
        src: 'runMetricQuery',
        input: ({ context }) => context.request!,
        onDone: { target: 'results', actions: assign({ result: ({ event }) => event.output }) },
        onError: [
          {
            guard: 'refused',
            target: 'idle',
            actions: [assign({ result: null }), { type: 'credentialRefused', params: ({ event }) => ({ message: errorMessage(event.error, METRIC_QUERY_FAILED_MESSAGE) }) }],
          },
          { target: 'error', actions: assign({ result: null, error: ({ event }) => errorMessage(event.error, METRIC_QUERY_FAILED_MESSAGE) }) },
        ],
      },
    },
    results: {},
    error: {},
  },
});

export type QrynMetricQueryMachine = typeof qrynMetricQueryMachine;
