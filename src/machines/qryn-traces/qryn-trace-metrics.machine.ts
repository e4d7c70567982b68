/**
 * The explorer's TraceQL metrics: a query ending in a metrics function (`{…} | rate()`) read over the time range
 * from Tempo's /api/metrics/query_range on the instance and drawn as a chart, each time the user runs.
 * States:
 * - idle      nothing run yet
 * - running   the read is under way; a new run (metrics.run) cancels it (the invoked promise's AbortSignal) and starts
 *             again with the new query
 * - drawn     the series answered (none: the empty state)
 * - error     the instance refused the query (Tempo's error text) or could not be reached; a refused credential
 *             (401/403) also calls credentialRefused
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ChartData } from '../../services/qryn-explorer';
import type { TraceMetricsRequest } from '../../services/qryn-trace-metrics';
import { errorMessage } from '../error-message';

export const TRACE_METRICS_FAILED = 'The TraceQL metrics query could not be run.';

export interface TraceMetricsContext {
  request: TraceMetricsRequest | null;
  chart: ChartData | null;
  error: string | null;
}

export type TraceMetricsEvent = { type: 'metrics.run'; request: TraceMetricsRequest };

const status = (error: unknown) => (error as { status?: unknown } | null)?.status;

export const qrynTraceMetricsMachine = setup({
  types: { context: {} as TraceMetricsContext, events: {} as TraceMetricsEvent },
  actors: {
    readMetrics: fromPromise<ChartData, TraceMetricsRequest>(async () => {
      throw new Error('readMetrics is provided where the actor is created');
    }),
  },
  actions: {
    credentialRefused: () => undefined,
    failed: assign({ chart: null, error: ({ event }) => errorMessage((event as { error?: unknown }).error, TRACE_METRICS_FAILED) }),
  },
  guards: {
    refused: ({ event }) => [401, 403].includes(status((event as { error?: unknown }).error) as number),
  },
}).createMachine({
  id: 'qrynTraceMetrics',
  context: { request: null, chart: null, error: null },
  initial: 'idle',
  on: {
    'metrics.run': { target: '.running', reenter: true, actions: assign({ request: ({ event }) => event.request, error: null }) },
  },
  states: {
    idle: {},
    running: {
      invoke: {
        id: 'readMetrics',
        src: 'readMetrics',
        input: ({ context }) => context.request!,
        onDone: { target: 'drawn', actions: assign({ chart: ({ event }) => event.output }) },
        onError: [{ guard: 'refused', target: 'error', actions: ['failed', 'credentialRefused'] }, { target: 'error', actions: 'failed' }],
      },
    },
    drawn: {},
    error: {},
  },
});

export type QrynTraceMetricsMachine = typeof qrynTraceMetricsMachine;
