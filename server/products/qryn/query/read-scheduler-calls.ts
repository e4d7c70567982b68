import type { ReadRequest } from '../http/gateway-http';
import { readScheduler, type ReadLanguage } from './read-scheduler';
import type { InstanceReadLimits } from '../instances/read-limits';
import { clickhouseReadParams, instanceReadSettings, READ_PRIORITY } from './read-settings';
import type { StorageEndpoint } from '../storage/storage-server';
import type { StorageClient } from '../storage/storage-client';
import type { StreamOptions } from '../storage/storage-stream';

// The calls around the query languages (label names and values, series, index stats and volumes, detected fields,
// metric metadata, Tempo's tags, tag values and traces by id) go through the read scheduler as the evaluations do:
// in the instance's turn, within its share, with a deadline counted from the hand-over. While one runs, every
// storage query it makes carries the read's signal (the client going away or the deadline kills it on every node),
// the instance's ClickHouse bounds (its own limits, else the platform's) and ClickHouse's `priority` (background when
// more of the instance's reads wait behind it, so that ClickHouse serves the other instances' reads first).

/** The deadline of a call about streams, series or tags: far shorter than a query's, they read indexes. */
export const METADATA_TIMEOUT_MS = 30_000;

/** A storage client whose reads carry `signal` and `params` unless a read sets its own. */
export function boundStorage(storage: StorageClient, signal: AbortSignal, params: string): StorageClient {
  const bound = (options?: StreamOptions): StreamOptions => ({ signal, params, ...options });
  return {
    endpoint: storage.endpoint,
    query: (sql, options) => storage.query(sql, bound(options)),
    command: (sql, options) => storage.command(sql, options),
    insert: (table, columns, rows) => storage.insert(table, columns, rows),
    insertRowBinary: (table, columns, body) => storage.insertRowBinary(table, columns, body),
    queryRowBinary: (sql, own) => storage.queryRowBinary(sql, own ?? signal),
    streamRows: (sql, options) => storage.streamRows(sql, bound(options)),
    streamRowBinary: (sql, options) => storage.streamRowBinary(sql, bound(options)),
  };
}

/**
 * The instance's storage for its reads: its endpoint carries the instance's own read limits, which the query workers
 * and the queriers apply in place of the platform's (the endpoint's other properties are its prototype's).
 */
export function instanceStorage(storage: StorageClient, limits: InstanceReadLimits | undefined): StorageClient {
  if (!limits || Object.keys(limits).length === 0) return storage;
  const endpoint = Object.assign(Object.create(storage.endpoint) as StorageEndpoint, { readLimits: limits });
  return { ...storage, endpoint };
}

/**
 * Runs `work` in the instance's turn with a storage bound to the read. Rejects as the scheduler does: ReadRefused
 * past the instance's queue, ReadTimedOut past the deadline, the abort reason when the client went away.
 */
export async function scheduledCall<T>(
  r: ReadRequest,
  language: ReadLanguage,
  work: (storage: StorageClient, signal: AbortSignal) => Promise<T>,
  timeoutMs = METADATA_TIMEOUT_MS,
): Promise<T> {
  const gone = new AbortController();
  const onClose = () => {
    if (!r.res.writableFinished) gone.abort();
  };
  r.res.on('close', onClose);
  try {
    return await readScheduler().run(
      r.access.instance.id,
      language,
      (signal, start) => {
        const settings = instanceReadSettings(r.access.instance.read_limits);
        const params = clickhouseReadParams(settings, start.background ? READ_PRIORITY.background : READ_PRIORITY.normal);
        return work(boundStorage(r.storage, signal, params), signal);
      },
      { signal: gone.signal, timeoutMs },
    );
  } finally {
    r.res.off('close', onClose);
  }
}
