import { HttpError, sendJson, type ReadRequest } from '../http/gateway-http';
import { identifier, type StorageClient } from '../storage/storage-client';
import { dateClause } from '../query/label-index';
import { upgradeInstanceSchema } from '../storage/schema';
import { needsPayload, spanReader } from './trace-search';
import { parseTraceQLParam, scheduled } from './tempo-read';
import type { MetricsExpr } from '../../../../packages/traceql/ast';
import { traceConditionSql } from '../../../../packages/traceql/clickhouse';
import { buildTrace, type EvalTrace, type Value } from '../../../../packages/traceql/field-eval';
import { evaluateMetrics, metricsPipelines, MetricsUnsupported, stepCount, type MetricsWindow, type Series } from '../../../../packages/traceql/metrics';
import { countPushdown } from '../../../../packages/traceql/metrics-pushdown';

// TraceQL metrics (Tempo's /api/metrics/query_range and /api/metrics/query): `q` (or `query`), `start`, `end`
// (unix seconds, nanoseconds, fractional seconds or RFC 3339; default the last hour), `step` (seconds or a Go
// duration; default Tempo's: the range over 240, at least 1s). A count or rate of one exactly translated filter is
// aggregated in ClickHouse (packages/traceql/metrics-pushdown.ts); any other query reads the spans of the candidate
// traces and evaluates in memory (packages/traceql/metrics.ts), up to MAX_TRACES traces.

const NS_PER_S = 1_000_000_000n;
const DEFAULT_RANGE_NS = 3600n * NS_PER_S;
const MAX_POINTS = 11_000;
const MAX_TRACES = 100_000;
const CHUNK = 1_000;

function timestamp(value: string | null, name: string, fallback: bigint): bigint {
  if (value === null || value === '') return fallback;
  if (/^\d+\.\d+$/.test(value)) return BigInt(Math.round(Number(value) * 1e9));
  if (/^\d{1,10}$/.test(value)) return BigInt(value) * NS_PER_S;
  if (/^\d{11,19}$/.test(value)) return BigInt(value);
  const ms = Date.parse(value);
  if (/^\d{4}-\d\d-\d\dT/.test(value) && !Number.isNaN(ms)) return BigInt(ms) * 1_000_000n;
  throw new HttpError(400, `could not parse '${name}' parameter: "${value.slice(0, 40)}" is not a unix timestamp or RFC 3339 time`);
}

function stepOf(value: string | null, startNs: bigint, endNs: bigint): bigint {
  if (value === null || value === '') {
    const base = (endNs - startNs) / 240n;
    return base > NS_PER_S ? (base / NS_PER_S) * NS_PER_S : NS_PER_S;
  }
  let ns: number;
  if (/^\d+(\.\d+)?$/.test(value)) ns = Number(value) * 1e9;
  else if (/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(value)) {
    const units: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
    ns = [...value.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)].reduce((n, m) => n + Number(m[1]) * units[m[2]], 0);
  } else throw new HttpError(400, `cannot parse "${value.slice(0, 40)}" to a valid duration`);
  // Rounded to whole nanoseconds first: a step under half a nanosecond (or past a float's range) is no step at all.
  const whole = Number.isFinite(ns) ? Math.round(ns) : NaN;
  if (!(whole > 0)) throw new HttpError(400, `cannot parse "${value.slice(0, 40)}": step must be positive`);
  return BigInt(whole);
}

/** Tempo's typed AnyValue for a label (numbers as doubles, as its labels carry them). */
function labelValue(v: Value): Record<string, unknown> {
  if (!v) return { stringValue: 'nil' };
  if (v.t === 'number') return Number.isInteger(v.v) ? { intValue: String(v.v) } : { doubleValue: v.v };
  if (v.t === 'bool') return { boolValue: v.v };
  return { stringValue: String(v.v) };
}

const labels = (s: Series) => s.labels.map(([key, value]) => ({ key, value: labelValue(value) }));

export async function tempoMetricsApi(r: ReadRequest, instant: boolean): Promise<boolean> {
  const params = r.url.searchParams;
  const q = params.get('q') ?? params.get('query');
  if (!q) throw new HttpError(400, 'invalid TraceQL query: the q parameter is required');
  const parsed = parseTraceQLParam(q);
  if (parsed.kind !== 'metrics') throw new HttpError(400, 'invalid TraceQL query: not a metrics query (end it with a metrics function, e.g. {} | rate())');
  const endNs = timestamp(params.get('end'), 'end', r.nowNs);
  const startNs = timestamp(params.get('start'), 'start', endNs - DEFAULT_RANGE_NS);
  if (endNs <= startNs) throw new HttpError(400, `http parameter start must be before end. received start=${startNs} end=${endNs}`);
  const stepNs = instant ? endNs - startNs : stepOf(params.get('step'), startNs, endNs);
  // Intervals align to the step, as Tempo's do, so that the same query over a moving window answers the same points.
  const alignedStart = instant ? startNs : (startNs / stepNs) * stepNs;
  const window: MetricsWindow = { startNs: alignedStart, endNs, stepNs };
  if (stepCount(window) > MAX_POINTS) throw new HttpError(400, `exceeded maximum resolution of ${MAX_POINTS} points per timeseries. Try decreasing the query resolution (?step=XX)`);
  const stats = { inspectedTraces: 0, inspectedSpans: 0, inspectedBytes: 0 };
  let series: Series[] | number;
  try {
    series = await scheduled(r, (signal) => metricsSeries(r.storage, r.access.instance.database_name, parsed.expr, window, signal, stats));
  } catch (error) {
    if (error instanceof MetricsUnsupported) throw new HttpError(400, `invalid TraceQL query: ${error.message}`);
    throw error;
  }
  const list = typeof series === 'number' ? [] : series;
  const metrics = { inspectedTraces: stats.inspectedTraces, inspectedSpans: String(stats.inspectedSpans), inspectedBytes: String(stats.inspectedBytes), completedJobs: 1, totalJobs: 1 };
  if (instant) {
    sendJson(r.res, 200, { series: list.filter((s) => !Number.isNaN(s.values[0])).map((s) => ({ labels: labels(s), value: s.values[0] })), metrics });
    return true;
  }
  sendJson(r.res, 200, {
    series: list.map((s) => ({
      labels: labels(s),
      samples: s.values.flatMap((value, i) => (Number.isNaN(value) ? [] : [{ timestampMs: String((window.startNs + BigInt(i) * stepNs) / 1_000_000n), value }])),
      exemplars: [],
    })),
    metrics,
  });
  return true;
}

async function metricsSeries(
  client: StorageClient,
  database: string,
  expr: MetricsExpr,
  window: MetricsWindow,
  signal: AbortSignal,
  stats: { inspectedTraces: number; inspectedSpans: number; inspectedBytes: number },
): Promise<Series[] | number> {
  await upgradeInstanceSchema(client, database);
  const spansTable = `${identifier(database)}.spans`;
  const range = { startNs: window.startNs, endNs: window.endNs - 1n };
  const inRange = `${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs}`;
  const table = { table: spansTable, bound: dateClause(range), rows: inRange };
  if (expr.kind === 'metrics') {
    const pushed = countPushdown(expr, table, window);
    if (pushed) {
      signal.throwIfAborted();
      const rows = await client.query<{ i: string; g: string; c: string }>(`SELECT toString(intDiv(timestamp_ns - ${window.startNs}, ${window.stepNs})) AS i, ${pushed.group} AS g, toString(count()) AS c FROM ${spansTable} WHERE ${inRange} AND ${pushed.where} GROUP BY i, g`, { signal });
      stats.inspectedSpans = rows.reduce((n, row) => n + Number(row.c), 0);
      return pushed.series(rows.map((row) => ({ step: Number(row.i), group: row.g, count: Number(row.c) })));
    }
  }
  const pipelines = metricsPipelines(expr);
  const conditions = pipelines.map((p) => traceConditionSql(p.pipeline, table));
  const having = conditions.some((c) => c === null) ? null : conditions.map((c) => `(${c})`).join(' OR ');
  signal.throwIfAborted();
  const candidates = await client.query<{ trace_id: string }>(
    `SELECT trace_id FROM ${spansTable} WHERE ${inRange} GROUP BY trace_id${having ? ` HAVING ${having}` : ''} LIMIT ${MAX_TRACES + 1}`,
    { signal },
  );
  if (candidates.length > MAX_TRACES) throw new HttpError(400, `the query reads more than ${MAX_TRACES} traces; narrow the time range or the filter`);
  // compare() counts every span's status message, which only the stored span holds.
  const payload = needsPayload(pipelines) || pipelines.some((p) => p.fn.fn === 'compare');
  const reader = spanReader(client, spansTable, inRange, payload, stats, signal);
  const traces: EvalTrace[] = [];
  for (let at = 0; at < candidates.length; at += CHUNK) {
    signal.throwIfAborted();
    const ids = candidates.slice(at, at + CHUNK).map((c) => c.trace_id);
    const byTrace = await reader(ids);
    for (const id of ids) traces.push(buildTrace(id, byTrace.get(id) ?? []));
  }
  stats.inspectedTraces = traces.length;
  signal.throwIfAborted();
  return evaluateMetrics(expr, traces, window);
}
