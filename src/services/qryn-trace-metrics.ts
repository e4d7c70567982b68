// TraceQL metrics in the explorer (docs/qryn.md "Logs and traces in the explorer"): a query that ends in a metrics
// function (`{…} | rate()`, `| count_over_time() by (…)`, `| quantile_over_time(duration, .9)`) is read from Tempo's
// /api/metrics/query_range on the instance and drawn as series; any other query is a trace search.
import type { ChartData } from './qryn-explorer';
import { instanceRead, type LogsRange } from './qryn-logs';

export interface TraceMetricsRequest {
  instanceUrl: string;
  auth: string;
  query: string;
  range: LogsRange;
}

/** Tempo's metrics functions (the first stage after the spanset pipeline). */
export const TRACE_METRICS_FUNCTIONS = [
  'rate',
  'count_over_time',
  'min_over_time',
  'max_over_time',
  'avg_over_time',
  'sum_over_time',
  'quantile_over_time',
  'histogram_over_time',
  'compare',
] as const;

const METRICS_STAGE = new RegExp(`\\|\\s*(?:${TRACE_METRICS_FUNCTIONS.join('|')})\\s*\\(`);

/**
 * Whether a query is a metrics query: a metrics function called after a pipe, outside quoted text (a string value
 * such as `{ name = "| rate(" }` does not make one).
 */
export function isTraceMetricsQuery(query: string): boolean {
  const unquoted = query.replace(/"(?:[^"\\]|\\.)*"?|`[^`]*`?/g, '""');
  return METRICS_STAGE.test(unquoted);
}

interface TempoValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface RangeAnswer {
  series?: { labels?: { key: string; value?: TempoValue }[]; samples?: { timestampMs: string | number; value: number }[] }[];
}

const valueText = (v: TempoValue | undefined): string => {
  if (!v) return 'nil';
  if (v.stringValue !== undefined) return JSON.stringify(v.stringValue);
  if (v.intValue !== undefined) return String(v.intValue);
  if (v.doubleValue !== undefined) return String(v.doubleValue);
  if (v.boolValue !== undefined) return String(v.boolValue);
  return 'nil';
};

/** A series' name as its labels, `{resource.service.name="api"}`; without labels, the query's function. */
export function traceSeriesName(labels: { key: string; value?: TempoValue }[]): string {
  if (labels.length === 1 && labels[0].key === '__name__') return labels[0].value?.stringValue ?? '__name__';
  return `{${labels.map((l) => `${l.key}=${valueText(l.value)}`).join(', ')}}`;
}

/** The range's step in seconds: about 240 points, at least one second (what Tempo itself picks without a step). */
export function traceMetricsStep(range: LogsRange): number {
  return Math.max(1, Math.floor((range.to - range.from) / 1000 / 240));
}

/** The answer's series aligned on the union of their timestamps (seconds), a gap where a series has no sample. */
export function traceChartData(answer: RangeAnswer): ChartData {
  const series = answer.series ?? [];
  const xs = [...new Set(series.flatMap((s) => (s.samples ?? []).map((p) => Number(p.timestampMs) / 1000)))].sort((a, b) => a - b);
  const at = new Map(xs.map((x, i) => [x, i]));
  return {
    names: series.map((s) => traceSeriesName(s.labels ?? [])),
    xs,
    ys: series.map((s) => {
      const ys: (number | null)[] = xs.map(() => null);
      for (const p of s.samples ?? []) ys[at.get(Number(p.timestampMs) / 1000)!] = p.value;
      return ys;
    }),
  };
}

/** The metrics query over the range (unix seconds, as Tempo takes them). */
export async function traceMetricsRange(request: TraceMetricsRequest, signal?: AbortSignal, fetcher: typeof fetch = fetch): Promise<ChartData> {
  const params = {
    q: request.query.trim(),
    start: String(Math.floor(request.range.from / 1000)),
    end: String(Math.ceil(request.range.to / 1000)),
    step: `${traceMetricsStep(request.range)}s`,
  };
  return traceChartData(await instanceRead<RangeAnswer>(request.instanceUrl, request.auth, '/api/metrics/query_range', params, signal, fetcher));
}
