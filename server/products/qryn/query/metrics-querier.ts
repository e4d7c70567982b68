import type { LabelMatcher, Labels, Querier, SelectHints, Series } from '../../../../packages/promql/storage/querier';
import { compareLabels } from '../../../../packages/labels/compare-labels';
import { fingerprintsSql } from './label-index';
import { StorageError, identifier, literal, type StorageClient } from '../storage/storage-client';
import { clickhouseReadParams, instanceReadSettings } from './read-settings';
import { rowLabels, seriesRows } from './series-rows';

// The PromQL engine's store over an instance's ClickHouse tables, and the metadata lookups of the Prometheus API:
// - selection through the label index (series_labels), one subquery per matcher; regexes go through
//   toClickHouseRegex (RE2 flag settings rewritten for 18.16's match(), which misreads a leading `(?i)`);
// - samples of exactly the window the engine asks for (`timestamp_ns BETWEEN`, in whole milliseconds, plus the day
//   partitions), grouped per series in ClickHouse and sent as RowBinary: Float64 values arrive as their 8 bytes, so NaN, ±Inf and stale
//   markers (NaN with the bits 0x7ff0000000000002) survive, and 10,000 series × 240 samples parse in milliseconds;
//   the body is parsed as it arrives (series-rows.ts), each series charged to the query's sample budget;
// - optionally (stepWindowPushdown), when a range function's step is longer than its range (long ranges at a coarse
//   step), only the samples inside some step's window are read (`modulo(timestamp − first window start, step) ≤ range`).

const NS_PER_MS = 1_000_000n;

export interface TimeRangeNs {
  startNs: bigint;
  endNs: bigint;
}

const dayOfMs = (ms: number) => new Date(Math.max(0, ms)).toISOString().slice(0, 10);
const daysClause = (startMs: number, endMs: number) => `date BETWEEN toDate('${dayOfMs(startMs)}') AND toDate('${dayOfMs(endMs)}')`;
const nsToMs = (ns: bigint) => Number(ns / NS_PER_MS);

/** The metric fingerprints that match every matcher and have a series row on the days of [startMs, endMs]. */
export function metricFingerprintsSql(db: string, matchers: readonly LabelMatcher[], startMs: number, endMs: number): string {
  return fingerprintsSql(db, 'metrics', matchers, { startNs: BigInt(Math.floor(startMs)) * NS_PER_MS, endNs: BigInt(Math.floor(endMs)) * NS_PER_MS });
}

/** Fingerprints of the selectors (any of them) with at least one sample in the exact range. */
function seriesInRangeSql(db: string, selectors: readonly LabelMatcher[][], range: TimeRangeNs): string {
  const startMs = nsToMs(range.startNs);
  const endMs = nsToMs(range.endNs);
  const any = selectors.map((matchers) => `fingerprint IN (${metricFingerprintsSql(db, matchers, startMs, endMs)})`).join(' OR ');
  return `SELECT DISTINCT fingerprint FROM ${db}.metric_samples WHERE ${daysClause(startMs, endMs)} AND timestamp_ns BETWEEN ${range.startNs} AND ${range.endNs} AND (${any})`;
}

/** Sorts a series' samples by time and keeps the last of duplicates (groupArray's order is not guaranteed). */
function normalise(times: Float64Array, values: Float64Array, stale: Uint8Array | undefined): Omit<Series, 'labels'> {
  let sorted = true;
  for (let i = 1; i < times.length; i++) {
    if (times[i] <= times[i - 1]) {
      sorted = false;
      break;
    }
  }
  if (sorted) return stale ? { timestampsMs: times, values, stale } : { timestampsMs: times, values };
  const order = Array.from(times.keys()).sort((a, b) => times[a] - times[b] || a - b);
  const keep = order.filter((index, k) => k + 1 >= order.length || times[order[k + 1]] !== times[index]);
  const t = new Float64Array(keep.length);
  const v = new Float64Array(keep.length);
  const s = stale ? new Uint8Array(keep.length) : undefined;
  keep.forEach((index, k) => {
    t[k] = times[index];
    v[k] = values[index];
    if (s) s[k] = stale![index];
  });
  return s ? { timestampsMs: t, values: v, stale: s } : { timestampsMs: t, values: v };
}

export interface MetricsQuerierOptions {
  /**
   * Reads only the samples inside some step's window when the step is longer than a range function's range. On by
   * default: the planner gives every selector the step and the exact first and last time it is evaluated at (a
   * subquery's own step inside a subquery), so the windows are `startMs + k·stepMs + [0, rangeMs]`. Off: everything
   * in [startMs, endMs] is read (the tests compare both).
   */
  stepWindowPushdown?: boolean;
}

export function createMetricsQuerier(client: StorageClient, database: string, options: MetricsQuerierOptions = {}) {
  const db = identifier(database);
  const pushdown = options.stepWindowPushdown ?? true;

  async function labelsOf(fingerprintSql: string, startMs: number, endMs: number): Promise<Map<string, Labels>> {
    const rows = await client.query<{ fp: string; labels: string }>(
      `SELECT toString(fingerprint) AS fp, any(labels) AS labels FROM ${db}.time_series WHERE type = 'metrics' AND ${daysClause(startMs, endMs)} AND fingerprint IN (${fingerprintSql}) GROUP BY fingerprint`,
    );
    return new Map(rows.map((r) => [r.fp, JSON.parse(r.labels) as Labels]));
  }

  const querier: Querier = {
    async select(matchers: LabelMatcher[], hints: SelectHints, signal?: AbortSignal): Promise<Series[]> {
      const { startMs, endMs } = hints;
      if (endMs < startMs) return [];
      const fps = metricFingerprintsSql(db, matchers, startMs, endMs);
      // The engine sees a sample at its whole millisecond (Influx and OTLP send finer times): a sample 0.4 ms after
      // the last millisecond asked for is at that millisecond, so it belongs to the window.
      const startNs = BigInt(Math.floor(startMs)) * NS_PER_MS;
      const endNs = BigInt(Math.floor(endMs)) * NS_PER_MS + NS_PER_MS - 1n;
      let windows = '';
      const range = hints.rangeMs ?? 0;
      // The engine asks for [first step − range, last step]; with a step longer than the range, the samples between
      // two windows are never used, and skipping them in ClickHouse is what makes a week at 1h steps cheap. The
      // windows are cut on the millisecond the engine sees, not on the nanosecond stored. (18.16 types modulo() by its
      // divisor: with a step that fits 16 bits the remainder would wrap around, hence toInt64.)
      if (pushdown && hints.func && range > 0 && hints.stepMs > range && (endMs - startMs - range) % hints.stepMs === 0) {
        windows = ` AND modulo(intDiv(timestamp_ns, 1000000) - ${Math.floor(startMs)}, toInt64(${hints.stepMs})) <= ${range}`;
      }
      // Times as UInt32 offsets from the window's first millisecond when they fit (below 2^32 ms, 49 days).
      const baseMs = Math.floor(startMs);
      const narrow = Math.floor(endMs) - baseMs < 2 ** 32 - 1;
      const time = narrow ? `toUInt32(intDiv(timestamp_ns, 1000000) - (${baseMs}))` : 'intDiv(timestamp_ns, 1000000)';
      // One round trip: the samples grouped per series, with the series' labels joined on. A series whose values
      // are all exactly Float32 numbers (small integer counters, most gauges) sends them as Float32, half the bytes;
      // any other (fractions, NaN, stale markers, beyond 2^24) sends its Float64s untouched. (The conversion runs on
      // `if(f, v, [])`: ClickHouse evaluates both branches of an if, so only the narrow series are converted.)
      const sql = `SELECT fingerprint, t, arrayMap(x -> toFloat32(x), if(f, v, emptyArrayFloat64())) AS v32, if(f, emptyArrayFloat64(), v) AS v64, labels FROM (
          SELECT fingerprint, t, v, arrayAll(x -> toFloat64(toFloat32(x)) = x, v) AS f FROM (
            SELECT fingerprint, groupArray(${time}) AS t, groupArray(value) AS v FROM ${db}.metric_samples
            WHERE ${daysClause(startMs, endMs)} AND timestamp_ns BETWEEN ${startNs} AND ${endNs}${windows} AND fingerprint IN (${fps})
            GROUP BY fingerprint
          )
        ) ANY INNER JOIN (
          SELECT fingerprint, any(labels) AS labels FROM ${db}.time_series WHERE type = 'metrics' AND ${daysClause(startMs, endMs)} AND fingerprint IN (${fps}) GROUP BY fingerprint
        ) USING fingerprint`;
      // Read as it arrives; the engine's sample budget is charged per series before its samples are copied, so a
      // query past maxSamples stops here (and ClickHouse's query is killed) without loading the rest.
      const body = client.streamRowBinary(sql, { signal, params: clickhouseReadParams(instanceReadSettings(client.endpoint.readLimits)) });
      const result: Series[] = [];
      for await (const row of seriesRows(body, narrow ? baseMs : undefined, (n) => hints.samples?.add(n))) {
        if (row.times.length === 0) continue;
        result.push({ labels: rowLabels(row), ...normalise(row.times, row.values, row.stale) });
      }
      return result;
    },
  };

  return {
    querier,

    /** GET /api/v1/series: the series of any selector with a sample in the exact range, ordered as Prometheus. */
    async series(selectors: LabelMatcher[][], range: TimeRangeNs): Promise<Labels[]> {
      const labels = await labelsOf(seriesInRangeSql(db, selectors, range), nsToMs(range.startNs), nsToMs(range.endNs));
      return [...labels.values()].sort(compareLabels);
    },

    /** Label names: of the range's days, or with selectors of the series with samples in the exact range. */
    async labelNames(selectors: LabelMatcher[][], range: TimeRangeNs): Promise<string[]> {
      const days = daysClause(nsToMs(range.startNs), nsToMs(range.endNs));
      const only = selectors.length > 0 ? ` AND fingerprint IN (${seriesInRangeSql(db, selectors, range)})` : '';
      const rows = await client.query<{ key: string }>(`SELECT DISTINCT key FROM ${db}.series_labels WHERE type = 'metrics' AND ${days}${only} ORDER BY key`);
      return rows.map((r) => r.key);
    },

    async labelValues(name: string, selectors: LabelMatcher[][], range: TimeRangeNs): Promise<string[]> {
      const days = daysClause(nsToMs(range.startNs), nsToMs(range.endNs));
      const only = selectors.length > 0 ? ` AND fingerprint IN (${seriesInRangeSql(db, selectors, range)})` : '';
      const rows = await client.query<{ val: string }>(
        `SELECT DISTINCT val FROM ${db}.series_labels WHERE type = 'metrics' AND ${days} AND key = ${literal(name)}${only} ORDER BY val`,
      );
      return rows.map((r) => r.val);
    },

    /** GET /api/v1/metadata: per metric family the distinct (type, help, unit) received, at most `limit` families. */
    async metadata(metric: string | undefined, limit: number | undefined): Promise<Record<string, { type: string; help: string; unit: string }[]>> {
      let rows: { metric: string; type: string; help: string; unit: string }[];
      try {
        rows = await client.query(
          `SELECT DISTINCT metric, type, help, unit FROM ${db}.metric_metadata${metric !== undefined ? ` WHERE metric = ${literal(metric)}` : ''} ORDER BY metric, type, help, unit`,
        );
      } catch (error) {
        // An instance made before the table existed and that has not received metadata since: nothing to answer.
        if (error instanceof StorageError && error.code === 60) return {};
        throw error;
      }
      const out: Record<string, { type: string; help: string; unit: string }[]> = {};
      let families = 0;
      for (const row of rows) {
        if (!out[row.metric]) {
          if (limit !== undefined && limit >= 0 && families >= limit) break;
          out[row.metric] = [];
          families++;
        }
        out[row.metric].push({ type: row.type, help: row.help, unit: row.unit });
      }
      return out;
    },
  };
}

export type MetricsStore = ReturnType<typeof createMetricsQuerier>;
