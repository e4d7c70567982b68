import { HttpError, type ReadRequest } from './gateway-http';
import { readScheduler, ReadRefused } from './read-scheduler';
import { parseQuery, TraceQLParseError } from '../../../packages/traceql/parse';
import { TraceQLValidationError } from '../../../packages/traceql/validate';
import type { Query } from '../../../packages/traceql/ast';

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

/** A read handed to the read scheduler: stops when the client leaves or the deadline passes; refused → 429. */
export async function scheduled<T>(r: ReadRequest, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const gone = new AbortController();
  const onClose = () => {
    if (!r.res.writableFinished) gone.abort();
  };
  r.res.on('close', onClose);
  try {
    return await readScheduler().run(r.access.instance.id, 'traceql', work, { signal: gone.signal, timeoutMs: READ_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof ReadRefused) {
      r.res.setHeader('retry-after', String(error.retryAfterSeconds));
      throw new HttpError(429, error.message);
    }
    throw error;
  } finally {
    r.res.off('close', onClose);
  }
}
