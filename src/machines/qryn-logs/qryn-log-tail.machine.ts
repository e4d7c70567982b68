/**
 * The explorer's live tail (issue 26): the log query followed over Loki's tail WebSocket (/loki/api/v1/tail on the
 * instance), lines shown newest first as they come, with pause and a bounded buffer.
 * States:
 * - off         not tailing (the log search shows instead); tail.dismiss comes back here from anywhere
 * - live        the socket is open or opening (the invoked tailSocket actor owns it; leaving live closes it):
 *   - connecting   the WebSocket handshake (the credential goes as a subprotocol: docs/qryn.md)
 *   - streaming    frames arrive and are shown; at most MAX_TAIL_LINES are kept, older ones are dropped and counted
 *   - paused       the socket stays open; frames are buffered (bounded the same way) and shown on resume
 * - closed      the user stopped the tail, or the instance ended it in order (e.g. shutting down)
 * - failed      the socket could not open or broke; a refused credential also calls credentialRefused
 */
import { assign, fromCallback, setup } from 'xstate';
import type { LogLine } from '../../services/qryn-logs';

export const MAX_TAIL_LINES = 1000;
export const TAIL_FAILED = 'The live tail stopped: the connection to the instance was lost.';

export interface TailRequest {
  instanceUrl: string;
  auth: string;
  query: string;
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
  | { type: 'tail.failed'; message: string; refused: boolean };

/** Newest-first `into` with `batch` (newest first) in front, cut to the bound; how many fell off. */
export function bounded(batch: LogLine[], into: LogLine[], max = MAX_TAIL_LINES): { lines: LogLine[]; dropped: number } {
  const all = batch.length ? [...batch, ...into] : into;
  return all.length > max ? { lines: all.slice(0, max), dropped: all.length - max } : { lines: all, dropped: 0 };
}

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
  context: { request: null, lines: [], pending: [], dropped: 0, error: null, closedReason: null },
  initial: 'off',
  on: { 'tail.dismiss': { target: '.off', actions: assign({ lines: [], pending: [], dropped: 0, error: null, closedReason: null }) } },
  states: {
    off: {
      on: { 'tail.start': { guard: 'hasQuery', target: 'live', actions: assign({ request: ({ event }) => event.request, lines: [], pending: [], dropped: 0, error: null, closedReason: null }) } },
    },
    live: {
      invoke: { id: 'tailSocket', src: 'tailSocket', input: ({ context }) => context.request! },
      initial: 'connecting',
      on: {
        'tail.stop': { target: 'closed' },
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
                const next = bounded([...event.lines].reverse(), context.lines);
                return { lines: next.lines, dropped: context.dropped + next.dropped };
              }),
            },
            'tail.pause': 'paused',
          },
        },
        paused: {
          on: {
            'tail.lines': {
              actions: assign(({ context, event }) => {
                const next = bounded([...event.lines].reverse(), context.pending);
                return { pending: next.lines, dropped: context.dropped + next.dropped };
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
      on: { 'tail.start': { guard: 'hasQuery', target: 'live', actions: assign({ request: ({ event }) => event.request, lines: [], pending: [], dropped: 0, error: null, closedReason: null }) } },
    },
    failed: {
      on: { 'tail.start': { guard: 'hasQuery', target: 'live', actions: assign({ request: ({ event }) => event.request, lines: [], pending: [], dropped: 0, error: null, closedReason: null }) } },
    },
  },
});

export type QrynLogTailMachine = typeof qrynLogTailMachine;
