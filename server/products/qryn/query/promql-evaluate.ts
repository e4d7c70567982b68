import { createEngine } from '../../../../packages/promql/engine/engine';
import { PromQLError } from '../../../../packages/promql/engine/errors';
import { formatResult } from '../../../../packages/promql/engine/format';
import { parseExpr } from '../../../../packages/promql/parser/parse';
import { formatExpr } from '../../../../packages/promql/parser/print';
import { RegexError } from '../../../../packages/re2-pattern/re2-pattern';
import { successPieces, type AnswerBody } from '../http/answer-json';
import { createMetricsQuerier } from './metrics-querier';
import { errorBody, type PromqlAnswer, type PromqlJob } from './promql-pool';
import type { PromqlSettings } from './promql-settings';
import { workerStorageClient } from './query-worker-loop';
import { StorageError } from '../storage/storage-client';
import { currentReadSettings, instanceReadSettings, limitRefusal, settingName } from './read-settings';
import type { Value } from '../../../../packages/promql/engine/value';

// One PromQL call evaluated by the engine (packages/promql) over an instance's metrics, answered as the Prometheus
// HTTP API shapes it. Runs in the query workers (promql-worker.ts); the benchmark also calls it in-process.

export async function evaluatePromql(job: PromqlJob, settings: PromqlSettings, signal?: AbortSignal): Promise<PromqlAnswer> {
  const timeout = AbortSignal.timeout(job.timeoutMs);
  const abort = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    const q = job.query;
    if (q.kind === 'format') return { status: 200, body: JSON.stringify({ status: 'success', data: formatExpr(parseExpr(q.query)) }) };
    const engine = createEngine({ lookbackDeltaMs: settings.lookbackDeltaMs, maxSamples: settings.maxSamples, timeoutMs: job.timeoutMs, maxPointsPerSeries: settings.maxPointsPerSeries });
    const querier = createMetricsQuerier(workerStorageClient(job.endpoint), job.database).querier;
    const result = q.kind === 'instant'
      ? await engine.instantQuery(querier, q.query, q.timeMs, abort)
      : await engine.rangeQuery(querier, q.query, q.startMs, q.endMs, q.stepMs, abort);
    const tooLarge = overAnswerCaps(result.value);
    if (tooLarge) return { status: 422, body: errorBody('execution', tooLarge) };
    return { status: 200, body: promqlAnswerBody(result.value, result.warnings) };
  } catch (error) {
    // The deadline also aborts the storage reads: whatever the abort surfaced as, it is a timeout.
    if (timeout.aborted && !signal?.aborted) return { status: 503, body: errorBody('timeout', 'query timed out in query execution') };
    if (error instanceof PromQLError) return { status: error.status, body: errorBody(error.type, error.message) };
    if (error instanceof RegexError) return { status: 400, body: errorBody('bad_data', error.message) };
    if (timeout.aborted) return { status: 503, body: errorBody('timeout', 'query timed out in query execution') };
    if (signal?.aborted) return { status: 503, body: errorBody('canceled', 'query was canceled in query execution') };
    if (error instanceof StorageError) {
      // ClickHouse stopped the read at one of its bounds: Prometheus' execution error (422), naming the limit.
      if (error.code === 159) return { status: 503, body: errorBody('timeout', 'query timed out in query execution') };
      const refusal = limitRefusal(error.code, instanceReadSettings(job.endpoint.readLimits));
      if (refusal) return { status: 422, body: errorBody('execution', refusal) };
      if (error.code === 427) return { status: 400, body: errorBody('bad_data', 'invalid regular expression') };
      return { status: 503, body: errorBody('unavailable', 'The storage is not available at the moment. Try again later.') };
    }
    return { status: 500, body: errorBody('internal', error instanceof Error ? error.message : String(error)) };
  }
}

/**
 * The answer's JSON in pieces, a series or sample at a time, each formatted only when it is written; a scalar or
 * string in one text. The pieces joined are JSON.stringify({ status: 'success', data: formatResult(value), warnings }).
 */
export function promqlAnswerBody(value: Value, warnings: string[]): AnswerBody {
  const after = warnings.length > 0 ? { warnings } : {};
  if (value.type === 'matrix') return successPieces('matrix', value.series.length, (i) => formattedItem({ type: 'matrix', series: [value.series[i]] }), {}, after);
  if (value.type === 'vector') return successPieces('vector', value.samples.length, (i) => formattedItem({ ...value, samples: [value.samples[i]] }), {}, after);
  return JSON.stringify({ status: 'success', data: formatResult(value), ...after });
}

const formattedItem = (one: Value) => JSON.stringify((formatResult(one).result as unknown[])[0]);

/** The answer's series and points against QRYN_PROMQL_MAX_SERIES and QRYN_PROMQL_MAX_ANSWER_POINTS. */
function overAnswerCaps(value: Value): string | undefined {
  const { promqlMaxSeries, promqlMaxPoints } = currentReadSettings();
  const series = value.type === 'matrix' ? value.series.length : value.type === 'vector' ? value.samples.length : 0;
  if (series > promqlMaxSeries) return `maximum number of series (${promqlMaxSeries}) reached for a single query (${settingName('promqlMaxSeries')})`;
  let points = series;
  if (value.type === 'matrix') {
    points = 0;
    for (const s of value.series) points += s.values.length;
  }
  if (points > promqlMaxPoints) return `query processing would load too many samples into memory in query execution: the answer holds ${points} points, over the limit of ${promqlMaxPoints} (${settingName('promqlMaxPoints')})`;
  return undefined;
}
