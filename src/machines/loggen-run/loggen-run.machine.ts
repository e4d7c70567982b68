/**
 * Loggen run: saving the configuration, then the streamed run (spec 001 §2 Loggen, §4 Loggen, §8 toasts).
 * States:
 * - checking   GET run: a run of this project may still be going (the page was left and opened again)
 * - idle       the form is editable; Save sends config.save
 * - saving     PATCH config; field errors come back per field and the form keeps what was typed
 * - running    the run's progress streams in (run.progress); the button reads 'Running... N%'
 * - stopping   POST run/stop; the stream ends with the run
 * - done       at 100%: 'Loggen is done'; Save runs again
 * - failed     'Loggen failed' with the reason (a refused key, a lost connection); Save runs again
 */
import { assign, fromPromise, setup } from 'xstate';
import type { FieldErrors } from '../../../contract/common';
import { errorMessage } from '../error-message';

export interface RunProgress {
  current: number;
  max: number;
}

/** The last chunk of a run, as the stream ends with it. */
export interface RunOutcome extends RunProgress {
  status: 'running' | 'done' | 'failed' | 'stopped';
  error?: string;
}

export interface LoggenRunContext<TConfig = unknown> {
  config: TConfig | null;
  progress: RunProgress | null;
  fieldErrors: FieldErrors;
  error: string | null;
  /** This page starts the run (after a save) rather than following one already going. */
  startNew: boolean;
}

export type LoggenRunEvent<TConfig = unknown> =
  | { type: 'config.save'; config: TConfig }
  | { type: 'run.progress'; current: number; max: number }
  | { type: 'run.stop' };

export const LOGGEN_RUNNING = 'Loggen is running';
export const LOGGEN_DONE = 'Loggen is done';
export const LOGGEN_FAILED = 'Loggen failed';

/** 'Running... N%' (never 100 while running: the last chunk moves the machine to done). */
export function runningLabel(progress: RunProgress | null): string {
  const percent = progress && progress.max > 0 ? Math.min(99, Math.floor((progress.current / progress.max) * 100)) : 0;
  return `Running... ${percent}%`;
}

export const loggenRunMachine = setup({
  types: {
    context: {} as LoggenRunContext,
    events: {} as LoggenRunEvent,
  },
  actors: {
    checkRun: fromPromise<RunOutcome | null>(async () => {
      throw new Error('checkRun is provided where the actor is created');
    }),
    saveConfig: fromPromise<{ step: string }, { config: unknown }>(async () => {
      throw new Error('saveConfig is provided where the actor is created');
    }),
    /** Starts a run (start: true) or follows the one going; reports progress; resolves with the last chunk. */
    followRun: fromPromise<RunOutcome, { start: boolean; onProgress: (progress: RunProgress) => void }>(async () => {
      throw new Error('followRun is provided where the actor is created');
    }),
    stopRun: fromPromise<void>(async () => {
      throw new Error('stopRun is provided where the actor is created');
    }),
  },
  actions: {
    // React-only effects, supplied with .provide() where the actor is created.
    notifyRunning: () => undefined,
    notifyDone: () => undefined,
    notifyFailed: (_, _params: { reason: string }) => undefined,
  },
  guards: {
    isRunning: ({ event }) => (event as unknown as { output: RunOutcome | null }).output?.status === 'running',
    isDone: ({ event }) => (event as unknown as { output: RunOutcome }).output.status === 'done',
    isFailed: ({ event }) => (event as unknown as { output: RunOutcome }).output.status === 'failed',
    hasFieldErrors: ({ event }) => {
      const details = (event as unknown as { error?: { details?: unknown } }).error?.details;
      return typeof details === 'object' && details !== null && Object.keys(details).length > 0;
    },
  },
}).createMachine({
  id: 'loggenRun',
  context: { config: null, progress: null, fieldErrors: {}, error: null, startNew: false },
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        id: 'checkRun',
        src: 'checkRun',
        onDone: [
          {
            guard: 'isRunning',
            target: 'running',
            actions: assign({ startNew: false, progress: ({ event }) => ({ current: event.output!.current, max: event.output!.max }) }),
          },
          { target: 'idle' },
        ],
        // The form stays usable: not knowing about an earlier run must not block a new one.
        onError: { target: 'idle' },
      },
    },
    idle: {
      on: { 'config.save': { target: 'saving', actions: assign({ config: ({ event }) => event.config, fieldErrors: {}, error: null }) } },
    },
    saving: {
      invoke: {
        id: 'saveConfig',
        src: 'saveConfig',
        input: ({ context }) => ({ config: context.config }),
        onDone: { target: 'running', actions: [assign({ progress: null, startNew: true }), 'notifyRunning'] },
        onError: [
          {
            guard: 'hasFieldErrors',
            target: 'idle',
            actions: assign({
              fieldErrors: ({ event }) =>
                Object.fromEntries(
                  Object.entries((event.error as { details: Record<string, unknown> }).details).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : [String(v)]]),
                ),
            }),
          },
          { target: 'idle', actions: assign({ error: ({ event }) => errorMessage(event.error, 'The configuration could not be saved.') }) },
        ],
      },
    },
    running: {
      on: {
        'run.progress': { actions: assign({ progress: ({ event }) => ({ current: event.current, max: event.max }) }) },
        'run.stop': 'stopping',
      },
      invoke: {
        id: 'followRun',
        src: 'followRun',
        input: ({ self, context }) => ({
          start: context.startNew,
          onProgress: (progress: RunProgress) => self.send({ type: 'run.progress', ...progress }),
        }),
        onDone: [
          { guard: 'isDone', target: 'done', actions: [assign({ progress: ({ event }) => ({ current: event.output.current, max: event.output.max }) }), 'notifyDone'] },
          {
            guard: 'isFailed',
            target: 'failed',
            actions: [
              assign({ error: ({ event }) => event.output.error ?? LOGGEN_FAILED }),
              { type: 'notifyFailed', params: ({ event }) => ({ reason: event.output.error ?? '' }) },
            ],
          },
          { target: 'idle' },
        ],
        onError: {
          target: 'failed',
          actions: [
            assign({ error: ({ event }) => errorMessage(event.error, 'The connection to the run was lost.') }),
            { type: 'notifyFailed', params: ({ event }) => ({ reason: errorMessage(event.error, 'The connection to the run was lost.') }) },
          ],
        },
      },
    },
    stopping: {
      invoke: {
        id: 'stopRun',
        src: 'stopRun',
        onDone: { target: 'idle' },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error, 'Loggen could not be stopped.') }) },
      },
    },
    done: {
      on: { 'config.save': { target: 'saving', actions: assign({ config: ({ event }) => event.config, fieldErrors: {}, error: null }) } },
    },
    failed: {
      on: { 'config.save': { target: 'saving', actions: assign({ config: ({ event }) => event.config, fieldErrors: {}, error: null }) } },
    },
  },
});

export type LoggenRunMachine = typeof loggenRunMachine;
