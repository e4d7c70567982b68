import { runQuery, type QueryData } from '../../../../packages/logql/engine/evaluate';
import { LogQLQueryError } from '../../../../packages/logql/engine/errors';
import { LogQLParseError } from '../../../../packages/logql/syntax/parse';
import { RegexError } from '../../../../packages/re2-pattern/re2-pattern';
import { successPieces, type AnswerBody } from '../http/answer-json';
import { createLogsQuerier } from './logs-querier';
import { LOKI_TIMEOUT_MESSAGE, lokiPlain, type LogqlAnswer, type LogqlJob } from './logql-pool';
import { workerStorageClient } from './query-worker-loop';
import { StorageError, type StorageClient } from '../storage/storage-client';
import { currentReadSettings, instanceReadSettings, limitRefusal } from './read-settings';

// One LogQL query (query or query_range) evaluated by the engine (packages/logql) over an instance's lines and
// answered as Loki's HTTP API shapes it, with its `stats`: errors are plain text with Loki's status (400 for the
// query's fault, 504 past the deadline). Runs in the query workers (logql-worker.ts), or in the gateway's thread
// when QRYN_LOKI_WORKERS is 0.

export async function evaluateLogql(job: LogqlJob, signal?: AbortSignal, client?: StorageClient): Promise<LogqlAnswer> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(job.timeoutMs);
  const abort = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    const querier = createLogsQuerier(client ?? workerStorageClient(job.endpoint), job.database);
    const { data, stats } = await runQuery(querier, job.request, job.limits, abort);
    if (timeout.aborted) return lokiPlain(504, LOKI_TIMEOUT_MESSAGE);
    const tooLarge = overAnswerCap(data);
    if (tooLarge) return lokiPlain(400, tooLarge);
    const execTime = (performance.now() - started) / 1000;
    const returned = data.resultType === 'streams' ? data.result.reduce((n, s) => n + s.values.length, 0) : 0;
    const answerStats = {
      summary: {
        bytesProcessedPerSecond: execTime > 0 ? Math.round(stats.bytesRead / execTime) : 0,
        linesProcessedPerSecond: execTime > 0 ? Math.round(stats.linesRead / execTime) : 0,
        totalBytesProcessed: stats.bytesRead,
        totalLinesProcessed: stats.linesRead,
        totalPostFilterLines: stats.postFilterLines,
        execTime,
        queueTime: 0,
        subqueries: 0,
        totalEntriesReturned: returned,
        splits: 0,
        shards: 0,
        totalStructuredMetadataBytesProcessed: 0,
      },
      querier: { store: { totalChunksRef: 0, totalChunksDownloaded: 0, chunksDownloadTime: 0, chunk: { decompressedBytes: stats.bytesRead, decompressedLines: stats.linesRead, totalDuplicates: 0 } } },
      ingester: { totalReached: 0, totalChunksMatched: 0, totalBatches: 0, totalLinesSent: 0 },
    };
    return { status: 200, body: lokiAnswerBody(data, answerStats), contentType: 'application/json; charset=utf-8' };
  } catch (error) {
    // The deadline also ends the engine's work at its next check: whatever the abort surfaced as, it is a timeout.
    if (timeout.aborted) return lokiPlain(504, LOKI_TIMEOUT_MESSAGE);
    if (error instanceof LogQLParseError || error instanceof RegexError) return lokiPlain(400, error.message);
    if (error instanceof LogQLQueryError) return lokiPlain(error.status, error.message);
    if (error instanceof StorageError) {
      // ClickHouse stopped the read at one of its bounds: Loki's answer for a query past a limit, naming the limit.
      if (error.code === 159) return lokiPlain(504, LOKI_TIMEOUT_MESSAGE);
      const refusal = limitRefusal(error.code, instanceReadSettings(job.endpoint.readLimits));
      if (refusal) return lokiPlain(400, `${refusal}; consider adding more specific stream selectors or reduce the time range of the query`);
    }
    if (error instanceof StorageError) return { error: { kind: 'storage', message: error.message, status: error.status, code: error.code } };
    return { error: { kind: 'internal', message: error instanceof Error ? (error.stack ?? error.message) : String(error) } };
  }
}

/**
 * The answer's JSON in pieces, a series or stream at a time (each let go once written); a scalar in one text. The
 * pieces joined are JSON.stringify({ status: 'success', data: { ...data, stats } }).
 */
export function lokiAnswerBody(data: QueryData, stats: Record<string, unknown>): AnswerBody {
  if (data.resultType === 'scalar') return JSON.stringify({ status: 'success', data: { ...data, stats } });
  const result: unknown[] = data.result;
  return successPieces(data.resultType, result.length, (i) => {
    const text = JSON.stringify(result[i]);
    result[i] = undefined;
    return text;
  }, { stats });
}

/** Loki's text for an answer past the points cap (QRYN_LOKI_MAX_ANSWER_POINTS), in the form of its series limit. */
function overAnswerCap(data: Awaited<ReturnType<typeof runQuery>>['data']): string | undefined {
  if (data.resultType !== 'matrix') return undefined;
  const limit = currentReadSettings().logqlMaxPoints;
  let points = 0;
  for (const s of data.result) points += s.values.length;
  if (points <= limit) return undefined;
  return `maximum number of points (${limit}) reached for a single query; consider reducing query cardinality by adding more specific stream selectors, reducing the time range or the resolution (step), or aggregating results with functions like sum(), count() or topk()`;
}
