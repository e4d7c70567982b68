// Sample events of the explorer's TraceQL metrics machine: what its model test (tests/model/qryn-trace-metrics.test.tsx)
// replays and what the statechart studio plays.
import type { ModelEvents, ModelSamples } from '../../lib/model-paths';
import type { ChartData } from '../../services/qryn-explorer';
import type { QrynTraceMetricsMachine } from './qryn-trace-metrics.machine';

export const SAMPLE_TRACE_METRICS = { instanceUrl: 'http://127.0.0.1:8080/qryn/0123456789abcdef', auth: 'qk_key:secret', query: '{ status = error } | rate() by (resource.service.name)', range: { from: 1_764_000_000_000, to: 1_764_003_600_000 } };
export const SAMPLE_CHART: ChartData = { names: ['{resource.service.name="checkout"}', '{resource.service.name="payments"}'], xs: [1_764_000_000, 1_764_000_015], ys: [[0.2, 0.4], [null, 1]] };
export const SAMPLE_EMPTY_CHART: ChartData = { names: [], xs: [], ys: [] };
export const SAMPLE_METRICS_ERROR = 'invalid TraceQL query: not a metrics query (end it with a metrics function, e.g. {} | rate())';

export const qrynTraceMetricsEvents = {
  'metrics.run': [{ type: 'metrics.run', request: SAMPLE_TRACE_METRICS }],
  'xstate.done.actor.readMetrics': [
    { type: 'xstate.done.actor.readMetrics', output: SAMPLE_CHART },
    { type: 'xstate.done.actor.readMetrics', output: SAMPLE_EMPTY_CHART },
  ],
  'xstate.error.actor.readMetrics': [
    { type: 'xstate.error.actor.readMetrics', error: Object.assign(new Error(SAMPLE_METRICS_ERROR), { status: 400 }) },
    { type: 'xstate.error.actor.readMetrics', error: Object.assign(new Error('The credentials are not valid for this instance.'), { status: 403 }) },
  ],
} satisfies ModelEvents<QrynTraceMetricsMachine>;

export const qrynTraceMetricsSamples: ModelSamples = {
  events: qrynTraceMetricsEvents,
  serializeContext: (context: { chart: { names: string[] } | null; error: string | null }) => ({ series: context.chart?.names.length ?? null, error: context.error }),
};
