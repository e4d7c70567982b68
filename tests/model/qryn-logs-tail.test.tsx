// @vitest-environment jsdom
// Model-based test of the explorer's live tail machine: every generated path is replayed on a real actor (the
// socket is a callback double; its opened/lines/ended/failed events are the samples) and through the panel's tail
// controls and lines (Start, Pause, Resume, Stop, Back to the search; status line; buffered lines while paused).
import { expect } from 'vitest';
import { fromCallback } from 'xstate';
import { qrynLogTailMachine } from '../../src/machines/qryn-logs/qryn-log-tail.machine';
import { SAMPLE_TAIL_BROKEN, SAMPLE_TAIL_ENDED, SAMPLE_TAIL_REFUSED, SAMPLE_TAIL_REQUEST, SAMPLE_TAIL_REVOKED, qrynLogTailEvents, qrynLogTailSamples } from '../../src/machines/qryn-logs/qryn-log-tail.samples';
import { LogTailControls, LogTailResults } from '../../src/views/stack/qryn/explorer/logs/logs-panel';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const refusals: string[] = [];
const sockets = { open: 0 };
const machine = qrynLogTailMachine.provide({ actions: { credentialRefused: () => void refusals.push('refused') } });

const events = qrynLogTailEvents satisfies ModelEvents<typeof machine>;

const states = {
  off: (s) => {
    expect(s.context.lines).toEqual([]);
    expect(sockets.open).toBe(0);
  },
  'live.connecting': (s) => {
    expect(s.context.request).toEqual(SAMPLE_TAIL_REQUEST);
    // One socket at a time, also after a reconnect (the expired one was closed first).
    expect(sockets.open).toBe(1);
    // A reconnect goes on from the newest line shown: no line in between is missed.
    if (s.context.resume && s.context.lines.length > 0) expect(s.context.resume.tsNs).toBe(BigInt(s.context.lines[0].tsNs));
  },
  'live.streaming': (s) => {
    expect(s.context.pending).toEqual([]);
    expect(sockets.open).toBe(1);
    // Newest first.
    if (s.context.lines.length >= 2) expect(s.context.lines[0].tsNs >= s.context.lines[1].tsNs).toBe(true);
  },
  'live.paused': () => expect(sockets.open).toBe(1),
  closed: (s) => {
    expect(sockets.open).toBe(0);
    expect([null, SAMPLE_TAIL_ENDED]).toContain(s.context.closedReason);
  },
  failed: (s) => {
    expect(sockets.open).toBe(0);
    expect([SAMPLE_TAIL_REFUSED, SAMPLE_TAIL_REVOKED, SAMPLE_TAIL_BROKEN]).toContain(s.context.error);
    if (s.context.error !== SAMPLE_TAIL_BROKEN) expect(refusals.length).toBeGreaterThan(0);
  },
} satisfies ModelStates<typeof machine>;

const button = (screen: ViewScreen, name: string) => screen.getByRole('button', { name });

const viewEvents = {
  'tail.start': ({ screen, user }) => user.click(screen.queryByRole('button', { name: 'Start live tail' }) ?? button(screen, 'Restart live tail')),
  'tail.pause': ({ screen, user }) => user.click(button(screen, 'Pause')),
  'tail.resume': ({ screen, user }) => user.click(button(screen, 'Resume')),
  'tail.stop': ({ screen, user }) => user.click(button(screen, 'Stop live tail')),
  // Back to the search is a button once the tail has ended; while live, a new run of the shell dismisses it.
  'tail.dismiss': async ({ screen, user, actor }) => {
    const back = screen.queryByRole('button', { name: 'Back to the search' });
    if (back) await user.click(back);
    else actor.send({ type: 'tail.dismiss' });
  },
  // The socket's own events.
  'tail.opened': 'send-to-actor',
  'tail.lines': 'send-to-actor',
  'tail.ended': 'send-to-actor',
  'tail.expired': 'send-to-actor',
  'tail.failed': 'send-to-actor',
} satisfies ViewEvents<typeof machine>;

const status = (screen: ViewScreen) => screen.getAllByRole('status').map((s) => s.textContent).join(' ');
const shownLines = (screen: ViewScreen) => screen.getByRole('list', { name: 'Live log lines' }).querySelectorAll(':scope > li').length;

const viewStates = {
  off: ({ screen }) => {
    expect(button(screen, 'Start live tail')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop live tail' })).toBeNull();
  },
  'live.connecting': ({ screen }) => {
    expect(status(screen)).toContain('Connecting the live tail');
    expect(button(screen, 'Stop live tail')).toBeTruthy();
  },
  'live.streaming': ({ screen, actor }) => {
    const n = actor.getSnapshot().context.lines.length;
    expect(status(screen)).toContain(`Live: ${n} ${n === 1 ? 'line' : 'lines'}, newest first.`);
    expect(shownLines(screen)).toBe(n);
    expect(button(screen, 'Pause')).toBeTruthy();
  },
  'live.paused': ({ screen, actor }) => {
    const { lines, pending } = actor.getSnapshot().context;
    expect(status(screen)).toContain(`Paused: ${pending.length} new ${pending.length === 1 ? 'line' : 'lines'} waiting.`);
    // The shown lines do not move while paused.
    expect(shownLines(screen)).toBe(lines.length);
    expect(button(screen, 'Resume')).toBeTruthy();
  },
  closed: ({ screen, actor }) => {
    const reason = actor.getSnapshot().context.closedReason;
    expect(status(screen)).toContain(reason ? `The live tail was closed: ${reason}` : 'The live tail is stopped.');
    expect(button(screen, 'Restart live tail')).toBeTruthy();
    expect(button(screen, 'Back to the search')).toBeTruthy();
  },
  failed: ({ screen, actor }) => {
    expect(screen.getByRole('alert').textContent).toContain(actor.getSnapshot().context.error!);
    expect(button(screen, 'Restart live tail')).toBeTruthy();
  },
} satisfies ViewStates<typeof machine>;

describeModel('qryn explorer live tail machine', {
  name: 'qryn-log-tail',
  machine,
  events,
  states,
  // The socket double counts open sockets: leaving `live` must close it.
  actors: () => ({
    tailSocket: fromCallback(() => {
      sockets.open++;
      return () => void sockets.open--;
    }),
  }),
  serializeContext: qrynLogTailSamples.serializeContext as (context: unknown) => unknown,
  simplePaths: false,
  view: {
    render: (actor) => (
      <>
        <LogTailControls actor={actor} start={() => actor.send({ type: 'tail.start', request: SAMPLE_TAIL_REQUEST })} />
        <LogTailResults actor={actor} query={SAMPLE_TAIL_REQUEST.query} onFilter={() => undefined} onOpenTrace={() => undefined} />
      </>
    ),
    events: viewEvents,
    states: viewStates,
  },
});
