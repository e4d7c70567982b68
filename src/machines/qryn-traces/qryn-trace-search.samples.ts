// Sample events of the explorer's trace search machine: what its model test (tests/model/qryn-traces-search.test.tsx)
// replays and what the statechart studio plays.
import type { ModelEvents, ModelSamples } from '../../lib/model-paths';
import type { TraceHit } from '../../services/qryn-traces';
import type { QrynTraceSearchMachine } from './qryn-trace-search.machine';

export const SAMPLE_TRACE_SEARCH = { instanceUrl: 'http://127.0.0.1:8080/qryn/0123456789abcdef', auth: 'qk_key:secret', query: '{ resource.service.name = "checkout" }', range: { from: 1_764_000_000_000, to: 1_764_003_600_000 } };
export const SAMPLE_HITS: TraceHit[] = [
  { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', service: 'checkout', name: 'POST /orders', startMs: 1_764_003_000_000, durationMs: 125, matched: 1 },
  { traceId: '00000000000000000000000000000abc', service: 'checkout', name: 'GET /cart', startMs: 1_764_002_000_000, durationMs: 12, matched: 1 },
];
export const SAMPLE_TRACEQL_ERROR = 'invalid TraceQL query: parse error at line 1, col 3: syntax error';

export const qrynTraceSearchEvents = {
  'traces.run': [{ type: 'traces.run', request: SAMPLE_TRACE_SEARCH }],
  'xstate.done.actor.searchTraces': [{ type: 'xstate.done.actor.searchTraces', output: SAMPLE_HITS }],
  'xstate.error.actor.searchTraces': [
    { type: 'xstate.error.actor.searchTraces', error: Object.assign(new Error(SAMPLE_TRACEQL_ERROR), { status: 400 }) },
    { type: 'xstate.error.actor.searchTraces', error: Object.assign(new Error('The credentials are not valid for this instance.'), { status: 403 }) },
  ],
} satisfies ModelEvents<QrynTraceSearchMachine>;

export const qrynTraceSearchSamples: ModelSamples = {
  events: qrynTraceSearchEvents,
  serializeContext: (context: { hits: unknown[]; error: string | null }) => ({ hits: context.hits.length, error: context.error }),
};
