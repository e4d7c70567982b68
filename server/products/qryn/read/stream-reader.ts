import { identifier, literal, type StorageClient } from '../storage/storage-client';
import type { LabelMatcher } from '../../../../packages/logql/syntax/ast';
import { dateClause, fingerprintsSql, labelsByFingerprint, type TimeRangeNs as TimeRange } from '../query/label-index';

// Loki's calls about streams, read from an instance's database: the streams with lines in a time range (exactly:
// the lines' timestamps, not only the days of the label index), their labels and values, counts and volumes, and a
// sample of recent lines for detected fields.

/** At most this many streams are read by one call about streams. */
export const MAX_STREAMS = 50_000;

export function createStreamReader(storage: StorageClient, database: string) {
  const db = identifier(database);
  // `storage` is the scheduled call's (read-scheduler-calls.ts): its reads carry the call's signal, the instance's
  // read bounds and priority.
  const client = storage;

  /** The fingerprints of streams with lines in the range that every matcher accepts (all streams for none). */
  const activeSql = (matchers: LabelMatcher[], range: TimeRange) =>
    `SELECT DISTINCT fingerprint FROM ${db}.log_samples WHERE ${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs}` +
    (matchers.length > 0 ? ` AND fingerprint IN (${fingerprintsSql(db, 'logs', matchers, range)})` : '');

  return {
    /** Label names of the streams with lines in the range (matching the selector when given). */
    async labelNames(matchers: LabelMatcher[], range: TimeRange): Promise<string[]> {
      const rows = await client.query<{ key: string }>(
        `SELECT DISTINCT key FROM ${db}.series_labels WHERE type = 'logs' AND ${dateClause(range)} AND fingerprint IN (${activeSql(matchers, range)}) ORDER BY key`,
      );
      return rows.map((r) => r.key);
    },

    async labelValues(name: string, matchers: LabelMatcher[], range: TimeRange): Promise<string[]> {
      const rows = await client.query<{ val: string }>(
        `SELECT DISTINCT val FROM ${db}.series_labels WHERE type = 'logs' AND ${dateClause(range)} AND key = ${literal(name)}
           AND fingerprint IN (${activeSql(matchers, range)}) ORDER BY val`,
      );
      return rows.map((r) => r.val);
    },

    /** The label sets of the streams that any of the selectors matches, with lines in the range. */
    async series(selectors: LabelMatcher[][], range: TimeRange): Promise<Record<string, string>[]> {
      const fingerprints = new Set<string>();
      for (const matchers of selectors) {
        const rows = await client.query<{ fp: string }>(`SELECT toString(fingerprint) AS fp FROM (${activeSql(matchers, range)}) LIMIT ${MAX_STREAMS}`);
        for (const row of rows) fingerprints.add(row.fp);
      }
      const labels = await labelsByFingerprint(storage, db, 'logs', [...fingerprints]);
      return [...labels.values()].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    },

    /**
     * Per stream with lines in the range: its labels, lines and bytes (the length of its lines), and for a step the
     * bytes per step bucket (bucket start in seconds).
     */
    async streamVolumes(matchers: LabelMatcher[], range: TimeRange, stepSeconds?: number) {
      const bucket = stepSeconds ? `intDiv(intDiv(timestamp_ns, 1000000000), ${stepSeconds}) * ${stepSeconds}` : '0';
      const rows = await client.query<{ fp: string; bucket: string; lines: string; bytes: string }>(
        `SELECT toString(fingerprint) AS fp, toString(${bucket}) AS bucket, toString(count()) AS lines, toString(sum(length(line))) AS bytes
         FROM ${db}.log_samples
         WHERE ${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs}
           ${matchers.length > 0 ? `AND fingerprint IN (${fingerprintsSql(db, 'logs', matchers, range)})` : ''}
         GROUP BY fingerprint, bucket LIMIT ${MAX_STREAMS * 10}`,
      );
      const labels = await labelsByFingerprint(storage, db, 'logs', [...new Set(rows.map((r) => r.fp))]);
      return rows.map((row) => ({
        fingerprint: row.fp,
        labels: labels.get(row.fp) ?? {},
        bucket: Number(row.bucket),
        lines: Number(row.lines),
        bytes: Number(row.bytes),
      }));
    },

    /** Loki's index stats: streams, chunks (here: a stream's lines of one day), entries and bytes in the range. */
    async stats(matchers: LabelMatcher[], range: TimeRange) {
      const [row] = await client.query<{ streams: string; chunks: string; entries: string; bytes: string }>(
        `SELECT toString(uniqExact(fingerprint)) AS streams, toString(uniqExact(fingerprint, date)) AS chunks, toString(count()) AS entries,
           toString(sum(length(line))) AS bytes
         FROM ${db}.log_samples WHERE ${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs}
           ${matchers.length > 0 ? `AND fingerprint IN (${fingerprintsSql(db, 'logs', matchers, range)})` : ''}`,
      );
      return { streams: Number(row?.streams ?? 0), chunks: Number(row?.chunks ?? 0), entries: Number(row?.entries ?? 0), bytes: Number(row?.bytes ?? 0) };
    },

    /** The newest `limit` lines of the matching streams in the range, with their stream labels. */
    async recentLines(matchers: LabelMatcher[], range: TimeRange, limit: number) {
      const rows = await client.query<{ fp: string; ts: string; line: string }>(
        `SELECT toString(fingerprint) AS fp, toString(timestamp_ns) AS ts, line FROM ${db}.log_samples
         WHERE ${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs}
           AND fingerprint IN (${fingerprintsSql(db, 'logs', matchers, range)})
         ORDER BY timestamp_ns DESC LIMIT ${limit}`,
      );
      const labels = await labelsByFingerprint(storage, db, 'logs', [...new Set(rows.map((r) => r.fp))]);
      return rows.map((row) => ({ labels: labels.get(row.fp) ?? {}, tsNs: BigInt(row.ts), line: row.line }));
    },
  };
}
