import { matcherAcceptsEmpty, toClickHouseRegex } from '../../../../packages/re2-pattern/re2-pattern';
import type { SeriesType } from '../ingest/batch';
import { literal, type StorageClient } from '../storage/storage-client';

// Selection through an instance's label index, shared by every read (PromQL, LogQL, live tail, the stream calls):
// series_labels holds (key, value → fingerprint) per day and time_series the series' labels per day, so a selector
// becomes SQL over those two tables, restricted to the range's day partitions. Values are escaped literals (ClickHouse
// 18.16 has no query parameters); regexes are RE2, anchored, in the form 18.16's match() reads correctly.

export interface TimeRangeNs {
  startNs: bigint;
  endNs: bigint;
}

/** A label matcher of either language (the same four operators, RE2 regexes anchored at both ends). */
export interface IndexMatcher {
  name: string;
  op: '=' | '!=' | '=~' | '!~';
  value: string;
}

const day = (ns: bigint) => new Date(Number((ns < 0n ? 0n : ns) / 1_000_000n)).toISOString().slice(0, 10);

/** The day partitions of a range (every table is partitioned by `date`). */
export const dateClause = (range: TimeRangeNs) => `date BETWEEN toDate('${day(range.startNs)}') AND toDate('${day(range.endNs)}')`;

function valuePredicate(m: IndexMatcher): string {
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

/** The fingerprints of `type` series with a series row on the range's days that every matcher accepts. */
export function fingerprintsSql(db: string, type: SeriesType, matchers: readonly IndexMatcher[], range: TimeRangeNs): string {
  const days = dateClause(range);
  const conditions = matchers.map((m) => {
    const labels = `SELECT fingerprint FROM ${db}.series_labels WHERE type = '${type}' AND ${days} AND key = ${literal(m.name)}`;
    return matcherAcceptsEmpty(m) ? `fingerprint NOT IN (${labels} AND NOT (${valuePredicate(m)}))` : `fingerprint IN (${labels} AND ${valuePredicate(m)})`;
  });
  return `SELECT DISTINCT fingerprint FROM ${db}.time_series WHERE type = '${type}' AND ${days}${conditions.map((c) => ` AND ${c}`).join('')}`;
}

/** The labels of `type` series by fingerprint (as the decimal strings ClickHouse writes). */
export async function labelsByFingerprint(client: StorageClient, db: string, type: SeriesType, fingerprints: readonly string[]): Promise<Map<string, Record<string, string>>> {
  const result = new Map<string, Record<string, string>>();
  if (fingerprints.length === 0) return result;
  const rows = await client.query<{ fp: string; labels: string }>(
    `SELECT toString(fingerprint) AS fp, any(labels) AS labels FROM ${db}.time_series WHERE type = '${type}' AND fingerprint IN (${fingerprints.join(',')}) GROUP BY fingerprint`,
  );
  for (const row of rows) result.set(row.fp, JSON.parse(row.labels) as Record<string, string>);
  return result;
}
