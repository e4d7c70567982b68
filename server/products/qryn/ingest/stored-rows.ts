import { createHash } from 'node:crypto';
import { identifier, literal, storageClient, StorageError, type StorageClient } from '../storage/storage-client';
import { Batch, dayOf } from './batch';

// What a retry of a failed push finds already stored (push-retries.ts). Rows are matched as a multiset: a log line by
// stream, timestamp and the MD5 of its text; a sample by series and timestamp; a span by trace, span id and start.
// A row of the push that is found n times is not written again for its first n occurrences in the push.

/** Values per IN list: ClickHouse 18.16 parses at most 256 KiB of a query (max_query_size). */
const CHUNK = 2_000;

/**
 * Refuses a retry (503) while an insert of an earlier attempt still runs on some node: ClickHouse cannot kill it
 * (its Distributed insert waits for the stalled shard, Code 380 "unkillable stages"), and what it stores is only known
 * once it ends. A node that does not answer refuses the retry too: it may hold such an insert.
 */
export async function checkNoEarlierAttempt(client: StorageClient, queryIds: readonly string[]): Promise<void> {
  if (queryIds.length === 0) return;
  const cluster = client.endpoint.cluster;
  const nodes = cluster ? (await cluster.nodes()).map((node) => storageClient({ ...node, timeouts: client.endpoint.timeouts })) : [client];
  const sql = `SELECT count() AS running FROM system.processes WHERE query_id IN (${queryIds.map(literal).join(', ')})`;
  const counts = await Promise.all(nodes.map((node) => node.query<{ running: string }>(sql)));
  if (counts.some((rows) => Number(rows[0]?.running ?? 0) > 0)) {
    throw new StorageError('An earlier attempt of this push is still being stored; it is retried too early.', 503, undefined);
  }
}

const logKey = (fingerprint: string, timestampNs: bigint | string, md5: string) => `${fingerprint}|${timestampNs}|${md5}`;
const metricKey = (fingerprint: string, timestampNs: bigint | string) => `${fingerprint}|${timestampNs}`;
const spanKey = (traceId: string, spanId: string, timestampNs: bigint | string) => `${traceId}|${spanId}|${timestampNs}`;
const md5Hex = (text: string) => createHash('md5').update(text, 'utf8').digest('hex').toUpperCase();

function chunks<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
}

function bounds(rows: { timestampNs: bigint }[]): string {
  let min = rows[0].timestampNs;
  let max = min;
  for (const row of rows) {
    if (row.timestampNs < min) min = row.timestampNs;
    if (row.timestampNs > max) max = row.timestampNs;
  }
  return `date >= '${dayOf(min)}' AND date <= '${dayOf(max)}' AND timestamp_ns >= ${min} AND timestamp_ns <= ${max}`;
}

/** One table's rows of a push: the values of its IN column, and how its stored rows are selected and keyed. */
interface Lookup {
  rows: { timestampNs: bigint }[];
  values: string[];
  select: (where: string, values: string) => string;
  key: (row: Record<string, string>) => string;
}

/** The rows of `batch` already stored in the instance's tables, counted by key (every shard, through the Distributed tables). */
export async function storedRowCounts(client: StorageClient, database: string, batch: Batch): Promise<Map<string, number>> {
  const db = identifier(database);
  const lookups: Lookup[] = [
    {
      rows: batch.logs,
      values: batch.logs.map((l) => l.fingerprint),
      select: (where, values) => `SELECT toString(fingerprint) AS f, toString(timestamp_ns) AS t, hex(MD5(line)) AS h, count() AS c FROM ${db}.log_samples WHERE ${where} AND fingerprint IN (${values}) GROUP BY f, t, h`,
      key: (r) => `logs|${logKey(r.f, r.t, r.h)}`,
    },
    {
      rows: batch.metrics,
      values: batch.metrics.map((m) => m.fingerprint),
      select: (where, values) => `SELECT toString(fingerprint) AS f, toString(timestamp_ns) AS t, count() AS c FROM ${db}.metric_samples WHERE ${where} AND fingerprint IN (${values}) GROUP BY f, t`,
      key: (r) => `metrics|${metricKey(r.f, r.t)}`,
    },
    {
      rows: batch.spans,
      values: batch.spans.map((s) => literal(s.traceId)),
      select: (where, values) => `SELECT trace_id AS tr, span_id AS s, toString(timestamp_ns) AS t, count() AS c FROM ${db}.spans WHERE ${where} AND trace_id IN (${values}) GROUP BY tr, s, t`,
      key: (r) => `spans|${spanKey(r.tr, r.s, r.t)}`,
    },
  ];
  const counts = new Map<string, number>();
  for (const lookup of lookups) {
    if (lookup.rows.length === 0) continue;
    const where = bounds(lookup.rows);
    for (const part of chunks([...new Set(lookup.values)])) {
      for (const row of await client.query<Record<string, string>>(lookup.select(where, part.join(', ')))) {
        const key = lookup.key(row);
        counts.set(key, (counts.get(key) ?? 0) + Number(row.c));
      }
    }
  }
  return counts;
}

/** `batch` without the rows counted in `stored` (each count taken once); series and metadata are kept whole. */
export function withoutStored(batch: Batch, stored: Map<string, number>): Batch {
  const rest = new Batch();
  for (const [fingerprint, series] of batch.series) rest.series.set(fingerprint, series);
  const take = (key: string) => {
    const n = stored.get(key) ?? 0;
    if (n <= 0) return false;
    stored.set(key, n - 1);
    return true;
  };
  for (const log of batch.logs) if (!take(`logs|${logKey(log.fingerprint, log.timestampNs, md5Hex(log.line))}`)) rest.logs.push(log);
  for (const metric of batch.metrics) if (!take(`metrics|${metricKey(metric.fingerprint, metric.timestampNs)}`)) rest.metrics.push(metric);
  for (const span of batch.spans) if (!take(`spans|${spanKey(span.traceId, span.spanId, span.timestampNs)}`)) rest.spans.push(span);
  rest.metadata.push(...batch.metadata);
  return rest;
}
