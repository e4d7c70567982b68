import type { StorageEndpoint } from '../storage/storage-server';
import type { PromqlSettings } from './promql-settings';
import { createQueryPool, type QueryPriority } from './query-pool';
import type { AnswerBody } from '../http/answer-json';

// PromQL evaluation off the gateway's event loop: the shared query pool (query-pool.ts) with workers that run the
// engine with the metrics querier against the instance's storage (promql-worker.ts).

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

/** The worker's answer: the HTTP status and the JSON body exactly as the Prometheus API sends it (or its pieces). */
export interface PromqlAnswer {
  status: number;
  body: AnswerBody;
}

/** What a PromQL worker is sent: the job and the read side's settings. */
export interface PromqlWorkerJob {
  job: PromqlJob;
  settings: PromqlSettings;
  timeoutMs: number;
}

const GRACE_MS = 5_000;

export const errorBody = (errorType: string, error: string) => JSON.stringify({ status: 'error', errorType, error });

export function createPromqlPool(settings: PromqlSettings) {
  const pool = createQueryPool<PromqlWorkerJob, PromqlAnswer>({
    entry: new URL('./promql-worker.ts', import.meta.url),
    workers: settings.workers,
    graceMs: GRACE_MS,
    timedOut: () => ({ status: 503, body: errorBody('timeout', 'query timed out in query execution') }),
    failed: (message) => ({ status: 500, body: errorBody('internal', message) }),
    // The engine reads the inner job's timeout.
    retime: (sent, timeoutMs) => ({ ...sent, timeoutMs, job: { ...sent.job, timeoutMs } }),
  });
  return {
    run: (job: PromqlJob, signal?: AbortSignal, priority?: QueryPriority) => pool.run({ job, settings, timeoutMs: job.timeoutMs }, signal, priority),
    close: pool.close,
    size: pool.size,
  };
}

export type PromqlPool = ReturnType<typeof createPromqlPool>;
