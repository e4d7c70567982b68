import type { BucketParams, LogQuerier, LogSelectParams, LogStreamParams, StoredLine, StoredStream, StreamBuckets } from '../../../../packages/logql/storage/querier';
import type { LabelMatcher, LineFilterStage } from '../../../../packages/logql/syntax/ast';
import { toClickHouseRegex } from '../../../../packages/re2-pattern/re2-pattern';
import { identifier, literal, type StorageClient } from '../storage/storage-client';
import { dateClause, fingerprintsSql, labelsByFingerprint } from './label-index';
import { FLAT_JSON, JSON_FLAT_COLUMN } from '../storage/flat-json';
import { clickhouseReadParams, instanceReadSettings } from './read-settings';

// The LogQL engine's store on an instance's ClickHouse 18.16 database: streams by matchers through the label index
// (series_labels), the time window on the sort key, leading line filters as position()/match() (regexes in the
// form 18.16's match() reads correctly), limit and direction, and lines and bytes per step bucket with intDiv.
// Lines are read as ClickHouse sends them (JSONEachRow, batch by batch) under the read bounds of read-settings.ts;
// a log query that needs few lines reads its range in growing time windows and stops asking when it has enough.

/** A windowed read's first window is this fraction of the range; each next one is twice the previous. */
const FIRST_WINDOW_PARTS = 256n;
const MIN_WINDOW_NS = 1_000_000n;

export function lineFilterSql(f: LineFilterStage): string {
  const positive = f.op === '|=' || f.op === '|~';
  const parts = f.values.map((v) =>
    f.op === '|=' || f.op === '!=' ? (v === '' ? '1' : `position(line, ${literal(v)}) > 0`) : `match(line, ${literal(toClickHouseRegex(v, false))})`,
  );
  const any = parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`;
  return positive ? any : `NOT ${any}`;
}

// Databases known to have log_samples' JSON_FLAT_COLUMN (databases made before it, on a cluster, may lack it; a
// database without it is asked again next time, since the schema upgrade may add it meanwhile).
const withFlatColumn = new Set<string>();

async function hasFlatColumn(client: StorageClient, db: string): Promise<boolean> {
  const key = `${client.endpoint.url}|${db}`;
  if (withFlatColumn.has(key)) return true;
  const rows = await client.query<{ n: string }>(
    `SELECT toString(count()) AS n FROM system.columns WHERE database = ${literal(db)} AND table = 'log_samples' AND name = ${literal(JSON_FLAT_COLUMN)}`,
  );
  if (Number(rows[0]?.n) > 0) withFlatColumn.add(key);
  return withFlatColumn.has(key);
}

export function createLogsQuerier(client: StorageClient, database: string): LogQuerier {
  const db = identifier(database);
  const dates = (startNs: bigint, endNs: bigint) => dateClause({ startNs, endNs });
  const fingerprints = (matchers: LabelMatcher[], startNs: bigint, endNs: bigint) => fingerprintsSql(db, 'logs', matchers, { startNs, endNs });
  const labelsOf = (fps: string[]) => labelsByFingerprint(client, db, 'logs', fps);
  // The platform's read bounds, or the instance's own where its endpoint carries them.
  const params = () => clickhouseReadParams(instanceReadSettings(client.endpoint.readLimits));

  /** The lines of [startNs, lastNs] in direction order, batch by batch, each with its stream's labels (one object per stream). */
  async function* readWindow(p: LogStreamParams, startNs: bigint, lastNs: bigint, known: Map<string, Record<string, string>>, signal?: AbortSignal): AsyncGenerator<StoredLine[]> {
    const filters = p.lineFilters.map((f) => ` AND ${lineFilterSql(f)}`).join('');
    const order = p.direction === 'forward' ? 'ASC' : 'DESC';
    const sql = `SELECT toString(fingerprint) AS fp, toString(timestamp_ns) AS ts, line FROM ${db}.log_samples
         WHERE ${dates(startNs, lastNs)} AND timestamp_ns >= ${startNs} AND timestamp_ns <= ${lastNs}
           AND fingerprint IN (${fingerprints(p.matchers, startNs, lastNs)})${filters}
         ORDER BY timestamp_ns ${order}, fingerprint ${order}${p.limit !== undefined ? ` LIMIT ${p.limit}` : ''}`;
    for await (const rows of client.streamRows<{ fp: string; ts: string; line: string }>(sql, { signal, params: params() })) {
      const unknown = [...new Set(rows.map((r) => r.fp).filter((fp) => !known.has(fp)))];
      if (unknown.length > 0) {
        const found = await labelsOf(unknown);
        // A stream without a series row (cannot happen on a consistent store) still gets one labels object.
        for (const fp of unknown) known.set(fp, found.get(fp) ?? {});
      }
      yield rows.map((r) => ({ labels: known.get(r.fp)!, tsNs: BigInt(r.ts), line: r.line }));
    }
  }

  async function* streamLines(p: LogStreamParams, signal?: AbortSignal): AsyncGenerator<StoredLine[]> {
    if (p.endNs <= p.startNs) return;
    const known = new Map<string, Record<string, string>>();
    const last = p.endNs - 1n;
    if (!p.windowed || p.limit !== undefined) {
      yield* readWindow(p, p.startNs, last, known, signal);
      return;
    }
    let width = (p.endNs - p.startNs) / FIRST_WINDOW_PARTS;
    if (width < MIN_WINDOW_NS) width = MIN_WINDOW_NS;
    if (p.direction === 'forward') {
      for (let from = p.startNs; from <= last; from += width, width *= 2n) {
        yield* readWindow(p, from, from + width - 1n < last ? from + width - 1n : last, known, signal);
      }
    } else {
      for (let to = last; to >= p.startNs; to -= width, width *= 2n) {
        yield* readWindow(p, to - width + 1n > p.startNs ? to - width + 1n : p.startNs, to, known, signal);
      }
    }
  }

  return {
    async selectLogs(p: LogSelectParams, signal?: AbortSignal): Promise<StoredStream[]> {
      const byFp = new Map<Record<string, string>, { ts: bigint[]; lines: string[] }>();
      for await (const batch of streamLines(p, signal)) {
        for (const r of batch) {
          let s = byFp.get(r.labels);
          if (!s) byFp.set(r.labels, (s = { ts: [], lines: [] }));
          s.ts.push(r.tsNs);
          s.lines.push(r.line);
        }
      }
      return [...byFp].map(([labels, s]) => {
        if (p.direction === 'backward') {
          s.ts.reverse();
          s.lines.reverse();
        }
        return { labels, timestamps: s.ts, lines: s.lines };
      });
    },

    streamLogs: (p, signal) => streamLines(p, signal),

    async countBuckets(p: BucketParams, signal?: AbortSignal): Promise<{ buckets: StreamBuckets[]; others?: StoredStream[] }> {
      const startNs = p.originNs + 1n;
      const endNs = p.originNs + p.widthNs * BigInt(p.count);
      const filters = p.lineFilters.map((f) => ` AND ${lineFilterSql(f)}`).join('');
      const keys = p.jsonKeys ?? [];
      // One scan: flat lines are counted per extracted value (visitParamExtractRaw reads the first `"key":`, so a
      // line that repeats a grouping key is not counted as flat); the other lines come back whole.
      const repeats = keys.map((k) => {
        const needle = literal(`"${k}":`);
        return `(position(line, ${needle}) > 0 AND position(substring(line, position(line, ${needle}) + ${Buffer.byteLength(k) + 3}), ${needle}) > 0)`;
      });
      // The stored flag (flat and no key repeated) where the database has it; else the same test per row.
      const flat =
        keys.length === 0 ? '1' : (await hasFlatColumn(client, db)) ? `${JSON_FLAT_COLUMN} = 1` : `match(line, ${literal(FLAT_JSON)})${repeats.map((r) => ` AND NOT ${r}`).join('')}`;
      const extracted = keys.map((k, i) => `, if(flat, visitParamExtractRaw(line, ${literal(k)}), '') AS j${i}`).join('');
      const others = keys.length > 0 ? `, groupArrayIf(toString(timestamp_ns), NOT flat) AS other_ts, groupArrayIf(line, NOT flat) AS other_lines` : '';
      const rows: (Record<string, string> & { other_ts?: string[]; other_lines?: string[] })[] = [];
      const sql = `SELECT toString(fingerprint) AS fp, toString(intDiv(timestamp_ns - ${p.originNs} - 1, ${p.widthNs})) AS b, ${flat} AS flat,
           toString(countIf(flat)) AS n, toString(sumIf(length(line), flat)) AS bytes${extracted}${others}
         FROM ${db}.log_samples
         WHERE ${dates(startNs, endNs)} AND timestamp_ns >= ${startNs} AND timestamp_ns <= ${endNs}
           AND fingerprint IN (${fingerprints(p.matchers, startNs, endNs)})${filters}
         GROUP BY fingerprint, b, flat${keys.map((_, i) => `, j${i}`).join('')}`;
      for await (const batch of client.streamRows<(typeof rows)[number]>(sql, { signal, params: params() })) for (const r of batch) rows.push(r);
      const byFp = new Map<string, StreamBuckets & { fp: string }>();
      const otherByFp = new Map<string, { ts: bigint[]; lines: string[] }>();
      for (const r of rows) {
        if (r.other_ts && r.other_ts.length > 0) {
          const o = otherByFp.get(r.fp) ?? { ts: [], lines: [] };
          r.other_ts.forEach((t, i) => {
            o.ts.push(BigInt(t));
            o.lines.push(r.other_lines![i]);
          });
          otherByFp.set(r.fp, o);
        }
        if (Number(r.n) === 0) continue;
        const json: Record<string, string> = {};
        keys.forEach((k, i) => {
          const raw = r[`j${i}`];
          if (raw === '' || raw === 'null') return;
          json[k] = raw.startsWith('"') ? raw.slice(1, -1) : raw;
        });
        const id = `${r.fp}/${JSON.stringify(json)}`;
        let s = byFp.get(id);
        if (!s) {
          s = { fp: r.fp, labels: {}, json: keys.length > 0 ? json : undefined, lines: new Float64Array(p.count), bytes: new Float64Array(p.count) };
          byFp.set(id, s);
        }
        const k = Number(r.b);
        s.lines[k] += Number(r.n);
        s.bytes[k] += Number(r.bytes);
      }
      const labels = await labelsOf([...new Set([...[...byFp.values()].map((s) => s.fp), ...otherByFp.keys()])]);
      for (const s of byFp.values()) s.labels = labels.get(s.fp) ?? {};
      const buckets = [...byFp.values()].map(({ fp: _fp, ...rest }) => rest);
      if (keys.length === 0) return { buckets };
      return {
        buckets,
        others: [...otherByFp].map(([fp, o]) => {
          const order = o.ts.map((_, i) => i).sort((x, y) => (o.ts[x] < o.ts[y] ? -1 : o.ts[x] > o.ts[y] ? 1 : 0));
          return { labels: labels.get(fp) ?? {}, timestamps: order.map((i) => o.ts[i]), lines: order.map((i) => o.lines[i]) };
        }),
      };
    },
  };
}
