import { literal, type StorageClient } from './storage-client';
import type { LabelMatcher } from '../../../packages/logql/syntax/ast';
import { matchesEmpty } from '../../../packages/logql/syntax/parse';
import { toClickHouseRegex } from '../../../packages/re2-pattern/re2-pattern';

// Log streams in an instance's database, selected by LogQL label matchers (packages/logql): the SQL that the live
// tail and Loki's calls about streams share. Regular expressions go to ClickHouse 18.16 in the form its match()
// reads correctly (packages/re2-pattern).

export interface TimeRange {
  startNs: bigint;
  endNs: bigint;
}

const day = (ns: bigint) => new Date(Number((ns < 0n ? 0n : ns) / 1_000_000n)).toISOString().slice(0, 10);
export const dateClause = (range: TimeRange) => `date BETWEEN toDate('${day(range.startNs)}') AND toDate('${day(range.endNs)}')`;

function valuePredicate(m: LabelMatcher): string {
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

/** The fingerprints of log streams with rows on the range's days that every matcher accepts. */
export function streamFingerprintsSql(db: string, matchers: LabelMatcher[], range: TimeRange): string {
  const conditions = matchers.map((m) => {
    const labels = `SELECT fingerprint FROM ${db}.series_labels WHERE type = 'logs' AND ${dateClause(range)} AND key = ${literal(m.name)}`;
    // A matcher that accepts the empty value also accepts streams without the label (Loki's semantics).
    return matchesEmpty(m) ? `fingerprint NOT IN (${labels} AND NOT (${valuePredicate(m)}))` : `fingerprint IN (${labels} AND ${valuePredicate(m)})`;
  });
  return `SELECT DISTINCT fingerprint FROM ${db}.time_series WHERE type = 'logs' AND ${dateClause(range)}${conditions.map((c) => ` AND ${c}`).join('')}`;
}

/** The labels of log streams by fingerprint. */
export async function streamLabels(client: StorageClient, db: string, fingerprints: string[]): Promise<Map<string, Record<string, string>>> {
  const result = new Map<string, Record<string, string>>();
  if (fingerprints.length === 0) return result;
  const rows = await client.query<{ fp: string; labels: string }>(
    `SELECT toString(fingerprint) AS fp, any(labels) AS labels FROM ${db}.time_series WHERE type = 'logs' AND fingerprint IN (${fingerprints.join(',')}) GROUP BY fingerprint`,
  );
  for (const row of rows) result.set(row.fp, JSON.parse(row.labels) as Record<string, string>);
  return result;
}
