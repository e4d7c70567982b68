// @vitest-environment jsdom
// Model-based test of the explorer's metric query (idle → running → results | error; a new run cancels the running
// one; a refused credential goes back to the shell): every generated path is replayed on a real actor with the read as
// a controlled double, and through the metric results screen (spinner, the instance's reason, chart or table with
// its series count, downloads). The cancellation itself is checked on a real actor: the first read's signal aborts.
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type Actor } from 'xstate';
import { QUERY_REQUIRED_MESSAGE, qrynMetricQueryMachine, type QrynMetricQueryMachine } from '../../src/machines/qryn-explorer/qryn-metric-query.machine';
import type { MetricRequest, MetricResult } from '../../src/services/qryn-explorer';
import { tableCsv } from '../../src/services/qryn-view';
import { resultTable } from '../../src/services/qryn-explorer';
import type { StepValue } from '../../src/machines/qryn-explorer/explorer-url';
import { MetricsResults } from '../../src/views/stack/qryn/explorer/metrics-panel';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewStates } from '../support/model-based';

// jsdom has no canvas: uPlot is replaced by a double that lists the series' labels as its legend does (the real chart
// is drawn in the browser: e2e/qryn-explorer.spec.ts).
vi.mock('uplot', () => import('../support/uplot-double'));
installDomStubs();

const refusals: string[] = [];
const machine = qrynMetricQueryMachine.provide({ actions: { credentialRefused: (_, params) => void refusals.push(params.message) } });

const request: MetricRequest = { source: 'prometheus', query: 'rate(http_requests_total[5m])', kind: 'range', range: { from: 0, to: 3_600_000 }, stepSeconds: 15 };
const matrix: MetricResult = {
  resultType: 'matrix',
  result: [
    { metric: { job: 'api' }, values: [[60, '1'], [75, '2']] },
    { metric: { job: 'web' }, values: [[60, '3']] },
  ],
};
const PARSE_ERROR = '1:5: parse error: unexpected character inside braces';

const events = {
  'metric.run': [
    { type: 'metric.run', request },
    { type: 'metric.run', request: { ...request, query: '  ' } },
  ],
  'xstate.done.actor.runMetricQuery': [{ type: 'xstate.done.actor.runMetricQuery', output: matrix }],
  'xstate.error.actor.runMetricQuery': [
    { type: 'xstate.error.actor.runMetricQuery', error: Object.assign(new Error(PARSE_ERROR), { status: 400 }) },
    { type: 'xstate.error.actor.runMetricQuery', error: Object.assign(new Error('This token may only push.'), { status: 403 }) },
  ],
} satisfies ModelEvents<typeof machine>;

const states = {
  idle: (s) => {
    expect(s.context.result).toBeNull();
    // Back here only from a refusal, which the shell was told about.
    if (s.context.request) expect(refusals.at(-1)).toBe('This token may only push.');
  },
  running: (s) => {
    expect(s.context.request).toEqual(request);
    expect(s.context.error).toBeNull();
  },
  results: (s) => expect(s.context.result).toEqual(matrix),
  error: (s) => {
    expect([QUERY_REQUIRED_MESSAGE, PARSE_ERROR]).toContain(s.context.error);
    expect(s.context.result).toBeNull();
  },
} satisfies ModelStates<typeof machine>;

function Harness({ actor }: { actor: Actor<QrynMetricQueryMachine> }) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const [kind, setKind] = useState<'range' | 'instant'>('range');
  const [step, setStep] = useState<StepValue>('auto');
  return <MetricsResults actor={actor} view={view} onViewChange={setView} kind={kind} onKindChange={setKind} step={step} onStepChange={setStep} />;
}

const viewEvents = {
  // The shell sends it: Run query, Shift+Enter in the editor, a refresh tick (tests/model/qryn-explorer.test.tsx, e2e).
  'metric.run': 'send-to-actor',
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  idle: ({ screen }) => {
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('table', { name: 'Results' })).toBeNull();
  },
  running: ({ screen }) => expect(screen.getByRole('status').textContent).toContain('Running the query'),
  results: async ({ screen, user }) => {
    // Drawn as a chart of two series, then the same result as a table with its downloads.
    const figure = screen.getByRole('figure', { name: 'Chart of 2 series' });
    // uPlot is loaded when the first chart is drawn.
    await vi.waitFor(() => expect([...figure.querySelectorAll('.u-legend li')].map((li) => li.textContent)).toEqual(['{job="api"}', '{job="web"}']));
    await user.click(screen.getByRole('button', { name: 'Table' }));
    expect(screen.getByRole('table', { name: 'Results' }).textContent).toContain('{job="web"}');
    const csv = screen.getByRole('link', { name: 'Export CSV' });
    // Named after the query and the end of its range (no instance in this harness).
    expect(csv.getAttribute('download')).toBe('rate-http_requests_total-5m__1970-01-01T01-00-00Z.csv');
    expect(decodeURIComponent(csv.getAttribute('href')!.split(',').slice(1).join(','))).toBe(tableCsv(resultTable(matrix)));
    expect(screen.getByRole('link', { name: 'Export JSON' }).getAttribute('download')).toBe('rate-http_requests_total-5m__1970-01-01T01-00-00Z.json');
    await user.click(screen.getByRole('button', { name: 'Chart' }));
  },
  error: ({ screen, snapshot }) => expect(screen.getByRole('alert').textContent).toContain(snapshot.context.error),
} satisfies ViewStates<typeof machine>;

describeModel('qryn explorer metric query machine', {
  name: 'qryn-metric-query',
  machine,
  events,
  states,
  simplePaths: false,
  serializeContext: (c) => ({ request: c.request?.query ?? null, result: c.result !== null, error: c.error }),
  view: { render: (actor) => <Harness actor={actor} />, events: viewEvents, states: viewStates },
});

describe('a new metric query', () => {
  it('cancels the running one: its request is aborted and only the new answer is kept', async () => {
    const signals: AbortSignal[] = [];
    const answers: ((r: MetricResult) => void)[] = [];
    const actor = createActor(
      qrynMetricQueryMachine.provide({
        actors: {
          runMetricQuery: fromPromise<MetricResult, MetricRequest>(({ signal }) => {
            signals.push(signal);
            return new Promise((resolve) => answers.push(resolve));
          }),
        },
      }),
    ).start();
    actor.send({ type: 'metric.run', request });
    actor.send({ type: 'metric.run', request: { ...request, query: 'up' } });
    expect(signals).toHaveLength(2);
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
    answers[0]!(matrix);
    answers[1]!({ resultType: 'scalar', result: [1, '1'] });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('results'));
    expect(actor.getSnapshot().context.result).toEqual({ resultType: 'scalar', result: [1, '1'] });
    expect(actor.getSnapshot().context.request?.query).toBe('up');
  });
});
