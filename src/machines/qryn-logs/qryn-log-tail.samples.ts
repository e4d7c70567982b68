// Sample events of the explorer's live tail machine: what its model test (tests/model/qryn-logs-tail.test.tsx)
// replays and what the statechart studio plays. A frame carries two lines; the socket's own events (opened, lines,
// ended, failed) come from the tailSocket actor.
import type { ModelEvents, ModelSamples } from '../../lib/model-paths';
import type { LogLine } from '../../services/qryn-logs';
import type { QrynLogTailMachine } from './qryn-log-tail.machine';

export const SAMPLE_TAIL_REQUEST = { instanceUrl: 'http://127.0.0.1:8080/qryn/0123456789abcdef', auth: 'qk_key:secret', query: '{job="app"}' };
export const SAMPLE_TAIL_LINES: LogLine[] = [
  { tsNs: '1764003000000000000', line: 'level=info msg="tick 1"', labels: { job: 'app' }, level: 'info', key: 'tail-0' },
  { tsNs: '1764003001000000000', line: 'level=warn msg="tick 2"', labels: { job: 'app' }, level: 'warning', key: 'tail-1' },
];
export const SAMPLE_TAIL_REFUSED = 'The credentials are not valid for this instance.';
export const SAMPLE_TAIL_REVOKED = 'The credentials no longer give read access to this instance.';
export const SAMPLE_TAIL_BROKEN = 'The storage is not available at the moment.';
export const SAMPLE_TAIL_ENDED = 'The server is shutting down.';

export const qrynLogTailEvents = {
  'tail.start': [{ type: 'tail.start', request: SAMPLE_TAIL_REQUEST }],
  'tail.opened': [{ type: 'tail.opened' }],
  'tail.lines': [{ type: 'tail.lines', lines: SAMPLE_TAIL_LINES }],
  'tail.pause': [{ type: 'tail.pause' }],
  'tail.resume': [{ type: 'tail.resume' }],
  'tail.stop': [{ type: 'tail.stop' }],
  'tail.dismiss': [{ type: 'tail.dismiss' }],
  'tail.ended': [{ type: 'tail.ended', reason: SAMPLE_TAIL_ENDED }],
  'tail.expired': [{ type: 'tail.expired' }],
  'tail.failed': [
    { type: 'tail.failed', message: SAMPLE_TAIL_REFUSED, refused: true },
    { type: 'tail.failed', message: SAMPLE_TAIL_REVOKED, refused: true },
    { type: 'tail.failed', message: SAMPLE_TAIL_BROKEN, refused: false },
  ],
} satisfies ModelEvents<QrynLogTailMachine>;

export const qrynLogTailSamples: ModelSamples = {
  events: qrynLogTailEvents,
  // Lines accumulate without bound in paths; whether there are any is what tells states apart.
  serializeContext: (context: { lines: unknown[]; pending: unknown[]; dropped: number; error: string | null; closedReason: string | null }) => ({
    lines: context.lines.length > 0,
    pending: context.pending.length > 0,
    error: context.error,
    closed: context.closedReason,
  }),
  simplePaths: false,
};
