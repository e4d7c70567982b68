// The explorer's log reads against a qryn instance (docs/qryn.md "Logs and traces in the explorer"): the log search
// (Loki query_range for the lines plus the volume-by-level query Grafana's Explore sends), the lines around one line
// ("show context"), the live tail's WebSocket address and credential, and the pure helpers the logs panel draws
// with: level detection, trace ids in lines, json/logfmt fields, and the query edits of "filter for / filter out".
// Every call carries the View's credential or the member's sign-in (authorizationFor) and x-qryn-view.
import { authorizationFor, authorizationHeader, type ViewTable } from './qryn-view';

export interface LogsRange {
  /** Epoch milliseconds. */
  from: number;
  to: number;
}

/** A failed read: the instance's status (0 when unreachable) and its reason. */
export class InstanceReadError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'InstanceReadError';
    this.status = status;
  }
  get refused(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

export const UNREACHABLE_MESSAGE = 'The qryn instance could not be reached. Please try again.';
export const REFUSED_MESSAGE = 'The instance refused this credential.';

/** GET {instanceUrl}{path}?params as JSON; Loki answers errors as plain text, Prometheus-style ones as JSON. */
export async function instanceRead<T>(instanceUrl: string, auth: string, path: string, params: Record<string, string>, signal?: AbortSignal, fetcher: typeof fetch = fetch): Promise<T> {
  const url = new URL(`${instanceUrl.replace(/\/$/, '')}${path}`, globalThis.location?.origin ?? 'http://localhost');
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  let response: Response;
  try {
    // x-qryn-view: a refusal then has no WWW-Authenticate, so the browser shows no login prompt of its own.
    response = await fetcher(url.toString(), { headers: { authorization: await authorizationFor(auth), 'x-qryn-view': '1' }, signal });
  } catch (error) {
    if ((error as { name?: string } | null)?.name === 'AbortError') throw error;
    throw new InstanceReadError(UNREACHABLE_MESSAGE, 0);
  }
  const text = await response.text().catch(() => '');
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const reason = (body as { error?: string; message?: string } | null)?.error ?? (body as { message?: string } | null)?.message ?? (body === null ? text.trim().slice(0, 500) : '');
  if (response.status === 401 || response.status === 403) throw new InstanceReadError(reason || REFUSED_MESSAGE, response.status);
  if (!response.ok) throw new InstanceReadError(reason || `The instance answered ${response.status}.`, response.status);
  if (body === null) throw new InstanceReadError('The instance answered with something that is not JSON.', response.status);
  const data = (body as { data?: unknown }).data;
  return (data ?? body) as T;
}

// ---------------------------------------------------------------------------------------------------------------
// Levels

export type LogLevel = 'critical' | 'error' | 'warning' | 'info' | 'debug' | 'trace' | 'unknown';
export const LOG_LEVELS: LogLevel[] = ['critical', 'error', 'warning', 'info', 'debug', 'trace', 'unknown'];

// The words Grafana recognises for each level (its LogLevel enum), lower case.
const LEVEL_WORDS: Record<string, LogLevel> = {
  emerg: 'critical', fatal: 'critical', alert: 'critical', crit: 'critical', critical: 'critical', panic: 'critical',
  err: 'error', eror: 'error', error: 'error',
  warn: 'warning', warning: 'warning',
  info: 'info', information: 'info', informational: 'info', notice: 'info',
  dbug: 'debug', debug: 'debug',
  trace: 'trace',
};
const LEVEL_LABELS = ['level', 'detected_level', 'lvl', 'loglevel', 'severity', 'severity_text'];
const LEVEL_WORD = new RegExp(`\\b(${Object.keys(LEVEL_WORDS).join('|')})\\b`, 'i');

/** A level name as written ('ERROR', 'Warn', 'E'…) to one of the levels; unknown when it names none. */
export function normalizeLevel(value: string): LogLevel {
  const v = value.trim().toLowerCase();
  if (v in LEVEL_WORDS) return LEVEL_WORDS[v];
  if (v === 'e') return 'error';
  if (v === 'w') return 'warning';
  if (v === 'i') return 'info';
  if (v === 'd') return 'debug';
  return 'unknown';
}

/**
 * A line's level as Grafana finds it: a level label of the stream (level, lvl, severity…) first; then a
 * level=/"level": field of the line; then the first level word in the line; else unknown.
 */
export function detectLevel(labels: Record<string, string>, line: string): LogLevel {
  for (const name of LEVEL_LABELS) {
    const value = labels[name];
    if (value !== undefined && value !== '') {
      const level = normalizeLevel(value);
      if (level !== 'unknown') return level;
    }
  }
  const field = /(?:^|[\s{,"])"?(?:level|lvl|severity|loglevel)"?\s*[=:]\s*"?([A-Za-z]+)/i.exec(line);
  if (field) {
    const level = normalizeLevel(field[1]);
    if (level !== 'unknown') return level;
  }
  const word = LEVEL_WORD.exec(line);
  return word ? LEVEL_WORDS[word[1].toLowerCase()] : 'unknown';
}

// ---------------------------------------------------------------------------------------------------------------
// Trace ids in lines

export interface LineSegment {
  text: string;
  /** Set when this segment is a trace id. */
  traceId?: string;
}

// traceID=…, trace_id=…, traceId: …, "traceId":"…" (any of those spellings, quoted or not): 16 or 32 hex digits.
const TRACE_ID = /(["']?)\b(?:trace[_-]?id)\1\s*[=:]\s*"?([0-9a-fA-F]{32}|[0-9a-fA-F]{16})\b/gi;

/** The line cut into plain text and trace ids (which the panel draws as links). */
export function splitTraceIds(line: string): LineSegment[] {
  const segments: LineSegment[] = [];
  let last = 0;
  for (const match of line.matchAll(TRACE_ID)) {
    const id = match[2];
    const start = match.index! + match[0].length - id.length;
    if (start > last) segments.push({ text: line.slice(last, start) });
    segments.push({ text: id, traceId: id.toLowerCase() });
    last = start + id.length;
  }
  if (last < line.length || segments.length === 0) segments.push({ text: line.slice(last) });
  return segments;
}

/** Trace ids in a line or in its labels/fields named like a trace id. */
export function traceIdsOf(line: string, fields: Record<string, string> = {}): string[] {
  const ids = splitTraceIds(line).flatMap((s) => (s.traceId ? [s.traceId] : []));
  for (const [name, value] of Object.entries(fields)) {
    if (/^trace[_-]?id$/i.test(name) && /^([0-9a-fA-F]{16}|[0-9a-fA-F]{32})$/.test(value)) ids.push(value.toLowerCase());
  }
  return [...new Set(ids)];
}

// ---------------------------------------------------------------------------------------------------------------
// Parsed fields (json / logfmt), named as Loki's parsers name them

export type LineParser = 'json' | 'logfmt';

/** Loki's label name rules: characters other than [a-zA-Z0-9_] become _, a leading digit gets a _ before it. */
export function sanitizeLabelName(name: string): string {
  const s = name.replace(/[^a-zA-Z0-9_]/g, '_');
  return /^[0-9]/.test(s) ? `_${s}` : s;
}

function flattenJson(value: unknown, prefix: string, out: Record<string, string>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) flattenJson(v, prefix ? `${prefix}_${sanitizeLabelName(k)}` : sanitizeLabelName(k), out);
    return;
  }
  // Loki's json parser skips arrays; nulls become empty values.
  if (Array.isArray(value) || !prefix) return;
  out[prefix] = value === null ? '' : String(value);
}

function parseLogfmt(line: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  const re = /([^\s="]+)=("((?:[^"\\]|\\.)*)"|[^\s"]*)/g;
  let found = 0;
  for (const m of line.matchAll(re)) {
    const value = m[3] !== undefined ? m[3].replace(/\\(.)/g, '$1') : m[2];
    out[sanitizeLabelName(m[1])] = value;
    found++;
  }
  return found > 0 ? out : null;
}

/** The fields of a line: its JSON object's (flattened with _, as `| json` does) or its logfmt pairs; null if neither. */
export function parseLineFields(line: string): { parser: LineParser; fields: Record<string, string> } | null {
  const trimmed = line.trim();
  if (trimmed.startsWith('{')) {
    try {
      const value = JSON.parse(trimmed) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const fields: Record<string, string> = {};
        flattenJson(value, '', fields);
        return { parser: 'json', fields };
      }
    } catch {
      // not JSON: try logfmt
    }
  }
  const fields = parseLogfmt(trimmed);
  return fields ? { parser: 'logfmt', fields } : null;
}

// ---------------------------------------------------------------------------------------------------------------
// The log query's text: its stream selector and its pipeline stages (a small scanner; the instance parses for real)

interface QueryShape {
  /** [start, end) of the stream selector's braces, end after '}'. */
  selector: [number, number];
  /** Each pipeline stage beginning with '|' (not the line filters |= |~): its kind and [start, end). */
  stages: { kind: string; start: number; end: number }[];
}

const PARSERS = new Set(['json', 'logfmt', 'regexp', 'pattern', 'unpack']);

/** Scans quotes and backticks so that braces and pipes inside strings do not count. */
function scanQuery(query: string): QueryShape | null {
  const open = query.indexOf('{');
  if (open < 0) return null;
  let i = open + 1;
  let selectorEnd = -1;
  const stages: QueryShape['stages'] = [];
  let stageStart = -1;
  let stageKind = '';
  const closeStage = (at: number) => {
    if (stageStart >= 0) stages.push({ kind: stageKind, start: stageStart, end: at });
    stageStart = -1;
  };
  let depth = 0;
  while (i < query.length) {
    const c = query[i];
    if (c === '"' || c === '`') {
      const quote = c;
      i++;
      while (i < query.length && query[i] !== quote) i += query[i] === '\\' && quote === '"' ? 2 : 1;
      i++;
      continue;
    }
    if (selectorEnd < 0) {
      if (c === '}') selectorEnd = i + 1;
      i++;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && c === '|' && query[i + 1] !== '=' && query[i + 1] !== '~') {
      closeStage(i);
      stageStart = i;
      const word = /^\|\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(query.slice(i));
      stageKind = word ? (PARSERS.has(word[1]) || ['line_format', 'label_format', 'drop', 'keep', 'decolorize', 'unwrap'].includes(word[1]) ? word[1] : 'label_filter') : 'label_filter';
    } else if (depth === 0 && (c === '!' || c === '|') && (query[i + 1] === '=' || query[i + 1] === '~') && stageStart >= 0) {
      // A line filter after a stage ends that stage.
      closeStage(i);
    }
    i++;
  }
  if (selectorEnd < 0) return null;
  closeStage(query.length);
  return { selector: [open, selectorEnd], stages };
}

/** "…" with Loki's escapes. */
export function quoteLogQL(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** The stream selector of a log query (`{job="a"}`), or null when there is none. */
export function streamSelectorOf(query: string): string | null {
  const shape = scanQuery(query);
  return shape ? query.slice(shape.selector[0], shape.selector[1]) : null;
}

/** The query has a parser stage (json, logfmt, regexp, pattern, unpack). */
export function hasParser(query: string): boolean {
  return scanQuery(query)?.stages.some((s) => PARSERS.has(s.kind)) ?? false;
}

export interface FilterEdit {
  name: string;
  value: string;
  /** '=' for "filter for value", '!=' for "filter out value". */
  op: '=' | '!=';
  /** A stream label (goes into the selector) or a parsed field (a label filter after the parser). */
  source: 'stream' | 'parsed';
  /** The parser that found a parsed field, added when the query has none. */
  parser?: LineParser;
}

/**
 * The query with a filter for or against a value, as Grafana's Explore edits it: a stream label's matcher goes into
 * the stream selector (not twice); a parsed field's is a label filter `| name="value"` after the last parser or label
 * filter (a `| json` or `| logfmt` is added first when the query has no parser and the field came from one).
 */
export function addFilter(query: string, edit: FilterEdit): string {
  const shape = scanQuery(query);
  const matcher = `${edit.name}${edit.op}${quoteLogQL(edit.value)}`;
  if (!shape) return query;
  if (edit.source === 'stream') {
    const [start, end] = shape.selector;
    const inside = query.slice(start + 1, end - 1).trim();
    if (inside.split(',').some((m) => m.replace(/\s+/g, '') === matcher.replace(/\s+/g, ''))) return query;
    return `${query.slice(0, start)}{${inside ? `${inside}, ${matcher}` : matcher}}${query.slice(end)}`;
  }
  const filterStage = `| ${matcher}`;
  const parsers = shape.stages.filter((s) => PARSERS.has(s.kind));
  if (edit.source === 'parsed' && parsers.length === 0) {
    return `${query.trimEnd()} | ${edit.parser ?? 'logfmt'} ${filterStage}`;
  }
  const anchors = shape.stages.filter((s) => PARSERS.has(s.kind) || s.kind === 'label_filter');
  const last = anchors.at(-1);
  if (!last) return `${query.trimEnd()} ${filterStage}`;
  const at = last.end;
  const before = query.slice(0, at).trimEnd();
  const after = query.slice(at).trimStart();
  if (query.slice(last.start, last.end).trim() === filterStage) return query;
  return after ? `${before} ${filterStage} ${after}` : `${before} ${filterStage}`;
}

// ---------------------------------------------------------------------------------------------------------------
// The volume query

const NICE_STEPS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

/** A step that gives at most `bars` bars over the range, rounded up to a readable duration. */
export function volumeStepSeconds(range: LogsRange, bars = 100): number {
  const want = Math.max(1, Math.ceil((range.to - range.from) / 1000 / bars));
  return NICE_STEPS_S.find((s) => s >= want) ?? Math.ceil(want / 86400) * 86400;
}

/**
 * Grafana's logs volume query for a log query: `sum by (level) (count_over_time(<query> | drop __error__ [<step>]))`.
 * Grafana adds `| drop __error__` so that lines a parser failed on still count; the log query is used whole (selector,
 * line filters, parsers, label filters), and its line_format stages are harmless to count_over_time.
 */
export function volumeQuery(query: string, stepSeconds: number): string {
  return `sum by (level) (count_over_time(${query.trim()} | drop __error__ [${stepSeconds}s]))`;
}

// ---------------------------------------------------------------------------------------------------------------
// Reads

export interface LogLine {
  /** Nanoseconds since the epoch, as the instance sent them. */
  tsNs: string;
  line: string;
  labels: Record<string, string>;
  level: LogLevel;
  /** Unique within one answer: timestamp, stream and position. */
  key: string;
}

export interface VolumeBucket {
  /** Bucket start, epoch milliseconds. */
  t: number;
  counts: Partial<Record<LogLevel, number>>;
}

export interface LogVolume {
  stepSeconds: number;
  buckets: VolumeBucket[];
  levels: LogLevel[];
  total: number;
}

export interface LogSearchResult {
  lines: LogLine[];
  volume: LogVolume | null;
  /** Why the volume is missing (the instance refused its query), when it is. */
  volumeError: string | null;
  limit: number;
}

export interface LogSearchRequest {
  instanceUrl: string;
  auth: string;
  query: string;
  range: LogsRange;
  limit?: number;
}

export const DEFAULT_LINE_LIMIT = 1000;

const nsOfMs = (ms: number) => `${BigInt(Math.round(ms)) * 1_000_000n}`;
const compareNsDesc = (a: string, b: string) => (a.length !== b.length ? b.length - a.length : a < b ? 1 : a > b ? -1 : 0);

type Streams = { resultType: 'streams'; result: { stream: Record<string, string>; values: [string, string][] }[] };
type Matrix = { resultType: 'matrix'; result: { metric: Record<string, string>; values: [number, string][] }[] };

/** The streams of a query_range answer as lines, newest first. */
export function linesOf(data: Streams): LogLine[] {
  const lines: LogLine[] = [];
  for (const [si, s] of data.result.entries()) {
    for (const [vi, [ts, line]] of s.values.entries()) lines.push({ tsNs: ts, line, labels: s.stream, level: detectLevel(s.stream, line), key: `${ts}-${si}-${vi}` });
  }
  return lines.sort((a, b) => compareNsDesc(a.tsNs, b.tsNs));
}

/** A matrix of `sum by (level)` as buckets with a count per level (level values normalized; none → unknown). */
export function volumeOf(data: Matrix, stepSeconds: number): LogVolume {
  const byTime = new Map<number, VolumeBucket>();
  const levels = new Set<LogLevel>();
  let total = 0;
  for (const series of data.result) {
    const level = series.metric.level ? normalizeLevel(series.metric.level) : 'unknown';
    levels.add(level);
    for (const [t, v] of series.values) {
      const ms = Math.round(t * 1000);
      const bucket = byTime.get(ms) ?? { t: ms, counts: {} };
      const n = Number(v);
      bucket.counts[level] = (bucket.counts[level] ?? 0) + n;
      total += n;
      byTime.set(ms, bucket);
    }
  }
  return { stepSeconds, buckets: [...byTime.values()].sort((a, b) => a.t - b.t), levels: LOG_LEVELS.filter((l) => levels.has(l)), total };
}

/** The lines (newest first, up to the limit) and the volume by level of a log query, read in parallel. */
export async function searchLogs(request: LogSearchRequest, signal?: AbortSignal, fetcher: typeof fetch = fetch): Promise<LogSearchResult> {
  const { instanceUrl, auth, query, range } = request;
  const limit = request.limit ?? DEFAULT_LINE_LIMIT;
  const step = volumeStepSeconds(range);
  const common = { start: nsOfMs(range.from), end: nsOfMs(range.to) };
  const linesRead = instanceRead<Streams | Matrix>(instanceUrl, auth, '/loki/api/v1/query_range', { ...common, query, limit: String(limit), direction: 'backward' }, signal, fetcher);
  const volumeRead = instanceRead<Matrix>(instanceUrl, auth, '/loki/api/v1/query_range', { ...common, query: volumeQuery(query, step), step: `${step}s` }, signal, fetcher);
  // The volume is extra: if only it fails, the lines still show (with the reason); a refused credential fails both.
  const [linesData, volumeResult] = await Promise.all([linesRead, volumeRead.then((v) => ({ ok: true as const, v }), (e: unknown) => ({ ok: false as const, e }))]);
  if (linesData.resultType !== 'streams') throw new InstanceReadError('This is a metric query: the logs view shows log queries (a stream selector with filters).', 400);
  let volume: LogVolume | null = null;
  let volumeError: string | null = null;
  if (volumeResult.ok) volume = volumeOf(volumeResult.v, step);
  else {
    if (volumeResult.e instanceof InstanceReadError && volumeResult.e.refused) throw volumeResult.e;
    if ((volumeResult.e as { name?: string })?.name === 'AbortError') throw volumeResult.e;
    volumeError = volumeResult.e instanceof Error ? volumeResult.e.message : String(volumeResult.e);
  }
  return { lines: linesOf(linesData), volume, volumeError, limit };
}

/**
 * The lines as the View's export table (YourData.csv / YourData.json): Time (ISO), Labels (`{a="x", b="y"}`,
 * sorted) and Line, newest first, as the View exported them before the explorer.
 */
export function logsTable(lines: LogLine[]): ViewTable {
  const labelText = (labels: Record<string, string>) =>
    `{${Object.keys(labels)
      .sort()
      .map((k) => `${k}="${labels[k]}"`)
      .join(', ')}}`;
  return { columns: ['Time', 'Labels', 'Line'], rows: lines.map((l) => [new Date(Number(BigInt(l.tsNs) / 1_000_000n)).toISOString(), labelText(l.labels), l.line]) };
}

// ---------------------------------------------------------------------------------------------------------------
// Show context

const CONTEXT_WINDOW_MS = 2 * 3600 * 1000;
export const CONTEXT_LINES = 10;

/**
 * The exact selector of a line's stream: its labels, less the ones the query's parsers added (Loki answers parsed
 * labels as part of the stream) and less __error__. Grafana does the same with the labels it knows to be parsed.
 */
export function contextSelector(labels: Record<string, string>, parsedNames: string[] = []): string {
  const skip = new Set([...parsedNames, '__error__', '__error_details__']);
  const matchers = Object.keys(labels)
    .filter((k) => !skip.has(k))
    .sort()
    .map((k) => `${k}=${quoteLogQL(labels[k])}`);
  return `{${matchers.join(', ')}}`;
}

export interface ContextRequests {
  before: Record<string, string>;
  after: Record<string, string>;
}

/** The two query_range reads of "show context": backward before the line's time, forward from it (2 hours each way). */
export function contextRequests(selector: string, tsNs: string, lines = CONTEXT_LINES): ContextRequests {
  const ts = BigInt(tsNs);
  const window = BigInt(CONTEXT_WINDOW_MS) * 1_000_000n;
  return {
    before: { query: selector, start: String(ts - window), end: String(ts + 1n), limit: String(lines + 1), direction: 'backward' },
    after: { query: selector, start: String(ts), end: String(ts + window), limit: String(lines + 1), direction: 'forward' },
  };
}

export interface LogContext {
  /** Oldest first, the line's own time last. */
  before: LogLine[];
  /** Oldest first. */
  after: LogLine[];
}

/** The lines around one line of a stream (the line itself left out), both sides oldest first. */
export async function readContext(instanceUrl: string, auth: string, target: LogLine, parsedNames: string[], signal?: AbortSignal, fetcher: typeof fetch = fetch): Promise<LogContext> {
  const requests = contextRequests(contextSelector(target.labels, parsedNames), target.tsNs);
  const [before, after] = await Promise.all([
    instanceRead<Streams>(instanceUrl, auth, '/loki/api/v1/query_range', requests.before, signal, fetcher),
    instanceRead<Streams>(instanceUrl, auth, '/loki/api/v1/query_range', requests.after, signal, fetcher),
  ]);
  const notTarget = (l: LogLine) => !(l.tsNs === target.tsNs && l.line === target.line);
  return {
    before: linesOf(before).filter(notTarget).slice(0, CONTEXT_LINES).reverse(),
    after: linesOf(after).filter(notTarget).reverse().slice(0, CONTEXT_LINES),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Live tail

/** The WebSocket subprotocol the gateway's tail selects; the credential travels in a second one (below). */
export const TAIL_PROTOCOL = 'loki-tail';
export const TAIL_AUTH_PREFIX = 'qryn-auth.';

function base64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * How the browser opens the tail: a WebSocket cannot carry an Authorization header, so the header's value goes as
 * the subprotocol `qryn-auth.<base64url>` next to `loki-tail` (headers are not logged as URLs are; the gateway
 * answers with `loki-tail` only). The query and limits go in the URL as Loki has them.
 */
export function tailSocket(instanceUrl: string, auth: string, query: string, startMs: number, limit = 100): { url: string; protocols: string[] } {
  return tailSocketWith(instanceUrl, authorizationHeader(auth), query, startMs, limit);
}

/** As tailSocket, with the Authorization value already resolved (the sign-in's token: authorizationFor). */
export function tailSocketWith(instanceUrl: string, authorization: string, query: string, startMs: number, limit = 100): { url: string; protocols: string[] } {
  const base = new URL(`${instanceUrl.replace(/\/$/, '')}/loki/api/v1/tail`, globalThis.location?.origin ?? 'http://localhost');
  base.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  base.searchParams.set('query', query);
  base.searchParams.set('start', nsOfMs(startMs));
  base.searchParams.set('limit', String(limit));
  return { url: base.toString(), protocols: [TAIL_PROTOCOL, `${TAIL_AUTH_PREFIX}${base64Url(authorization)}`] };
}

/** One tail frame's lines, oldest first (the order the frame has them). */
export function tailFrameLines(frame: string, seq: { n: number }): LogLine[] {
  const data = JSON.parse(frame) as { streams?: { stream: Record<string, string>; values: [string, string][] }[] };
  const lines: LogLine[] = [];
  for (const s of data.streams ?? []) {
    for (const [ts, line] of s.values) lines.push({ tsNs: ts, line, labels: s.stream, level: detectLevel(s.stream, line), key: `tail-${seq.n++}` });
  }
  return lines;
}
