import { identifier, literal, type StorageClient } from './storage-client';
import type { SeriesType } from './ingest/batch';
import { parseLogQuery, type LineFilter, type Matcher } from './selectors';
import { compileAnchored, toClickHouseRegex } from '../../../packages/re2-pattern/re2-pattern';

// The read side of logs: Loki's labels, label values and stream reads (stream selectors and line filters); traces
// are read by trace-reader.ts, metrics by metrics-querier.ts and the PromQL engine. Selectors are turned into SQL over the label index
// (series_labels); values are passed as escaped literals (ClickHouse 18.16 has no query parameters).


export interface TimeRange {
  startNs: bigint;
  endNs: bigint;
}

const day = (ns: bigint) => new Date(Number((ns < 0n ? 0n : ns) / 1_000_000n)).toISOString().slice(0, 10);
const dateClause = (range: TimeRange) => `date BETWEEN toDate('${day(range.startNs)}') AND toDate('${day(range.endNs)}')`;

function predicate(m: Matcher): string {
  switch (m.op) {
    case '=':
      return `val = ${literal(m.value)}`;
    case '!=':
      return `val != ${literal(m.value)}`;
    case '=~':
      return `match(val, ${literal(toClickHouseRegex(m.value, true))})`;
    case '!~':
      return `NOT match(val, ${literal(toClickHouseRegex(m.value, true))})`;
  }
}

function matchesEmpty(m: Matcher): boolean {
  switch (m.op) {
    case '=':
      return m.value === '';
    case '!=':
      return m.value !== '';
    case '=~':
      return compileAnchored(m.value)('');
    case '!~':
      return !compileAnchored(m.value)('');
  }
}

/** The fingerprints of `type` series that match every matcher and have rows in the range's days. */
function fingerprintsSql(db: string, type: SeriesType, matchers: Matcher[], range: TimeRange): string {
  const conditions = matchers.map((m) => {
    const labels = `SELECT fingerprint FROM ${db}.series_labels WHERE type = '${type}' AND ${dateClause(range)} AND key = ${literal(m.name)}`;
    // A matcher that accepts the empty value also accepts series without the label (Prometheus semantics).
    return matchesEmpty(m) ? `fingerprint NOT IN (${labels} AND NOT (${predicate(m)}))` : `fingerprint IN (${labels} AND ${predicate(m)})`;
  });
  return `SELECT DISTINCT fingerprint FROM ${db}.time_series WHERE type = '${type}' AND ${dateClause(range)}${conditions.map((c) => ` AND ${c}`).join('')}`;
}

async function labelsOf(client: StorageClient, db: string, type: SeriesType, fingerprints: string[]): Promise<Map<string, Record<string, string>>> {
  const result = new Map<string, Record<string, string>>();
  if (fingerprints.length === 0) return result;
  const rows = await client.query<{ fp: string; labels: string }>(
    `SELECT toString(fingerprint) AS fp, any(labels) AS labels FROM ${db}.time_series WHERE type = '${type}' AND fingerprint IN (${fingerprints.join(',')}) GROUP BY fingerprint`,
  );
  for (const row of rows) result.set(row.fp, JSON.parse(row.labels) as Record<string, string>);
  return result;
}

function lineFilterSql(filter: LineFilter): string {
  switch (filter.op) {
    case '|=':
      return `position(line, ${literal(filter.value)}) > 0`;
    case '!=':
      return `position(line, ${literal(filter.value)}) = 0`;
    case '|~':
      return `match(line, ${literal(filter.value)})`;
    case '!~':
      return `NOT match(line, ${literal(filter.value)})`;
  }
}

export function createReader(client: StorageClient, database: string) {
  const db = identifier(database);
  return {
    async labelNames(type: SeriesType, range: TimeRange): Promise<string[]> {
      const rows = await client.query<{ key: string }>(`SELECT DISTINCT key FROM ${db}.series_labels WHERE type = '${type}' AND ${dateClause(range)} ORDER BY key`);
      return rows.map((r) => r.key);
    },

    async labelValues(type: SeriesType, name: string, range: TimeRange): Promise<string[]> {
      const rows = await client.query<{ val: string }>(
        `SELECT DISTINCT val FROM ${db}.series_labels WHERE type = '${type}' AND ${dateClause(range)} AND key = ${literal(name)} ORDER BY val`,
      );
      return rows.map((r) => r.val);
    },

    /** Loki query_range for a log query: streams of at most `limit` lines in total. */
    async logStreams(query: string, range: TimeRange, limit: number, direction: 'backward' | 'forward') {
      const { matchers, filters } = parseLogQuery(query);
      const rows = await client.query<{ fp: string; ts: string; line: string }>(
        `SELECT toString(fingerprint) AS fp, toString(timestamp_ns) AS ts, line FROM ${db}.log_samples
         WHERE ${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs}
           AND fingerprint IN (${fingerprintsSql(db, 'logs', matchers, range)})${filters.map((f) => ` AND ${lineFilterSql(f)}`).join('')}
         ORDER BY timestamp_ns ${direction === 'forward' ? 'ASC' : 'DESC'} LIMIT ${limit}`,
      );
      const labels = await labelsOf(client, db, 'logs', [...new Set(rows.map((r) => r.fp))]);
      const streams = new Map<string, [string, string][]>();
      for (const row of rows) {
        const values = streams.get(row.fp) ?? [];
        values.push([row.ts, row.line]);
        streams.set(row.fp, values);
      }
      return [...streams].map(([fp, values]) => ({ stream: labels.get(fp) ?? {}, values }));
    },
  };
}
