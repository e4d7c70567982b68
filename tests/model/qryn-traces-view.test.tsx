// @vitest-environment jsdom
// Model-based test of the explorer's one-trace machine: every generated path is replayed on a real actor (the read
// is a controlled double) and through the trace view (spinner, waterfall of nested spans with keyboard-opened
// attributes, the instance's reason, Back to the trace results). Opening a trace comes from the shell (traceId).
import { expect } from 'vitest';
import { TRACE_ID_PROBLEM } from '../../src/services/qryn-traces';
import { qrynTraceViewMachine } from '../../src/machines/qryn-traces/qryn-trace-view.machine';
import { SAMPLE_NOT_FOUND, SAMPLE_TRACE_ID, qrynTraceViewEvents, qrynTraceViewSamples } from '../../src/machines/qryn-traces/qryn-trace-view.samples';
import { TraceView } from '../../src/views/stack/qryn/explorer/traces/traces-panel';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewStates } from '../support/model-based';

installDomStubs();

const refusals: string[] = [];
const machine = qrynTraceViewMachine.provide({ actions: { credentialRefused: () => void refusals.push('refused') } });

const events = qrynTraceViewEvents satisfies ModelEvents<typeof machine>;

const states = {
  closed: (s) => {
    expect(s.context.request).toBeNull();
    expect(s.context.spans).toEqual([]);
  },
  loading: (s) => expect(s.context.request?.traceId).toBe(SAMPLE_TRACE_ID),
  showing: (s) => expect(s.context.spans).toHaveLength(2),
  error: (s) => {
    expect([TRACE_ID_PROBLEM, SAMPLE_NOT_FOUND, 'The credentials are not valid for this instance.']).toContain(s.context.error);
    if (s.context.error === 'The credentials are not valid for this instance.') expect(refusals.length).toBeGreaterThan(0);
  },
} satisfies ModelStates<typeof machine>;

const viewEvents = {
  'trace.open': 'send-to-actor',
  'trace.close': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Back to the trace results' })),
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  // The panel shows the search results instead; the view itself keeps only its way back.
  closed: ({ screen }) => expect(screen.queryByRole('list', { name: 'Spans' })).toBeNull(),
  loading: ({ screen }) => expect(screen.getByRole('status').textContent).toBe(`Reading trace ${SAMPLE_TRACE_ID}`),
  showing: async ({ screen, user }) => {
    const spans = screen.getByRole('list', { name: 'Spans' });
    // The child span is nested in its parent's item.
    const root = spans.querySelector(':scope > li')!;
    expect(root.querySelector('ul > li')).toBeTruthy();
    const child = screen.getByRole('button', { name: 'db: INSERT orders, error, 60.0ms, starts at +20.0ms' });
    expect(screen.getByRole('button', { name: 'checkout: POST /orders, 120ms, starts at +0µs, 1 child span' })).toBeTruthy();
    child.focus();
    await user.keyboard('{Enter}');
    expect(child.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('table', { name: 'Span attributes' }).textContent).toContain('postgresql');
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('table', { name: 'Span attributes' })).toBeNull();
  },
  error: ({ screen, actor }) => expect(screen.getByRole('alert').textContent).toContain(actor.getSnapshot().context.error!),
} satisfies ViewStates<typeof machine>;

describeModel('qryn explorer trace view machine', {
  name: 'qryn-trace-view',
  machine,
  events,
  states,
  serializeContext: qrynTraceViewSamples.serializeContext as (context: unknown) => unknown,
  view: { render: (actor) => <TraceView actor={actor} onClose={() => actor.send({ type: 'trace.close' })} />, events: viewEvents, states: viewStates },
});
