import type { EngineLimits, QueryRequest } from '../../../../packages/logql/engine/evaluate';
import { createQueryPool, type QueryAnswer } from './query-pool';
import type { StorageEndpoint } from '../storage/storage-server';

// LogQL evaluation off the gateway's event loop: the shared query pool (query-pool.ts) with workers that read the
// instance's lines from ClickHouse themselves (logs-querier.ts) and run the engine (packages/logql) over them, so the
// lines cross no thread boundary: only the request goes in and the finished answer's text comes back.

export interface LogqlJob {
  /** Only the address and credentials (the shared server's endpoint object carries methods). */
  endpoint: StorageEndpoint;
  database: string;
  request: QueryRequest;
  limits: EngineLimits;
  timeoutMs: number;
}

/**
 * The worker's answer: the finished HTTP answer, or a storage or unexpected error that the gateway answers (and
 * logs) as it answers every such error of a read call.
 */
export type LogqlAnswer =
  | (QueryAnswer & { contentType: string })
  | { error: { kind: 'storage'; message: string; status: number; code: number | undefined } | { kind: 'internal'; message: string } };

/** Loki's answer past the query timeout. */
export const LOKI_TIMEOUT_MESSAGE = 'Request timed out, decrease the duration of the request or add more label matchers to your query.';

export const lokiPlain = (status: number, message: string): LogqlAnswer => ({ status, body: message, contentType: 'text/plain; charset=utf-8' });

/**
 * The engine checks its deadline every 20,000 lines and stops there; a worker still silent this long after the
 * deadline is stuck (the margin also covers a new worker's start, about a second under load, and the storage read).
 */
const GRACE_MS = 5_000;

export function createLogqlPool(workers: number) {
  return createQueryPool<LogqlJob, LogqlAnswer>({
    entry: new URL('./logql-worker.ts', import.meta.url),
    workers,
    graceMs: GRACE_MS,
    timedOut: () => lokiPlain(504, LOKI_TIMEOUT_MESSAGE),
    failed: (message) => ({ error: { kind: 'internal', message } }),
  });
}

export type LogqlPool = ReturnType<typeof createLogqlPool>;
