// Sample events of the explorer's trace view machine: what its model test (tests/model/qryn-traces-view.test.tsx)
// replays and what the statechart studio plays. The trace is a checkout request with a child database span.
import type { ModelEvents, ModelSamples } from '../../lib/model-paths';
import type { TraceSpan } from '../../services/qryn-traces';
import type { QrynTraceViewMachine } from './qryn-trace-view.machine';

const base = { instanceUrl: 'http://127.0.0.1:8080/qryn/0123456789abcdef', auth: 'qk_key:secret' };
export const SAMPLE_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
export const SAMPLE_SPANS: TraceSpan[] = [
  { spanId: 'a1', parentSpanId: null, name: 'POST /orders', service: 'checkout', kind: 'server', startMs: 1_764_003_000_000, durationMs: 120, status: 'ok', attributes: [['http.method', 'POST']], resource: [['service.name', 'checkout']], events: [] },
  { spanId: 'b2', parentSpanId: 'a1', name: 'INSERT orders', service: 'db', kind: 'client', startMs: 1_764_003_000_020, durationMs: 60, status: 'error', attributes: [['db.system', 'postgresql']], resource: [['service.name', 'db']], events: [] },
];
export const SAMPLE_NOT_FOUND = 'Trace not found.';

export const qrynTraceViewEvents = {
  'trace.open': [
    { type: 'trace.open', request: { ...base, traceId: SAMPLE_TRACE_ID } },
    { type: 'trace.open', request: { ...base, traceId: 'not-a-trace' } },
  ],
  'trace.close': [{ type: 'trace.close' }],
  'xstate.done.actor.readTrace': [{ type: 'xstate.done.actor.readTrace', output: SAMPLE_SPANS }],
  'xstate.error.actor.readTrace': [
    { type: 'xstate.error.actor.readTrace', error: Object.assign(new Error(SAMPLE_NOT_FOUND), { status: 404 }) },
    { type: 'xstate.error.actor.readTrace', error: Object.assign(new Error('The credentials are not valid for this instance.'), { status: 401 }) },
  ],
} satisfies ModelEvents<QrynTraceViewMachine>;

export const qrynTraceViewSamples: ModelSamples = {
  events: qrynTraceViewEvents,
  serializeContext: (context: { request: { traceId: string } | null; spans: unknown[]; error: string | null }) => ({ id: context.request?.traceId ?? null, spans: context.spans.length, error: context.error }),
};
