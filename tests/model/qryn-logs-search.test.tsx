// @vitest-environment jsdom
// Model-based test of the explorer's log search machine: every generated path is replayed on a real actor (the read
// is a controlled double) and through the logs panel's results view (idle hint, spinner, volume and lines, error).
// Runs come from the shell (its runId), so they are sent to the actor in the view replay too.
import { expect } from 'vitest';
import { LOG_QUERY_REQUIRED, qrynLogSearchMachine } from '../../src/machines/qryn-logs/qryn-log-search.machine';
import { SAMPLE_LOG_PARSE_ERROR, SAMPLE_LOG_REQUEST, qrynLogSearchEvents, qrynLogSearchSamples } from '../../src/machines/qryn-logs/qryn-log-search.samples';
import { LogSearchResults } from '../../src/views/stack/qryn/explorer/logs/logs-panel';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewStates } from '../support/model-based';

installDomStubs();

const refusals: string[] = [];
const machine = qrynLogSearchMachine.provide({ actions: { credentialRefused: () => void refusals.push('refused') } });

const events = qrynLogSearchEvents satisfies ModelEvents<typeof machine>;

const states = {
  idle: (s) => {
    expect(s.context.request).toBeNull();
    expect(s.context.result).toBeNull();
  },
  running: (s) => {
    expect(s.context.request?.query.trim()).not.toBe('');
    expect(s.context.error).toBeNull();
  },
  results: (s) => {
    expect(s.context.result?.lines).toHaveLength(2);
    expect(s.context.error).toBeNull();
  },
  error: (s) => {
    expect(s.context.result).toBeNull();
    expect([LOG_QUERY_REQUIRED, SAMPLE_LOG_PARSE_ERROR, 'The credentials are not valid for this instance.']).toContain(s.context.error);
    // A refused credential (and only that) told the shell.
    if (s.context.error === 'The credentials are not valid for this instance.') expect(refusals.length).toBeGreaterThan(0);
  },
} satisfies ModelStates<typeof machine>;

const viewEvents = {
  'logs.run': 'send-to-actor',
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  idle: ({ screen }) => expect(screen.getByText('Run a log query to see its lines.')).toBeTruthy(),
  running: ({ screen }) => expect(screen.getByRole('status').textContent).toBe('Reading the logs'),
  results: ({ screen }) => {
    expect(screen.getByRole('figure', { name: 'Log volume' })).toBeTruthy();
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe('Log volume: 2 lines in 2 steps of 60s: 1 error, 1 info.');
    const lines = screen.getByRole('list', { name: 'Log lines' }).querySelectorAll(':scope > li');
    expect([...lines].map((li) => li.getAttribute('data-level'))).toEqual(['error', 'info']);
    expect(screen.getByRole('link', { name: 'Open trace 4bf92f3577b34da6a3ce929d0e0e4736' })).toBeTruthy();
    expect(screen.getByText('2 lines, newest first.')).toBeTruthy();
  },
  error: ({ screen, actor }) => {
    expect(screen.getByRole('alert').textContent).toContain(actor.getSnapshot().context.error!);
  },
} satisfies ViewStates<typeof machine>;

describeModel('qryn explorer log search machine', {
  name: 'qryn-log-search',
  machine,
  events,
  states,
  serializeContext: qrynLogSearchSamples.serializeContext as (context: unknown) => unknown,
  view: {
    render: (actor) => <LogSearchResults actor={actor} range={SAMPLE_LOG_REQUEST.range} query={SAMPLE_LOG_REQUEST.query} onFilter={() => undefined} onOpenTrace={() => undefined} instanceUrl={SAMPLE_LOG_REQUEST.instanceUrl} auth={SAMPLE_LOG_REQUEST.auth} />,
    events: viewEvents,
    states: viewStates,
  },
});
