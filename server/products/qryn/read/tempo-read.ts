import { HttpError, type ReadRequest } from '../http/gateway-http';
import { ReadRefused } from '../query/read-scheduler';
import { scheduledCall } from '../query/read-scheduler-calls';
import type { StorageClient } from '../storage/storage-client';
import { parseQuery, TraceQLParseError } from '../../../../packages/traceql/parse';
import { TraceQLValidationError } from '../../../../packages/traceql/validate';
import type { Query } from '../../../../packages/traceql/ast';

// What the Tempo search and metrics calls share: reading the query parameter and handing the read to the scheduler.

const READ_TIMEOUT_MS = 30_000;

/** A TraceQL query parameter, parsed and validated; a bad one is 400 with Tempo's text. */
export function parseTraceQLParam(q: string): Query {
  try {
    return parseQuery(q);
  } catch (error) {
    if (error instanceof TraceQLParseError || error instanceof TraceQLValidationError) throw new HttpError(400, `invalid TraceQL query: ${error.message}`);
    throw error;
  }
}

/**
 * A read handed to the read scheduler: stops when the client leaves or the deadline passes; refused → 429. `storage`
 * is the instance's, bound to the read (its signal, the instance's read bounds and priority: read-scheduler-calls.ts).
 */
export async function scheduled<T>(r: ReadRequest, work: (signal: AbortSignal, storage: StorageClient) => Promise<T>): Promise<T> {
  try {
    return await scheduledCall(r, 'traceql', (storage, signal) => work(signal, storage), READ_TIMEOUT_MS);
  } catch (error) {
    if (error instanceof ReadRefused) {
      r.res.setHeader('retry-after', String(error.retryAfterSeconds));
      throw new HttpError(429, error.message);
    }
    throw error;
  }
}
