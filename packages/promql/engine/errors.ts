// The error answers of Prometheus' HTTP API: each error type maps to the status Prometheus 2.42 answers with.

export type PromQLErrorType = 'bad_data' | 'execution' | 'timeout' | 'canceled';

const STATUS: Record<PromQLErrorType, number> = { bad_data: 400, execution: 422, timeout: 503, canceled: 499 };

export class PromQLError extends Error {
  readonly type: PromQLErrorType;
  readonly status: number;
  /** For parse errors: the character range [start, end) of the query the error is about (to underline it). */
  readonly positionRange?: { start: number; end: number };

  constructor(type: PromQLErrorType, message: string, positionRange?: { start: number; end: number }) {
    super(message);
    this.name = 'PromQLError';
    this.type = type;
    this.status = STATUS[type];
    this.positionRange = positionRange;
  }
}

/** An error found while evaluating (Prometheus answers these as `execution`, 422). */
export function executionError(message: string): PromQLError {
  return new PromQLError('execution', message);
}

export const TOO_MANY_SAMPLES = 'query processing would load too many samples into memory in query execution';
export const QUERY_TIMEOUT = 'query timed out in query execution';
export const QUERY_CANCELED = 'query was canceled in query execution';
