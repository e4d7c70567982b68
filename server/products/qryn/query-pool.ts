import { Worker } from 'node:worker_threads';

// Query evaluation off the gateway's event loop, shared by PromQL (promql-pool.ts) and LogQL (logql-pool.ts): a small
// pool of worker threads, each running one query language's evaluation (its entry module calls serveQueries of
// query-worker-loop.ts). A query goes to the least busy worker; the client going away aborts it there (`cancel`); a
// worker that does not answer within the timeout plus a grace period (evaluation that never yields) is terminated
// and replaced, and its query answers with the pool's timeout answer.

/** What a worker answers: the HTTP status, the body exactly as the API sends it, and its content type. */
export interface QueryAnswer {
  status: number;
  body: string;
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

export interface QueryPoolOptions<Answer> {
  /** The worker's TypeScript entry module (loaded through query-worker-boot.mjs). */
  entry: URL;
  workers: number;
  /** How long past a query's own deadline a silent worker is given before it is terminated. */
  graceMs: number;
  /** The answer of a query whose worker was terminated for not answering in time. */
  timedOut: () => Answer;
  /** The answer of the queries of a worker that failed or stopped. */
  failed: (message: string) => Answer;
}

interface Slot<Answer> {
  worker: Worker;
  pending: Map<number, { resolve: (answer: Answer) => void; timer: NodeJS.Timeout }>;
}

export function createQueryPool<Job extends { timeoutMs: number }, Answer>(options: QueryPoolOptions<Answer>) {
  const slots: Slot<Answer>[] = [];
  let nextId = 1;

  function spawn(): Slot<Answer> {
    const worker = new Worker(new URL('./query-worker-boot.mjs', import.meta.url), { workerData: { entry: options.entry.href } });
    // Idle workers do not keep the process alive.
    worker.unref();
    const slot: Slot<Answer> = { worker, pending: new Map() };
    worker.on('message', (reply: QueryWorkerReply<Answer>) => {
      const waiting = slot.pending.get(reply.id);
      if (!waiting) return;
      clearTimeout(waiting.timer);
      slot.pending.delete(reply.id);
      waiting.resolve(reply.answer);
    });
    const fail = (message: string) => {
      for (const [, waiting] of slot.pending) {
        clearTimeout(waiting.timer);
        waiting.resolve(options.failed(message));
      }
      slot.pending.clear();
      const index = slots.indexOf(slot);
      if (index >= 0) slots.splice(index, 1);
    };
    worker.on('error', (error) => fail(`The query worker failed: ${error.message}`));
    worker.on('exit', () => fail('The query worker stopped.'));
    return slot;
  }

  function pick(): Slot<Answer> {
    if (slots.length < options.workers) {
      const slot = spawn();
      slots.push(slot);
      return slot;
    }
    return slots.reduce((best, slot) => (slot.pending.size < best.pending.size ? slot : best));
  }

  return {
    run(job: Job, signal?: AbortSignal): Promise<Answer> {
      const slot = pick();
      const id = nextId++;
      return new Promise<Answer>((resolve) => {
        const timer = setTimeout(() => {
          // The engines check their deadline as they go; a worker still silent after the grace period is stuck.
          slot.pending.delete(id);
          resolve(options.timedOut());
          // Out of the pool at once, so that no query is sent to it while it stops.
          const index = slots.indexOf(slot);
          if (index >= 0) slots.splice(index, 1);
          void slot.worker.terminate();
        }, job.timeoutMs + options.graceMs);
        slot.pending.set(id, { resolve, timer });
        slot.worker.ref();
        slot.worker.postMessage({ type: 'run', id, job } satisfies QueryWorkerMessage<Job>);
        signal?.addEventListener('abort', () => slot.worker.postMessage({ type: 'cancel', id } satisfies QueryWorkerMessage<Job>), { once: true });
      }).finally(() => {
        if (slot.pending.size === 0) slot.worker.unref();
      });
    },
    /** Stops every worker (the platform's close). */
    async close(): Promise<void> {
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
