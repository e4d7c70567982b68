// @vitest-environment jsdom
// Model-based test of the explorer's TraceQL metrics machine: every generated path is replayed on a real actor (the
// read is a controlled double) and through the traces panel's metrics view (hint, spinner, chart with its series
// table, the empty state, the error with the instance's text). Runs come from the shell (its runId).
import { expect, vi } from 'vitest';
import { qrynTraceMetricsMachine } from '../../src/machines/qryn-traces/qryn-trace-metrics.machine';
import { SAMPLE_METRICS_ERROR, qrynTraceMetricsEvents, qrynTraceMetricsSamples } from '../../src/machines/qryn-traces/qryn-trace-metrics.samples';
import { TraceMetricsResults } from '../../src/views/stack/qryn/explorer/traces/traces-panel';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewStates } from '../support/model-based';

// jsdom has no canvas: uPlot is replaced by a double that lists the series' labels as its legend does (the real chart
// is drawn in the browser: e2e/qryn-explorer-traces.spec.ts).
vi.mock('uplot', () => import('../support/uplot-double'));
installDomStubs();

const refusals: string[] = [];
const machine = qrynTraceMetricsMachine.provide({ actions: { credentialRefused: () => void refusals.push('refused') } });

const events = qrynTraceMetricsEvents satisfies ModelEvents<typeof machine>;

const states = {
  idle: (s) => expect(s.context.request).toBeNull(),
  running: (s) => {
    expect(s.context.request).not.toBeNull();
    expect(s.context.error).toBeNull();
  },
  drawn: (s) => expect([0, 2]).toContain(s.context.chart!.names.length),
  error: (s) => {
    expect(s.context.chart).toBeNull();
    expect([SAMPLE_METRICS_ERROR, 'The credentials are not valid for this instance.']).toContain(s.context.error);
    if (s.context.error !== SAMPLE_METRICS_ERROR) expect(refusals.length).toBeGreaterThan(0);
  },
} satisfies ModelStates<typeof machine>;

const viewEvents = { 'metrics.run': 'send-to-actor' } satisfies ViewEvents<typeof machine>;

const viewStates = {
  idle: ({ screen }) => expect(screen.getByText('Run a TraceQL metrics query to draw its series.')).toBeTruthy(),
  running: ({ screen }) => expect(screen.getByRole('status').textContent).toBe('Reading TraceQL metrics'),
  drawn: ({ screen, actor }) => {
    const chart = actor.getSnapshot().context.chart!;
    if (chart.names.length === 0) {
      expect(screen.getByRole('status').textContent).toBe('No spans matched in this time range.');
      expect(screen.queryByRole('table')).toBeNull();
      return;
    }
    expect(screen.getByRole('status').textContent).toBe('2 series.');
    expect(screen.getByRole('figure', { name: 'Chart of 2 series' })).toBeTruthy();
    const rows = [...screen.getByRole('table', { name: 'Metric series' }).querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['{resource.service.name="checkout"}', '2', '0.6', '0.4'],
      ['{resource.service.name="payments"}', '1', '1', '1'],
    ]);
  },
  error: ({ screen, actor }) => expect(screen.getByRole('alert').textContent).toContain(actor.getSnapshot().context.error!),
} satisfies ViewStates<typeof machine>;

describeModel('qryn explorer TraceQL metrics machine', {
  name: 'qryn-trace-metrics',
  machine,
  events,
  states,
  serializeContext: qrynTraceMetricsSamples.serializeContext as (context: unknown) => unknown,
  view: { render: (actor) => <TraceMetricsResults actor={actor} />, events: viewEvents, states: viewStates },
});
