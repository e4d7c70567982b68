/**
 * The explorer's live tail (issue 26): the log query followed over Loki's tail WebSocket (/loki/api/v1/tail on the
 * instance), lines shown newest first as they come, with pause and a bounded buffer.
 * States:
 * - off         not tailing (the log search shows instead); tail.dismiss comes back here from anywhere
 * - live        the socket is open or opening (the invoked tailSocket actor owns it; leaving live closes it); when
 *               the instance closes it because the console's token expired (tail.expired), live is entered again:
 *               a new socket with a fresh token, from the newest line's timestamp, lines already shown dropped
 *   - connecting   the WebSocket handshake (the credential goes as a subprotocol: docs/qryn.md)
 *   - streaming    frames arrive and are shown; at most MAX_TAIL_LINES are kept, older ones are dropped and counted
 *   - paused       the socket stays open; frames are buffered (bounded the same way) and shown on resume
 * - closed      the user stopped the tail, or the instance ended it in order (e.g. shutting down)
 * - failed      the socket could not open or broke; a refused or revoked credential also calls credentialRefused
 */
import { assign, fromCallback, setup } from 'xstate';
import type { LogLine } from '../../services/qryn-logs';

export const MAX_TAIL_LINES = 1000;
export const TAIL_FAILED = 'The live tail stopped: the connection to the instance was lost.';

export interface TailRequest {
  instanceUrl: string;
  auth: string;
  query: string;
  /** A reconnect's start: the newest line's timestamp (ns), so that no line in between is missed. */
  resumeFromNs?: string;
  /** The key number of the connection's first line (keys stay unique over reconnects). */
  keyFrom?: number;
}

/** Where a reconnected tail goes on from: the newest line shown, and the lines already shown at its timestamp. */
interface ResumePoint {
  tsNs: bigint;
  seen: string[];
}

export interface LogTailContext {
  request: TailRequest | null;
  /** Newest first, at most MAX_TAIL_LINES. */
  lines: LogLine[];
  /** Received while paused, newest first, at most MAX_TAIL_LINES. */
  pending: LogLine[];
  /** Lines dropped from the bounded buffers since the tail started. */
  dropped: number;
  error: string | null;
  /** Why the instance closed the tail, when it did. */
  closedReason: string | null;
  /** Lines received since the tail started, over its connections (the next connection's first key). */
  received: number;
  /** Set by a reconnect: lines up to this point were shown already. */
  resume: ResumePoint | null;
}

export type LogTailEvent =
  | { type: 'tail.start'; request: TailRequest }
  | { type: 'tail.opened' }
  /** One frame's lines, oldest first. */
  | { type: 'tail.lines'; lines: LogLine[] }
  | { type: 'tail.pause' }
  | { type: 'tail.resume' }
  | { type: 'tail.stop' }
  /** Back to the log search (a new run, or the user leaves the tail): closes a live socket. */
  | { type: 'tail.dismiss' }
  | { type: 'tail.ended'; reason: string }
  /** The instance closed the tail because the console's token expired: reconnect with a fresh one. */
  | { type: 'tail.expired' }
  | { type: 'tail.failed'; message: string; refused: boolean };

/** Newest-first `into` with `batch` (newest first) in front, cut to the bound; how many fell off. */
export function bounded(batch: LogLine[], into: LogLine[], max = MAX_TAIL_LINES): { lines: LogLine[]; dropped: number } {
  const all = batch.length ? [...batch, ...into] : into;
  return all.length > max ? { lines: all.slice(0, max), dropped: all.length - max } : { lines: all, dropped: 0 };
}

const lineId = (line: LogLine) => `${line.tsNs} ${JSON.stringify(line.labels)} ${line.line}`;

/** The frame's lines (oldest first) that a reconnect has not shown already. */
export function unseen(lines: LogLine[], resume: ResumePoint | null): LogLine[] {
  if (!resume) return [...lines];
  return lines.filter((line) => {
    const ts = BigInt(line.tsNs);
    return ts > resume.tsNs || (ts === resume.tsNs && !resume.seen.includes(lineId(line)));
  });
}

/** The resume point of the lines shown so far (pending lines are newer than shown ones). */
function resumePoint(context: LogTailContext): ResumePoint | null {
  const newest = context.pending[0] ?? context.lines[0];
  if (!newest) return context.resume;
  const tsNs = BigInt(newest.tsNs);
  const seen = [...context.pending, ...context.lines].filter((line) => BigInt(line.tsNs) === tsNs).map(lineId);
  return { tsNs, seen };
}

const START = { lines: [], pending: [], dropped: 0, error: null, closedReason: null, received: 0, resume: null };

export const qrynLogTailMachine = setup({
  types: { context: {} as LogTailContext, events: {} as LogTailEvent },
  actors: {
    // Opens the socket for the request, sends tail.opened / tail.lines / tail.ended / tail.failed, closes on stop.
    tailSocket: fromCallback<LogTailEvent, TailRequest>(() => {
      throw new Error('tailSocket is provided where the actor is created');
    }),
  },
  actions: {
    credentialRefused: () => undefined,
  },
  guards: {
    hasQuery: ({ event }) => event.type === 'tail.start' && event.request.query.trim() !== '',
    refused: ({ event }) => event.type === 'tail.failed' && event.refused,
  },
}).createMachine({
  id: 'qrynLogTail',
  context: { request: null, ...START },
  initial: 'off',
  on: { 'tail.dismiss': { target: '.off', actions: assign(START) } },
  states: {
    off: {
      on: { 'tail.start': { guard: 'hasQuery', target: 'live', actions: assign({ request: ({ event }) => event.request, ...START }) } },
    },
    live: {
      invoke: {
        id: 'tailSocket',
        src: 'tailSocket',
        input: ({ context }) => (context.resume ? { ...context.request!, resumeFromNs: String(context.resume.tsNs), keyFrom: context.received } : context.request!),
      },
      initial: 'connecting',
      on: {
        'tail.stop': { target: 'closed' },
        // A pause ends with the reconnect: the waiting lines are shown, and the new socket streams.
        'tail.expired': {
          target: 'live',
          reenter: true,
          actions: assign(({ context }) => {
            const next = bounded(context.pending, context.lines);
            return { lines: next.lines, pending: [], dropped: context.dropped + next.dropped, resume: resumePoint(context) };
          }),
        },
        'tail.ended': { target: 'closed', actions: assign({ closedReason: ({ event }) => event.reason }) },
        'tail.failed': [
          { guard: 'refused', target: 'failed', actions: [assign({ error: ({ event }) => event.message }), 'credentialRefused'] },
          { target: 'failed', actions: assign({ error: ({ event }) => event.message || TAIL_FAILED }) },
        ],
      },
      states: {
        connecting: { on: { 'tail.opened': 'streaming' } },
        streaming: {
          on: {
            'tail.lines': {
              actions: assign(({ context, event }) => {
                const next = bounded(unseen(event.lines, context.resume).reverse(), context.lines);
                return { lines: next.lines, dropped: context.dropped + next.dropped, received: context.received + event.lines.length };
              }),
            },
            'tail.pause': 'paused',
          },
        },
        paused: {
          on: {
            'tail.lines': {
              actions: assign(({ context, event }) => {
                const next = bounded(unseen(event.lines, context.resume).reverse(), context.pending);
                return { pending: next.lines, dropped: context.dropped + next.dropped, received: context.received + event.lines.length };
              }),
            },
            'tail.resume': {
              target: 'streaming',
              actions: assign(({ context }) => {
                const next = bounded(context.pending, context.lines);
                return { lines: next.lines, pending: [], dropped: context.dropped + next.dropped };
              }),
            },
          },
        },
      },
    },
    closed: {
      on: { 'tail.start': { guard: 'hasQuery', target: 'live', actions: assign({ request: ({ event }) => event.request, ...START }) } },
    },
    failed: {
      on: { 'tail.start': { guard: 'hasQuery', target: 'live', actions: assign({ request: ({ event }) => event.request, ...START }) } },
    },
  },
});

export type QrynLogTailMachine = typeof qrynLogTailMachine;
