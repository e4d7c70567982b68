import { identifier, literal, type StorageClient } from './storage-client';
import type { SeriesType } from './ingest/batch';
import { parseLogQuery, type LineFilter, type Matcher } from './selectors';
import { ReadError } from './read-error';
import { compileAnchored, toClickHouseRegex } from '../../../packages/re2-pattern/re2-pattern';

// The read side of logs and traces: Loki's labels, label values and query_range (stream selectors and line filters),
// index volume, traces by id (the Prometheus API reads through metrics-querier.ts and the PromQL engine). Selectors are turned into SQL over the label index
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

    /**
     * Loki's index volume (`/loki/api/v1/index/volume`, the logs drilldown's data): per matching stream, the bytes and
     * lines of its log lines in the range, largest first.
     */
    async logVolume(query: string, range: TimeRange, limit: number) {
      const { matchers, filters } = parseLogQuery(query);
      if (filters.length > 0) throw new ReadError('The volume query takes a stream selector only, without line filters.');
      const rows = await client.query<{ fp: string; lines: string; bytes: string }>(
        `SELECT toString(fingerprint) AS fp, toString(count()) AS lines, toString(sum(length(line))) AS bytes FROM ${db}.log_samples
         WHERE ${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs}
           AND fingerprint IN (${fingerprintsSql(db, 'logs', matchers, range)})
         GROUP BY fingerprint ORDER BY sum(length(line)) DESC LIMIT ${limit}`,
      );
      const labels = await labelsOf(client, db, 'logs', rows.map((r) => r.fp));
      return rows.map((row) => ({ stream: labels.get(row.fp) ?? {}, bytes: Number(row.bytes), lines: Number(row.lines) }));
    },

    /**
     * A trace by id as OTLP JSON grouped by service (what Tempo's GET /api/traces/{id} answers as `batches`); the
     * spans come from Zipkin or OTLP pushes alike.
     */
    async trace(traceId: string) {
      const id = traceId.toLowerCase().padStart(32, '0');
      const rows = await client.query<{
        span_id: string; parent_id: string; name: string; service_name: string; kind: string; ts: string; duration: string;
        status_code: number; attribute_keys: string[]; attribute_values: string[];
      }>(
        `SELECT span_id, parent_id, name, service_name, kind, toString(timestamp_ns) AS ts, toString(duration_ns) AS duration, status_code,
           attribute_keys, attribute_values FROM ${db}.spans WHERE trace_id = ${literal(id)} ORDER BY timestamp_ns LIMIT 10000`,
      );
      const byService = new Map<string, unknown[]>();
      for (const row of rows) {
        const spans = byService.get(row.service_name) ?? [];
        spans.push({
          traceId: id,
          spanId: row.span_id,
          ...(row.parent_id ? { parentSpanId: row.parent_id } : {}),
          name: row.name,
          kind: `SPAN_KIND_${row.kind || 'UNSPECIFIED'}`,
          startTimeUnixNano: row.ts,
          endTimeUnixNano: (BigInt(row.ts) + BigInt(row.duration)).toString(),
          attributes: row.attribute_keys.map((key, i) => ({ key, value: { stringValue: row.attribute_values[i] } })),
          status: { code: row.status_code },
        });
        byService.set(row.service_name, spans);
      }
      return [...byService].map(([service, spans]) => ({
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeSpans: [{ spans }],
      }));
    },
  };
}
