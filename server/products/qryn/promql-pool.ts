import { Worker } from 'node:worker_threads';
import type { StorageEndpoint } from './storage-server';
import type { PromqlSettings } from './promql-settings';

// PromQL evaluation off the gateway's event loop: a small pool of worker threads, each running the engine with the
// metrics querier against the instance's storage. A query goes to the least busy worker; the client going away
// aborts it there (`cancel`); a worker that does not answer within the timeout plus a grace period (evaluation that
// never yields) is terminated and replaced, and its queries answer as timed out.

export type PromqlQuery =
  | { kind: 'instant'; query: string; timeMs: number }
  | { kind: 'range'; query: string; startMs: number; endMs: number; stepMs: number }
  | { kind: 'format'; query: string };

export interface PromqlJob {
  endpoint: StorageEndpoint;
  database: string;
  query: PromqlQuery;
  timeoutMs: number;
}

/** The worker's answer: the HTTP status and the JSON body exactly as the Prometheus API sends it. */
export interface PromqlAnswer {
  status: number;
  body: string;
}

export interface WorkerRequest {
  type: 'run';
  id: number;
  job: PromqlJob;
  settings: PromqlSettings;
}
export type WorkerMessage = WorkerRequest | { type: 'cancel'; id: number };
export interface WorkerReply {
  id: number;
  answer: PromqlAnswer;
}

const GRACE_MS = 5_000;

export const errorBody = (errorType: string, error: string) => JSON.stringify({ status: 'error', errorType, error });

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (answer: PromqlAnswer) => void; timer: NodeJS.Timeout }>;
}

export function createPromqlPool(settings: PromqlSettings) {
  const slots: Slot[] = [];
  let nextId = 1;

  function spawn(): Slot {
    const worker = new Worker(new URL('./promql-worker-boot.mjs', import.meta.url), {
      workerData: { entry: new URL('./promql-worker.ts', import.meta.url).href },
    });
    // Idle workers do not keep the process alive.
    worker.unref();
    const slot: Slot = { worker, pending: new Map() };
    worker.on('message', (reply: WorkerReply) => {
      const waiting = slot.pending.get(reply.id);
      if (!waiting) return;
      clearTimeout(waiting.timer);
      slot.pending.delete(reply.id);
      waiting.resolve(reply.answer);
    });
    const fail = (message: string) => {
      for (const [, waiting] of slot.pending) {
        clearTimeout(waiting.timer);
        waiting.resolve({ status: 500, body: errorBody('internal', message) });
      }
      slot.pending.clear();
      const index = slots.indexOf(slot);
      if (index >= 0) slots.splice(index, 1);
    };
    worker.on('error', (error) => fail(`The query worker failed: ${error.message}`));
    worker.on('exit', () => fail('The query worker stopped.'));
    return slot;
  }

  function pick(): Slot {
    if (slots.length < settings.workers) {
      const slot = spawn();
      slots.push(slot);
      return slot;
    }
    return slots.reduce((best, slot) => (slot.pending.size < best.pending.size ? slot : best));
  }

  return {
    run(job: PromqlJob, signal?: AbortSignal): Promise<PromqlAnswer> {
      const slot = pick();
      const id = nextId++;
      return new Promise<PromqlAnswer>((resolve) => {
        const timer = setTimeout(() => {
          // The engine checks its deadline between steps; a worker still silent after the grace period is stuck.
          slot.pending.delete(id);
          resolve({ status: 503, body: errorBody('timeout', 'query timed out in query execution') });
          void slot.worker.terminate();
        }, job.timeoutMs + GRACE_MS);
        slot.pending.set(id, { resolve, timer });
        slot.worker.ref();
        const request: WorkerRequest = { type: 'run', id, job, settings };
        slot.worker.postMessage(request);
        signal?.addEventListener('abort', () => slot.worker.postMessage({ type: 'cancel', id } satisfies WorkerMessage), { once: true });
      }).finally(() => {
        if (slot.pending.size === 0) slot.worker.unref();
      });
    },
    /** Stops every worker (the platform's close). */
    async close(): Promise<void> {
      const all = slots.splice(0);
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
    size: () => slots.length,
  };
}

export type PromqlPool = ReturnType<typeof createPromqlPool>;
