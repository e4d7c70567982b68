// The seam every qryn read goes through (PromQL, LogQL, TraceQL and the calls around them): a read of an instance is
// handed to the scheduler as a piece of work, and the scheduler decides when it runs. The read languages only know
// this interface; how reads are queued, shared between instances and bounded is the scheduler's alone.
//
// This first implementation runs every read at once (no queue, no per-instance caps); the multi-tenant scheduler
// replaces the body of createReadScheduler without changing the interface.

/** The read languages, for the per-instance counters and the queue's accounting. */
export type ReadLanguage = 'promql' | 'logql' | 'traceql';

export interface ReadOptions {
  /** The caller's own cancellation (the client went away). */
  signal?: AbortSignal;
  /** The read's deadline, counted from the moment it is handed to the scheduler (queue time included). */
  timeoutMs: number;
}

/** A read refused before it ran: the instance already holds its share (answered 429 with Retry-After). */
export class ReadRefused extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export interface ReadCounters {
  running: number;
  queued: number;
  refused: number;
  timedOut: number;
  bytesAnswered: number;
}

export interface ReadScheduler {
  /**
   * Runs `work` for the instance when its turn comes. `work` gets one signal that aborts on the caller's signal and
   * on the deadline; it must stop its storage reads and evaluation when that signal aborts.
   */
  run<T>(instanceId: string, language: ReadLanguage, work: (signal: AbortSignal) => Promise<T>, options: ReadOptions): Promise<T>;
  /** Adds the size of an answer sent for the instance (the counters' bytes answered). */
  answered(instanceId: string, bytes: number): void;
  /** The instance's read counters. */
  counters(instanceId: string): ReadCounters;
}

export function createReadScheduler(): ReadScheduler {
  const counters = new Map<string, ReadCounters>();
  const of = (instanceId: string): ReadCounters => {
    let c = counters.get(instanceId);
    if (!c) counters.set(instanceId, (c = { running: 0, queued: 0, refused: 0, timedOut: 0, bytesAnswered: 0 }));
    return c;
  };
  return {
    async run(instanceId, _language, work, options) {
      const c = of(instanceId);
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      c.running++;
      try {
        return await work(signal);
      } finally {
        c.running--;
        if (timeout.aborted) c.timedOut++;
      }
    },
    answered(instanceId, bytes) {
      of(instanceId).bytesAnswered += bytes;
    },
    counters: (instanceId) => ({ ...of(instanceId) }),
  };
}

let shared: ReadScheduler | undefined;

/** The platform's one scheduler, shared by every read API of every instance. */
export function readScheduler(): ReadScheduler {
  shared ??= createReadScheduler();
  return shared;
}
