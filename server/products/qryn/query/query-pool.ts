import { Worker } from 'node:worker_threads';
import type { AnswerBody } from '../http/answer-json';

// Query evaluation off the gateway's event loop, shared by PromQL (promql-pool.ts) and LogQL (logql-pool.ts): a small
// pool of worker threads, each running one query language's evaluation (its entry module calls serveQueries of
// query-worker-loop.ts). A query goes to the least busy worker; the client going away aborts it there (`cancel`). The
// engines stop at their deadline themselves; a worker still silent past a query's deadline plus a grace period
// (evaluation that never yields) is terminated as a last resort: that query answers with the pool's timeout answer,
// and the other queries the worker held are sent again to a fresh worker with what is left of their deadlines, so
// one query running over never fails another's. A worker that stops on its own (a crash) has its queries sent again
// once; a query whose second worker stops too answers with the pool's failure answer.
//
// Queries of `low` priority (the read scheduler's background reads: an instance's reads while more of its own wait
// behind them) run in a second set of as many workers whose threads have a lower scheduling priority, so that one
// instance's flood of expensive evaluations takes CPU from the other instances' reads last.

/** What a worker answers: the HTTP status, the body exactly as the API sends it (or its pieces), and its content type. */
export interface QueryAnswer {
  status: number;
  body: AnswerBody;
  contentType?: string;
}

export interface QueryRequestMessage<Job> {
  type: 'run';
  id: number;
  job: Job;
}
export type QueryWorkerMessage<Job> = QueryRequestMessage<Job> | { type: 'cancel'; id: number };
export interface QueryWorkerReply<Answer> {
  id: number;
  answer: Answer;
}

export interface QueryPoolOptions<Job, Answer> {
  /** The worker's TypeScript entry module (loaded through query-worker-boot.mjs). */
  entry: URL;
  workers: number;
  /** How long past a query's own deadline a silent worker is given before it is terminated. */
  graceMs: number;
  /** The answer of a query whose worker was terminated for not answering in time. */
  timedOut: () => Answer;
  /** The answer of the queries of a worker that failed or stopped. */
  failed: (message: string) => Answer;
  /** The job with its timeout set to what is left of its deadline (a job sent again); by default its `timeoutMs`. */
  retime?: (job: Job, timeoutMs: number) => Job;
}

/** `low`: in the low-priority workers. */
export type QueryPriority = 'normal' | 'low';

/** The nice value of the low-priority workers' threads (of 19). */
const LOW_PRIORITY_NICE = 10;

interface Pending<Job, Answer> {
  job: Job;
  low: boolean;
  /** The job's deadline, ms since the epoch. */
  deadlineMs: number;
  resolve: (answer: Answer) => void;
  /** Tells the worker holding the job now to stop it. */
  cancel?: () => void;
  timer?: NodeJS.Timeout;
  /** Times the job was sent again after its worker stopped on its own. */
  resent: number;
}

interface Slot<Job, Answer> {
  worker: Worker;
  low: boolean;
  pending: Map<number, Pending<Job, Answer>>;
}

export function createQueryPool<Job extends { timeoutMs: number }, Answer>(options: QueryPoolOptions<Job, Answer>) {
  const slots: Slot<Job, Answer>[] = [];
  const retime = options.retime ?? ((job: Job, timeoutMs: number) => ({ ...job, timeoutMs }));
  let nextId = 1;
  let closed = false;

  const retire = (slot: Slot<Job, Answer>) => {
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
  };

  /** Takes the worker's queries off it (their timers stopped), to send them elsewhere or answer them. */
  function takePending(slot: Slot<Job, Answer>): Pending<Job, Answer>[] {
    const all = [...slot.pending.values()];
    slot.pending.clear();
    for (const entry of all) clearTimeout(entry.timer);
    return all;
  }

  function spawn(low: boolean): Slot<Job, Answer> {
    const workerData = { entry: options.entry.href, nice: low ? LOW_PRIORITY_NICE : 0 };
    const worker = new Worker(new URL('./query-worker-boot.mjs', import.meta.url), { workerData });
    // Idle workers do not keep the process alive.
    worker.unref();
    const slot: Slot<Job, Answer> = { worker, low, pending: new Map() };
    worker.on('message', (reply: QueryWorkerReply<Answer>) => {
      const waiting = slot.pending.get(reply.id);
      if (!waiting) return;
      clearTimeout(waiting.timer);
      slot.pending.delete(reply.id);
      if (slot.pending.size === 0) worker.unref();
      waiting.resolve(reply.answer);
    });
    const fail = (message: string) => {
      retire(slot);
      for (const entry of takePending(slot)) {
        if (closed || entry.resent >= 1) entry.resolve(options.failed(message));
        else {
          entry.resent++;
          dispatch(entry);
        }
      }
    };
    worker.on('error', (error) => fail(`The query worker failed: ${error.message}`));
    worker.on('exit', () => fail('The query worker stopped.'));
    return slot;
  }

  function pick(low: boolean): Slot<Job, Answer> {
    const lane = slots.filter((slot) => slot.low === low);
    if (lane.length < options.workers) {
      const slot = spawn(low);
      slots.push(slot);
      return slot;
    }
    return lane.reduce((best, slot) => (slot.pending.size < best.pending.size ? slot : best));
  }

  /** The worker did not answer the query in time: it is stuck, so it goes, and its other queries go elsewhere. */
  function expire(slot: Slot<Job, Answer>, id: number): void {
    const stuck = slot.pending.get(id);
    if (!stuck) return;
    slot.pending.delete(id);
    // Out of the pool at once, so that no query is sent to it while it stops.
    retire(slot);
    const others = takePending(slot);
    void slot.worker.terminate();
    stuck.resolve(options.timedOut());
    for (const entry of others) dispatch(entry);
  }

  function dispatch(entry: Pending<Job, Answer>): void {
    const remainingMs = entry.deadlineMs - Date.now();
    if (remainingMs <= 0) {
      entry.resolve(options.timedOut());
      return;
    }
    const slot = pick(entry.low);
    const id = nextId++;
    slot.pending.set(id, entry);
    entry.timer = setTimeout(() => expire(slot, id), remainingMs + options.graceMs);
    entry.cancel = () => {
      if (slot.pending.has(id)) slot.worker.postMessage({ type: 'cancel', id } satisfies QueryWorkerMessage<Job>);
    };
    slot.worker.ref();
    slot.worker.postMessage({ type: 'run', id, job: retime(entry.job, remainingMs) } satisfies QueryWorkerMessage<Job>);
  }

  return {
    run(job: Job, signal?: AbortSignal, priority: QueryPriority = 'normal'): Promise<Answer> {
      return new Promise<Answer>((resolve) => {
        const entry: Pending<Job, Answer> = { job, low: priority === 'low', deadlineMs: Date.now() + job.timeoutMs, resolve, resent: 0 };
        dispatch(entry);
        signal?.addEventListener('abort', () => entry.cancel?.(), { once: true });
      });
    },
    /** Stops every worker (the platform's close). */
    async close(): Promise<void> {
      closed = true;
      const all = slots.splice(0);
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
    /** Worker threads running now. */
    size: () => slots.length,
    /** The thread ids of the running workers. */
    threadIds: () => slots.map((slot) => slot.worker.threadId),
  };
}

export type QueryPool<Job extends { timeoutMs: number }, Answer> = ReturnType<typeof createQueryPool<Job, Answer>>;
