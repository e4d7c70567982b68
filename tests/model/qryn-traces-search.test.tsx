// @vitest-environment jsdom
// Model-based test of the explorer's trace search machine: every generated path is replayed on a real actor (the
// search is a controlled double) and through the traces panel's results view (hint, spinner, table, error). Runs
// come from the shell (its runId), so they are sent to the actor in the view replay too.
import { expect } from 'vitest';
import { qrynTraceSearchMachine } from '../../src/machines/qryn-traces/qryn-trace-search.machine';
import { SAMPLE_TRACEQL_ERROR, qrynTraceSearchEvents, qrynTraceSearchSamples } from '../../src/machines/qryn-traces/qryn-trace-search.samples';
import { TraceSearchResults } from '../../src/views/stack/qryn/explorer/traces/traces-panel';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewStates } from '../support/model-based';

installDomStubs();

const refusals: string[] = [];
const opened: string[] = [];
const machine = qrynTraceSearchMachine.provide({ actions: { credentialRefused: () => void refusals.push('refused') } });

const events = qrynTraceSearchEvents satisfies ModelEvents<typeof machine>;

const states = {
  idle: (s) => expect(s.context.request).toBeNull(),
  running: (s) => {
    expect(s.context.request).not.toBeNull();
    expect(s.context.error).toBeNull();
  },
  results: (s) => expect(s.context.hits).toHaveLength(2),
  error: (s) => {
    expect(s.context.hits).toEqual([]);
    expect([SAMPLE_TRACEQL_ERROR, 'The credentials are not valid for this instance.']).toContain(s.context.error);
    if (s.context.error !== SAMPLE_TRACEQL_ERROR) expect(refusals.length).toBeGreaterThan(0);
  },
} satisfies ModelStates<typeof machine>;

const viewEvents = { 'traces.run': 'send-to-actor' } satisfies ViewEvents<typeof machine>;

const viewStates = {
  idle: ({ screen }) => expect(screen.getByText('Run a TraceQL query to find traces.')).toBeTruthy(),
  running: ({ screen }) => expect(screen.getByRole('status').textContent).toBe('Searching traces'),
  results: async ({ screen, user }) => {
    const table = screen.getByRole('table', { name: 'Trace results' });
    const rows = table.querySelectorAll('tbody tr');
    // Newest first by default.
    expect([...rows].map((r) => r.querySelectorAll('td')[2].textContent)).toEqual(['POST /orders', 'GET /cart']);
    expect(rows[0].querySelectorAll('td')[3].textContent).toBe('125ms');
    // Sorting by duration (shortest first after two clicks) and opening a trace by keyboard.
    await user.click(screen.getByRole('button', { name: 'Duration' }));
    await user.click(screen.getByRole('button', { name: /^Duration/ }));
    expect(table.querySelector('th[aria-sort="ascending"]')?.textContent).toContain('Duration');
    expect([...table.querySelectorAll('tbody tr')].map((r) => r.querySelectorAll('td')[2].textContent)).toEqual(['GET /cart', 'POST /orders']);
    screen.getByRole('button', { name: 'Open trace 4bf92f3577b34da6a3ce929d0e0e4736' }).focus();
    await user.keyboard('{Enter}');
    expect(opened.at(-1)).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  },
  error: ({ screen, actor }) => expect(screen.getByRole('alert').textContent).toContain(actor.getSnapshot().context.error!),
} satisfies ViewStates<typeof machine>;

describeModel('qryn explorer trace search machine', {
  name: 'qryn-trace-search',
  machine,
  events,
  states,
  serializeContext: qrynTraceSearchSamples.serializeContext as (context: unknown) => unknown,
  view: { render: (actor) => <TraceSearchResults actor={actor} onOpenTrace={(id) => void opened.push(id)} />, events: viewEvents, states: viewStates },
});
