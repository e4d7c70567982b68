// The qryn explorer's reads for the shell and the metrics (docs/qryn.md "qryn explorer"): Prometheus query and
// query_range, label names and values, series and metadata; Loki label names and values (for autocomplete and the
// label browser) and query_range of LogQL *metric* queries; Tempo's tag names and values (for TraceQL completion).
// Every call goes from the browser straight to the instance URL with the member's sign-in or the View's credential
// (authorizationFor); a refusal is an ExplorerRequestError with status 401/403 that the shell turns back into the
// credential form. Also the pure helpers around them: result tables, chart series, the auto step and server error
// positions.
import { authorizationFor } from './qryn-view';

export const EXPLORER_UNREACHABLE_MESSAGE = 'The qryn instance could not be reached. Please try again.';
export const EXPLORER_REFUSED_MESSAGE = 'The instance refused this credential. Paste a valid token or key:secret.';

export class ExplorerRequestError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'ExplorerRequestError';
    this.status = status;
  }
}

/** Where reads go: the instance URL as the console shows it and the View's credential (token or key:secret). */
export interface ExplorerTarget {
  url: string;
  auth: string;
}

/** The headers of every read: the credential, and x-qryn-view so that a 401 brings no browser login prompt. */
export async function explorerHeaders(auth: string): Promise<Record<string, string>> {
  return { authorization: await authorizationFor(auth), 'x-qryn-view': '1' };
}

async function read<T>(target: ExplorerTarget, path: string, params: Record<string, string | string[]>, signal?: AbortSignal): Promise<T> {
  const url = new URL(`${target.url.replace(/\/$/, '')}${path}`, globalThis.location?.origin ?? 'http://localhost');
  for (const [k, v] of Object.entries(params)) for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, one);
  let response: Response;
  try {
    response = await fetch(url, { headers: await explorerHeaders(target.auth), signal });
  } catch (error) {
    // A cancelled read stays a cancellation (the machine dropped it for a newer query).
    if ((error as { name?: string } | null)?.name === 'AbortError') throw error;
    throw new ExplorerRequestError(EXPLORER_UNREACHABLE_MESSAGE, 0);
  }
  // Prometheus answers JSON errors; Loki answers its errors as plain text: both messages carry the parser's position.
  const text = await response.text().catch(() => '');
  type Body = { status?: string; error?: string; data?: unknown };
  let body = null as Body | null;
  try {
    body = text ? (JSON.parse(text) as Body) : null;
  } catch {
    body = null;
  }
  const reason = (body && typeof body.error === 'string' ? body.error : null) ?? (body === null && text.trim() ? text.trim() : null);
  if (response.status === 401 || response.status === 403) throw new ExplorerRequestError(reason || EXPLORER_REFUSED_MESSAGE, response.status);
  if (!response.ok || !body) throw new ExplorerRequestError(reason || `The instance answered ${response.status}.`, response.status);
  return (body.data ?? body) as T;
}

const seconds = (ms: number) => String(Math.floor(ms / 1000));
const ns = (ms: number) => `${BigInt(Math.round(ms)) * 1_000_000n}`;

export interface RangeMs {
  from: number;
  to: number;
}

export type PromLabels = Record<string, string>;
export interface MatrixSeries {
  metric: PromLabels;
  values: [number, string][];
}
export interface VectorSample {
  metric: PromLabels;
  value: [number, string];
}

/** What a metric query answers: Prometheus' and Loki's result types. */
export type MetricResult =
  | { resultType: 'matrix'; result: MatrixSeries[] }
  | { resultType: 'vector'; result: VectorSample[] }
  | { resultType: 'scalar'; result: [number, string] }
  | { resultType: 'string'; result: [number, string] };

export type MetricSource = 'prometheus' | 'loki';

export interface MetricRequest {
  source: MetricSource;
  query: string;
  /** range: query_range over `range` at `stepSeconds`; instant: query at `range.to`. */
  kind: 'range' | 'instant';
  range: RangeMs;
  stepSeconds: number;
}

/** About 250 points per series, at least 1 s (what Prometheus' and Loki's UIs choose for a range). */
export function autoStepSeconds(range: RangeMs): number {
  return Math.max(1, Math.ceil((range.to - range.from) / 1000 / 250));
}

/** Runs a metric query (PromQL on the Prometheus API, LogQL metric queries on Loki's) and answers its data. */
export function runMetricQuery(target: ExplorerTarget, request: MetricRequest, signal?: AbortSignal): Promise<MetricResult> {
  const prom = request.source === 'prometheus';
  const time = (ms: number) => (prom ? seconds(ms) : ns(ms));
  if (request.kind === 'instant') {
    return read<MetricResult>(target, prom ? '/api/v1/query' : '/loki/api/v1/query', { query: request.query, time: time(request.range.to) }, signal);
  }
  return read<MetricResult>(
    target,
    prom ? '/api/v1/query_range' : '/loki/api/v1/query_range',
    { query: request.query, start: time(request.range.from), end: time(request.range.to), step: String(request.stepSeconds) },
    signal,
  );
}

export type LabelLanguage = 'promql' | 'logql';

/** Label names in the range; `selector` narrows them to the series (or streams) it matches. */
export function labelNames(target: ExplorerTarget, language: LabelLanguage, range: RangeMs, selector?: string, signal?: AbortSignal): Promise<string[]> {
  if (language === 'promql') {
    return read<string[]>(target, '/api/v1/labels', { start: seconds(range.from), end: seconds(range.to), ...(selector ? { 'match[]': selector } : {}) }, signal);
  }
  return read<string[]>(target, '/loki/api/v1/labels', { start: ns(range.from), end: ns(range.to), ...(selector ? { query: selector } : {}) }, signal);
}

/** Values of one label in the range; `selector` narrows them as above. */
export function labelValues(target: ExplorerTarget, language: LabelLanguage, name: string, range: RangeMs, selector?: string, signal?: AbortSignal): Promise<string[]> {
  const encoded = encodeURIComponent(name);
  if (language === 'promql') {
    return read<string[]>(target, `/api/v1/label/${encoded}/values`, { start: seconds(range.from), end: seconds(range.to), ...(selector ? { 'match[]': selector } : {}) }, signal);
  }
  return read<string[]>(target, `/loki/api/v1/label/${encoded}/values`, { start: ns(range.from), end: ns(range.to), ...(selector ? { query: selector } : {}) }, signal);
}

/** The series a selector matches (Prometheus). */
export function series(target: ExplorerTarget, selector: string, range: RangeMs, signal?: AbortSignal): Promise<PromLabels[]> {
  return read<PromLabels[]>(target, '/api/v1/series', { 'match[]': selector, start: seconds(range.from), end: seconds(range.to) }, signal);
}

/** Type, help and unit per metric family, as remote write sent them. */
export function metricMetadata(target: ExplorerTarget, signal?: AbortSignal): Promise<Record<string, { type: string; help: string; unit?: string }[]>> {
  return read(target, '/api/v1/metadata', {}, signal);
}

/** Tempo's tag names of the range (`span.x`, `resource.x` and the intrinsics), for TraceQL completion. */
export async function traceTagNames(target: ExplorerTarget, range: RangeMs, signal?: AbortSignal): Promise<string[]> {
  const data = await read<{ scopes?: { name: string; tags: string[] }[] }>(target, '/api/v2/search/tags', { start: seconds(range.from), end: seconds(range.to) }, signal);
  return (data.scopes ?? []).flatMap((scope) => scope.tags.map((tag) => (scope.name === 'intrinsic' ? tag : `${scope.name}.${tag}`)));
}

/** Values of one Tempo tag (`span.http.route`, `resource.service.name`, `name` …) in the range. */
export async function traceTagValues(target: ExplorerTarget, tag: string, range: RangeMs, signal?: AbortSignal): Promise<{ type: string; value: string }[]> {
  const data = await read<{ tagValues?: { type: string; value: string }[] }>(target, `/api/v2/search/tag/${encodeURIComponent(tag)}/values`, { start: seconds(range.from), end: seconds(range.to) }, signal);
  return data.tagValues ?? [];
}

/** `{a="x", b="y"}` with the metric name first, as Prometheus writes a series; `{}` for none. */
export function seriesName(labels: PromLabels): string {
  const { __name__: name, ...rest } = labels;
  const inner = Object.keys(rest)
    .sort()
    .map((k) => `${k}="${rest[k]!.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)
    .join(', ');
  return `${name ?? ''}{${inner}}`;
}

/** One table of results: what the table view shows and what the CSV/JSON downloads hold. */
export interface ResultTable {
  columns: string[];
  rows: string[][];
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** A result as a table: range results as Series / Time / Value rows, instant ones as one row per series. */
export function resultTable(result: MetricResult): ResultTable {
  switch (result.resultType) {
    case 'matrix':
      return { columns: ['Series', 'Time', 'Value'], rows: result.result.flatMap((s) => s.values.map(([t, v]) => [seriesName(s.metric), iso(t), v])) };
    case 'vector':
      return { columns: ['Series', 'Time', 'Value'], rows: result.result.map((s) => [seriesName(s.metric), iso(s.value[0]), s.value[1]]) };
    default:
      return { columns: ['Time', 'Value'], rows: [[iso(result.result[0]), result.result[1]]] };
  }
}

/** uPlot's data: one shared x (seconds) and one y array per series, null where a series has no point. */
export interface ChartData {
  names: string[];
  xs: number[];
  ys: (number | null)[][];
}

/** Aligns a matrix on the union of its timestamps (series of one range query share the step grid). */
export function chartData(result: MetricResult): ChartData {
  if (result.resultType !== 'matrix') return { names: [], xs: [], ys: [] };
  const xs = [...new Set(result.result.flatMap((s) => s.values.map(([t]) => t)))].sort((a, b) => a - b);
  const at = new Map(xs.map((x, i) => [x, i]));
  const ys = result.result.map((s) => {
    const row: (number | null)[] = new Array<number | null>(xs.length).fill(null);
    for (const [t, v] of s.values) {
      const n = Number(v);
      row[at.get(t)!] = Number.isFinite(n) ? n : null;
    }
    return row;
  });
  return { names: result.result.map((s) => seriesName(s.metric)), xs, ys };
}

/** Where the server's parser put an error: 1-based line and column. */
export interface ErrorPosition {
  line: number;
  col: number;
}

/**
 * The position in a parse error as the instance words it: Prometheus' `1:5: parse error: …`, Loki's `parse error at
 * line 1, col 5: …`, Tempo's `parse error at line 1, col 5: …`; null when the message names none.
 */
export function errorPosition(message: string): ErrorPosition | null {
  const prom = /(?:^|\s)(\d+):(\d+): parse error/.exec(message);
  if (prom) return { line: Number(prom[1]), col: Number(prom[2]) };
  const loki = /parse error at line (\d+), col (\d+)/.exec(message);
  if (loki) return { line: Number(loki[1]), col: Number(loki[2]) };
  return null;
}

/** The character offsets [from, to) to underline in `text` for an error at `position`: the word there, or one character. */
export function errorSpan(text: string, position: ErrorPosition): { from: number; to: number } {
  const lines = text.split('\n');
  const lineIndex = Math.min(Math.max(position.line, 1), lines.length) - 1;
  const lineStart = lines.slice(0, lineIndex).reduce((sum, l) => sum + l.length + 1, 0);
  const line = lines[lineIndex] ?? '';
  const col = Math.min(Math.max(position.col - 1, 0), line.length);
  const from = lineStart + col;
  const word = /^[\w.:"'=~!<>|]+/.exec(line.slice(col))?.[0].length ?? 0;
  if (word > 0) return { from, to: from + word };
  // At the end of the text (an unexpected end) underline the last character so that something shows.
  return col < line.length ? { from, to: from + 1 } : { from: Math.max(lineStart, from - 1), to: from };
}
