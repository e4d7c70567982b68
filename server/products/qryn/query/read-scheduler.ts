import { readSchedulerSettings, type ReadSchedulerSettings } from './read-scheduler-settings';

// The seam every qryn read goes through (PromQL, LogQL, TraceQL and the calls around them): a read of an instance is
// handed to the scheduler as a piece of work, and the scheduler decides when it runs. The read languages only know
// this interface; how reads are queued, shared between instances and bounded is the scheduler's alone.
//
// Every instance has a queue of its own. A bounded number of reads run at once over all instances (what the query
// workers and the storage can serve side by side), and one instance never has more than its share of them running:
// when a read ends, the next one comes from the instance served longest ago among those with one waiting and under
// their share (round robin), so an instance that sends many reads waits behind itself, not others behind it. An
// instance with its queue full is refused at once (ReadRefused, answered 429 with Retry-After) instead of holding
// memory and deadlines it cannot meet. A read's deadline starts when it is handed over: time in the queue counts.

/** The read languages, for the per-instance counters and the queue's accounting. */
export type ReadLanguage = 'promql' | 'logql' | 'traceql';

export interface ReadOptions {
  /** The caller's own cancellation (the client went away). */
  signal?: AbortSignal;
  /** The read's deadline, counted from the moment it is handed to the scheduler (queue time included). */
  timeoutMs: number;
}

/** What a read is told when it starts: its deadline, which already counts the time it waited. */
export interface ReadStart {
  /** The deadline, ms since the epoch. */
  deadlineMs: number;
  /** What is left of the deadline now (at least 1 ms, so it can be handed on as a timeout). */
  remainingMs(): number;
  /**
   * More of the instance's reads wait behind this one: the instance reads more than its share, so this read is
   * evaluated at low priority (the query pool's low-priority workers) and takes CPU from other instances' reads last.
   */
  background: boolean;
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

/**
 * A read whose deadline passed: thrown by run() when it passed in the queue, and the abort reason of the signal
 * `work` gets when it passes while the read runs (answered with the language's timeout answer).
 */
export class ReadTimedOut extends Error {
  constructor() {
    super('The read ran past its deadline.');
  }
}

/** Loki's and Mimir's text when a tenant's queue is full. */
export const TOO_MANY_OUTSTANDING = 'too many outstanding requests';

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
   * on the deadline (its reason then a ReadTimedOut); it must stop its storage reads and evaluation when that signal
   * aborts. Rejects with ReadRefused when the instance's queue is full, with ReadTimedOut when the deadline passes
   * in the queue, and with the caller's abort reason when the caller gives up while the read waits.
   */
  run<T>(instanceId: string, language: ReadLanguage, work: (signal: AbortSignal, start: ReadStart) => Promise<T>, options: ReadOptions): Promise<T>;
  /** Adds the size of an answer sent for the instance (the counters' bytes answered). */
  answered(instanceId: string, bytes: number): void;
  /** The instance's read counters. */
  counters(instanceId: string): ReadCounters;
  /** The caps in force. */
  readonly settings: ReadSchedulerSettings;
}

interface Waiting {
  begin(): void;
  drop(): void;
}

interface InstanceState {
  counters: ReadCounters;
  queue: Waiting[];
  /** Mean time of the instance's recent reads (moving average), for the Retry-After of a refusal. */
  meanMs: number;
  servedAt: number;
}

const RETRY_AFTER_MAX_S = 60;

export function createReadScheduler(settings: ReadSchedulerSettings = readSchedulerSettings()): ReadScheduler {
  const instances = new Map<string, InstanceState>();
  /** Instances with reads waiting. */
  const waiting = new Set<string>();
  /** Reads started so far: an instance's `servedAt` is this count when its last read started. */
  let starts = 0;
  let running = 0;

  const of = (instanceId: string): InstanceState => {
    let s = instances.get(instanceId);
    if (!s) instances.set(instanceId, (s = { counters: { running: 0, queued: 0, refused: 0, timedOut: 0, bytesAnswered: 0 }, queue: [], meanMs: 1000, servedAt: 0 }));
    return s;
  };

  /**
   * Starts waiting reads while there is room: each time the read of the instance served longest ago among those
   * under their share (round robin, which also counts the reads an instance started without waiting).
   */
  function pump(): void {
    while (running < settings.concurrency) {
      let next: InstanceState | undefined;
      let nextId = '';
      for (const id of waiting) {
        const s = of(id);
        if (s.counters.running < settings.instanceRunning && (!next || s.servedAt < next.servedAt)) {
          next = s;
          nextId = id;
        }
      }
      // Every instance with reads waiting is at its share (or none waits).
      if (!next) return;
      const read = next.queue.shift()!;
      next.counters.queued--;
      if (next.queue.length === 0) waiting.delete(nextId);
      read.begin();
    }
  }

  function retryAfter(s: InstanceState): number {
    // About the time the reads ahead need to drain at the instance's share.
    const ahead = s.counters.running + s.queue.length;
    const seconds = Math.ceil((s.meanMs * ahead) / settings.instanceRunning / 1000);
    return Math.min(RETRY_AFTER_MAX_S, Math.max(1, seconds));
  }

  function run<T>(instanceId: string, _language: ReadLanguage, work: (signal: AbortSignal, start: ReadStart) => Promise<T>, options: ReadOptions): Promise<T> {
    const s = of(instanceId);
    const deadlineMs = Date.now() + options.timeoutMs;
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);

    const execute = (): Promise<T> => {
      running++;
      s.counters.running++;
      s.servedAt = ++starts;
      const started = Date.now();
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(new ReadTimedOut()), Math.max(0, deadlineMs - started));
      const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
      const start: ReadStart = { deadlineMs, remainingMs: () => Math.max(1, deadlineMs - Date.now()), background: s.queue.length > 0 };
      let result: Promise<T>;
      try {
        result = work(signal, start);
      } catch (error) {
        result = Promise.reject(error);
      }
      return result.finally(() => {
        clearTimeout(timer);
        running--;
        s.counters.running--;
        if (deadline.signal.aborted) s.counters.timedOut++;
        s.meanMs = s.meanMs * 0.8 + (Date.now() - started) * 0.2;
        pump();
      });
    };

    // Straight in when there is room and nothing of this instance waits ahead of it.
    if (running < settings.concurrency && s.counters.running < settings.instanceRunning && s.queue.length === 0) return execute();
    if (s.queue.length >= settings.instanceQueued) {
      s.counters.refused++;
      return Promise.reject(new ReadRefused(TOO_MANY_OUTSTANDING, retryAfter(s)));
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        entry.drop();
        reject(options.signal!.reason);
      };
      const timer = setTimeout(() => {
        entry.drop();
        s.counters.timedOut++;
        reject(new ReadTimedOut());
      }, options.timeoutMs);
      const entry: Waiting = {
        begin: () => {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          execute().then(resolve, reject);
        },
        drop: () => {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          const at = s.queue.indexOf(entry);
          if (at < 0) return;
          s.queue.splice(at, 1);
          s.counters.queued--;
          if (s.queue.length === 0) waiting.delete(instanceId);
        },
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      s.queue.push(entry);
      s.counters.queued++;
      waiting.add(instanceId);
    });
  }

  return {
    settings,
    run,
    answered(instanceId, bytes) {
      of(instanceId).counters.bytesAnswered += bytes;
    },
    counters: (instanceId) => ({ ...of(instanceId).counters }),
  };
}

let shared: ReadScheduler | undefined;

/** The platform's one scheduler, shared by every read API of every instance (its settings read at first use). */
export function readScheduler(): ReadScheduler {
  shared ??= createReadScheduler();
  return shared;
}
