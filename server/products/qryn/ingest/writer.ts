import { randomUUID } from 'node:crypto';
import { identifier, StorageError, type StorageClient } from '../storage/storage-client';
import { ensureInstanceTable, upgradeInstanceSchema } from '../storage/schema';
import { Batch, IngestError, STALE_NAN_BITS, dayOf } from './batch';
import { FINGERPRINT_LIMIT_REACHED_MESSAGE } from '../../../../contract/qryn';
import { createInsertQueue } from './insert-queue';
import { createFailedPushes, pushIdentity, pushRetryWindowMs } from './push-retries';
import { checkNoEarlierAttempt, storedRowCounts, withoutStored } from './stored-rows';

// Writes a validated Batch into an instance's database. Series rows (time_series, series_labels) go first, so a
// sample is never readable without its labels. A series is written once per day per process (a small memory of
// what was written); after a restart it is written again, which ReplacingMergeTree folds away.
//
// The fingerprint limit: the distinct fingerprints of the current month (UTC) are loaded once per instance and
// month and kept up to date here; a batch that would bring a new fingerprint past the limit is refused whole (429).
//
// A push whose write fails is remembered for a window (push-retries.ts): its retry writes only the rows that the
// failed attempt left stored, so an agent that retries a push answered 503 does not store it twice.

export interface InstanceTarget {
  id: string;
  database: string;
  client: StorageClient;
  fingerprintLimit: number;
}

const MAX_REMEMBERED = 200_000;
const LOG_COLUMNS = ['date', 'fingerprint', 'timestamp_ns', 'line'] as const;
const METRIC_COLUMNS = ['date', 'fingerprint', 'timestamp_ns', 'value'] as const;

/**
 * metric_samples rows as RowBinary (Date as days since 1970, UInt64, Int64, Float64 little-endian): the value's bits
 * go in exactly, so a stale marker stays a stale marker and NaN stays NaN (TabSeparated has only `nan`).
 */
export function metricSamplesRowBinary(metrics: Batch['metrics']): Uint8Array {
  const out = Buffer.allocUnsafe(metrics.length * 26);
  let at = 0;
  for (const m of metrics) {
    out.writeUInt16LE(Number(m.timestampNs / 86_400_000_000_000n), at);
    out.writeBigUInt64LE(BigInt(m.fingerprint), at + 2);
    out.writeBigInt64LE(m.timestampNs, at + 10);
    if (m.stale) {
      out.writeUInt32LE(STALE_NAN_BITS.low, at + 18);
      out.writeUInt32LE(STALE_NAN_BITS.high, at + 22);
    } else out.writeDoubleLE(m.value, at + 18);
    at += 26;
  }
  return out;
}

const NS_PER_DAY = 86_400_000_000_000n;

/**
 * log_samples rows as RowBinary (Date as days since 1970, UInt64, Int64, String as a LEB128 length and UTF-8): no
 * text escaping here and no parsing in ClickHouse, which shares the machine's CPU with the gateway.
 */
export function logSamplesRowBinary(logs: Batch['logs']): Uint8Array {
  let size = 0;
  const lengths = new Array<number>(logs.length);
  for (let i = 0; i < logs.length; i++) {
    const n = Buffer.byteLength(logs[i].line, 'utf8');
    lengths[i] = n;
    size += 18 + varintSize(n) + n;
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  // Lines of one push mostly share a stream and a day: the fingerprint's number and the day are kept from the last row.
  let lastFingerprint = '';
  const fingerprint = Buffer.alloc(8);
  let dayStart = 0n;
  let dayEnd = -1n;
  let day = 0;
  for (let i = 0; i < logs.length; i++) {
    const log = logs[i];
    if (log.fingerprint !== lastFingerprint) {
      lastFingerprint = log.fingerprint;
      fingerprint.writeBigUInt64LE(BigInt(log.fingerprint));
    }
    if (log.timestampNs < dayStart || log.timestampNs >= dayEnd) {
      day = Number(log.timestampNs / NS_PER_DAY);
      dayStart = BigInt(day) * NS_PER_DAY;
      dayEnd = dayStart + NS_PER_DAY;
    }
    out.writeUInt16LE(day, at);
    fingerprint.copy(out, at + 2);
    out.writeBigInt64LE(log.timestampNs, at + 10);
    at += 18;
    for (let n = lengths[i]; ; n >>>= 7) {
      if (n < 0x80) {
        out[at++] = n;
        break;
      }
      out[at++] = (n & 0x7f) | 0x80;
    }
    at += out.write(log.line, at, 'utf8');
  }
  return out;
}

const varintSize = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

export function createWriter(nowMs: () => number, options: { retryWindowMs?: number } = {}) {
  const written = new Set<string>();
  const failedPushes = createFailedPushes(options.retryWindowMs ?? pushRetryWindowMs(process.env), nowMs);
  /** Identities of failed pushes whose retry is being written now. */
  const retrying = new Set<string>();
  // Sample rows of concurrent pushes go into ClickHouse together (insert-queue.ts); a push is acknowledged only
  // once its rows are stored.
  const samples = createInsertQueue();
  /** Instances whose metric_metadata table this process has made sure of. */
  const metadataReady = new Set<string>();
  const monthly = new Map<string, { month: string; fingerprints: Set<string> }>();

  async function monthFingerprints(target: InstanceTarget, month: string): Promise<Set<string>> {
    const known = monthly.get(target.id);
    if (known && known.month === month) return known.fingerprints;
    const rows = await target.client.query<{ fingerprint: string }>(
      `SELECT DISTINCT toString(fingerprint) AS fingerprint FROM ${identifier(target.database)}.time_series WHERE date >= toDate('${month}-01')`,
    );
    const entry = { month, fingerprints: new Set(rows.map((r) => r.fingerprint)) };
    monthly.set(target.id, entry);
    return entry.fingerprints;
  }

  const writer = {
    /** The month's distinct fingerprints reached the limit (limit above 0). */
    async limitReached(target: InstanceTarget): Promise<boolean> {
      if (target.fingerprintLimit <= 0) return false;
      const month = new Date(nowMs()).toISOString().slice(0, 7);
      return (await monthFingerprints(target, month)).size >= target.fingerprintLimit;
    },

    async write(target: InstanceTarget, batch: Batch): Promise<void> {
      const logRows = logSamplesRowBinary(batch.logs);
      const metricRows = metricSamplesRowBinary(batch.metrics);
      // The identity costs a hash of the whole push: computed only while the instance has failed pushes remembered.
      let identity = failedPushes.any(target.id) ? pushIdentity(target.id, logRows, metricRows, batch) : undefined;
      const earlier = identity === undefined ? undefined : failedPushes.get(identity);
      const queryIds: string[] = [];
      try {
        if (identity !== undefined && earlier) await retry(target, batch, identity, earlier.queryIds, queryIds);
        else await store(target, batch, logRows, metricRows, queryIds);
      } catch (error) {
        if (!(error instanceof IngestError)) failedPushes.failed((identity ??= pushIdentity(target.id, logRows, metricRows, batch)), target.id, queryIds);
        throw error;
      }
      if (identity !== undefined) failedPushes.stored(identity);
    },

    /** How many sample bodies were queued and how many inserts carried them (the combining, for tests and benchmarks). */
    insertStats: samples.stats,

    /** Forget what was remembered of an instance (its database was dropped or its limit changed). */
    forget(instanceId: string): void {
      monthly.delete(instanceId);
      metadataReady.delete(instanceId);
      for (const memo of written) if (memo.startsWith(`${instanceId}|`)) written.delete(memo);
    },
  };
  return writer;

  /** Writes what a failed push left unstored, once the inserts of its earlier attempts have ended. */
  async function retry(target: InstanceTarget, batch: Batch, identity: string, earlierQueryIds: readonly string[], queryIds: string[]): Promise<void> {
    // Two retries of one push at once would each find the same rows missing and each write them.
    if (retrying.has(identity)) throw new StorageError('This push is being retried already.', 503, undefined);
    retrying.add(identity);
    try {
      await checkNoEarlierAttempt(target.client, earlierQueryIds);
      const rest = withoutStored(batch, await storedRowCounts(target.client, target.database, batch));
      await store(target, rest, logSamplesRowBinary(rest.logs), metricSamplesRowBinary(rest.metrics), queryIds);
    } finally {
      retrying.delete(identity);
    }
  }

  /** Writes a batch; the query ids of its sample and span inserts are added to `queryIds` as they are sent. */
  async function store(target: InstanceTarget, batch: Batch, logRows: Uint8Array, metricRows: Uint8Array, queryIds: string[]): Promise<void> {
    const db = identifier(target.database);
    const month = new Date(nowMs()).toISOString().slice(0, 7);
    if (target.fingerprintLimit > 0 && batch.series.size > 0) {
      const monthSet = await monthFingerprints(target, month);
      const fresh = [...batch.series.keys()].filter((fp) => !monthSet.has(fp));
      if (fresh.length > 0 && monthSet.size + fresh.length > target.fingerprintLimit) throw new IngestError(FINGERPRINT_LIMIT_REACHED_MESSAGE, 429);
    }
    // Each series is recorded for every day it has samples on (retention drops days, labels must survive with them).
    const seriesDays = new Set<string>();
    // Consecutive rows mostly share series and day: only a change adds a key.
    let lastFingerprint = '';
    let lastDay = '';
    for (const rows of [batch.logs, batch.metrics]) {
      for (const row of rows) {
        const day = dayOf(row.timestampNs);
        if (row.fingerprint === lastFingerprint && day === lastDay) continue;
        lastFingerprint = row.fingerprint;
        lastDay = day;
        seriesDays.add(`${row.fingerprint}|${day}`);
      }
    }
    const seriesRows: (string | number)[][] = [];
    const labelRows: (string | number)[][] = [];
    const remember: string[] = [];
    for (const key of seriesDays) {
      const memo = `${target.id}|${key}`;
      if (written.has(memo)) continue;
      const [fingerprint, day] = key.split('|');
      const series = batch.series.get(fingerprint)!;
      seriesRows.push([day, series.type, fingerprint, JSON.stringify(series.labels)]);
      for (const [k, v] of Object.entries(series.labels)) labelRows.push([day, series.type, k, v, fingerprint]);
      remember.push(memo);
    }
    // The two series tables do not depend on each other: sent together, a push with new series waits one
    // ClickHouse round trip instead of two. allSettled so that neither is still on its way when the push fails.
    const seriesInserts = await Promise.allSettled([
      target.client.insert(`${db}.time_series`, ['date', 'type', 'fingerprint', 'labels'], seriesRows),
      target.client.insert(`${db}.series_labels`, ['date', 'type', 'key', 'val', 'fingerprint'], labelRows),
    ]);
    for (const result of seriesInserts) if (result.status === 'rejected') throw result.reason;
    // Series rows are stored before the samples are queued: a sample is never readable without its labels.
    await Promise.all([
      samples.insertRowBinary(target.client, `${db}.log_samples`, LOG_COLUMNS, logRows, queryIds),
      samples.insertRowBinary(target.client, `${db}.metric_samples`, METRIC_COLUMNS, metricRows, queryIds),
    ]);
    if (batch.metadata.length > 0) {
      // Prometheus resends every family's metadata each minute: one row per distinct entry and day is enough.
      const today = new Date(nowMs()).toISOString().slice(0, 10);
      const rows = new Map<string, string[]>();
      for (const m of batch.metadata) {
        const row = [today, m.metric, m.type, m.help, m.unit];
        const memo = `${target.id}|meta|${row.join('\u0000')}`;
        if (!written.has(memo)) rows.set(memo, row);
      }
      if (rows.size > 0) {
        if (!metadataReady.has(target.id)) {
          await ensureInstanceTable(target.client, target.database, 'metric_metadata');
          metadataReady.add(target.id);
        }
        await target.client.insert(`${db}.metric_metadata`, ['date', 'metric', 'type', 'help', 'unit'], [...rows.values()]);
        for (const memo of rows.keys()) remember.push(memo);
      }
    }
    if (batch.spans.length > 0) await upgradeInstanceSchema(target.client, target.database);
    const spansQueryId = `qryn-insert-${randomUUID()}`;
    if (batch.spans.length > 0) queryIds.push(spansQueryId);
    await target.client.insert(
      `${db}.spans`,
      ['date', 'trace_id', 'span_id', 'parent_id', 'name', 'service_name', 'kind', 'timestamp_ns', 'duration_ns', 'status_code', 'attribute_keys', 'attribute_values', 'resource_keys', 'resource_values', 'source', 'payload', 'attribute_types', 'resource_types', 'scope_name', 'scope_version', 'scope_keys', 'scope_values', 'scope_types'],
      batch.spans.map((s) => [
        dayOf(s.timestampNs), s.traceId, s.spanId, s.parentId, s.name, s.serviceName, s.kind, s.timestampNs, s.durationNs, s.statusCode,
        s.attributes.map(([k]) => k), s.attributes.map(([, v]) => v),
        (s.resourceAttributes ?? []).map(([k]) => k), (s.resourceAttributes ?? []).map(([, v]) => v), s.source, s.payload,
        s.attributeTypes ?? [], s.resourceTypes ?? [], s.scopeName ?? '', s.scopeVersion ?? '',
        (s.scopeAttributes ?? []).map(([k]) => k), (s.scopeAttributes ?? []).map(([, v]) => v), s.scopeTypes ?? [],
      ]),
      { settings: { query_id: spansQueryId } },
    );
    if (written.size + remember.length > MAX_REMEMBERED) written.clear();
    for (const memo of remember) written.add(memo);
    const known = monthly.get(target.id);
    if (known && known.month === month) for (const fp of batch.series.keys()) known.fingerprints.add(fp);
  }
}

export type Writer = ReturnType<typeof createWriter>;
