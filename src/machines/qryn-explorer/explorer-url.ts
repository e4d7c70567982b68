// The explorer's state in the address, with the console's URL-state rules (src/lib/url-state.ts): named values read
// on load and written on run, absent when they hold their default, and only the explorer's own parameters touched
// (anything else in the address is left alone). A shared link therefore reopens the same language, query, time
// range, refresh, view, trace, query type and step. A split view's second pane keeps its own language, query, view and trace under
// `right.` names (`right.language` present means the pane is open); the time range and refresh are the two panes'.
// Also the time ranges: the relative ones (last 5m … 7d) and absolute ones, with the
// messages shown at their fields.

import { evaluateTimeExpression, isTimeExpression } from './time-expression';

export type ExplorerLanguage = 'promql' | 'logql' | 'traceql';
export type ExplorerView = 'chart' | 'table';
/** A metric query run over the range (a chart) or at its end (a table), Grafana's "Query type". */
export type MetricKind = 'range' | 'instant';

/** The metric step: auto (from the range) or seconds; `step` in the address, absent for auto. */
export const STEPS = [
  { value: 'auto', label: 'Auto' },
  { value: '15', label: '15s' },
  { value: '30', label: '30s' },
  { value: '60', label: '1m' },
  { value: '300', label: '5m' },
  { value: '900', label: '15m' },
  { value: '3600', label: '1h' },
] as const;
export type StepValue = (typeof STEPS)[number]['value'];

/** The language switch's words in the address and on screen: Metrics = PromQL, Logs = LogQL, Traces = TraceQL. */
export const LANGUAGES: { value: ExplorerLanguage; param: string; label: string; language: string }[] = [
  { value: 'promql', param: 'metrics', label: 'Metrics', language: 'PromQL' },
  { value: 'logql', param: 'logs', label: 'Logs', language: 'LogQL' },
  { value: 'traceql', param: 'traces', label: 'Traces', language: 'TraceQL' },
];

export const RELATIVE_RANGES = [
  { value: 'now-5m', label: 'Last 5 minutes', ms: 5 * 60_000 },
  { value: 'now-15m', label: 'Last 15 minutes', ms: 15 * 60_000 },
  { value: 'now-1h', label: 'Last 1 hour', ms: 3_600_000 },
  { value: 'now-3h', label: 'Last 3 hours', ms: 3 * 3_600_000 },
  { value: 'now-6h', label: 'Last 6 hours', ms: 6 * 3_600_000 },
  { value: 'now-12h', label: 'Last 12 hours', ms: 12 * 3_600_000 },
  { value: 'now-24h', label: 'Last 24 hours', ms: 24 * 3_600_000 },
  { value: 'now-2d', label: 'Last 2 days', ms: 2 * 86_400_000 },
  { value: 'now-7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
] as const;

export const REFRESH_OPTIONS = [
  { value: 'off', label: 'Off', ms: 0 },
  { value: '5s', label: '5s', ms: 5_000 },
  { value: '10s', label: '10s', ms: 10_000 },
  { value: '30s', label: '30s', ms: 30_000 },
  { value: '1m', label: '1m', ms: 60_000 },
  { value: '5m', label: '5m', ms: 300_000 },
] as const;

export type RefreshValue = (typeof REFRESH_OPTIONS)[number]['value'];

/**
 * The time range as the address holds it: relative (`from=now-1h`, `to=now`) or absolute (epoch milliseconds in
 * both), Grafana's way of writing it, so links are short and exact.
 */
export type ExplorerRangeSetting =
  | { kind: 'relative'; value: string }
  | { kind: 'absolute'; from: number; to: number }
  /** Typed times, each relative to now (`now-1d/d`) or epoch milliseconds, evaluated at each run. */
  | { kind: 'expression'; from: string; to: string };

const EPOCH_MS = /^\d{1,15}$/;
/** A range end as the address and the typed range hold it: a time expression, or epoch milliseconds. */
const rangeEnd = (text: string | null): text is string => text !== null && (EPOCH_MS.test(text) || isTimeExpression(text));

export interface ExplorerUrlState {
  language: ExplorerLanguage;
  query: string;
  range: ExplorerRangeSetting;
  refresh: RefreshValue;
  view: ExplorerView;
  traceId: string | null;
  kind: MetricKind;
  step: StepValue;
  /** `utc`, `browser`, or an IANA zone: how times show (the panes share it). */
  timeZone: string;
}

export const DEFAULT_RANGE = 'now-1h';
export const EXPLORER_PARAMS = ['language', 'query', 'from', 'to', 'refresh', 'view', 'traceId', 'type', 'step', 'tz'] as const;
/** What each pane of a split view has of its own; the rest (range, refresh) the panes share. */
const PANE_PARAMS: readonly string[] = ['language', 'query', 'view', 'traceId', 'type', 'step'];
const RIGHT = 'right.';

export type PaneSide = 'left' | 'right';

/** A parameter's name in the address for a pane: the left pane's are the plain names, so older links still open. */
const paramOf = (side: PaneSide, name: string) => (side === 'right' && PANE_PARAMS.includes(name) ? RIGHT + name : name);

export function hasRightPane(params: URLSearchParams): boolean {
  return params.has(`${RIGHT}language`);
}

/** The address without the right pane (the left one and everything else as they were). */
export function closeRightPane(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of PANE_PARAMS) next.delete(RIGHT + name);
  return next;
}

export const DEFAULT_EXPLORER_STATE: ExplorerUrlState = {
  language: 'promql',
  query: '',
  range: { kind: 'relative', value: DEFAULT_RANGE },
  refresh: 'off',
  view: 'chart',
  traceId: null,
  kind: 'range',
  step: 'auto',
  timeZone: 'utc',
};

/** `browser`, or an IANA zone this browser knows; else UTC. */
function zoneOf(value: string | null): string {
  if (value === 'browser') return value;
  if (!value || !/^[A-Za-z][\w+\-/]{0,63}$/.test(value)) return 'utc';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value;
  } catch {
    return 'utc';
  }
}

const TRACE_ID = /^[0-9a-f]{1,32}$/i;

/** The explorer's state from the address; a value that is not one of the choices reads as its default. */
export function readExplorerUrl(params: URLSearchParams, side: PaneSide = 'left'): ExplorerUrlState {
  const pane = (name: string) => params.get(paramOf(side, name));
  const language = LANGUAGES.find((l) => l.param === pane('language'))?.value ?? DEFAULT_EXPLORER_STATE.language;
  const from = params.get('from');
  const to = params.get('to');
  let range: ExplorerRangeSetting = DEFAULT_EXPLORER_STATE.range;
  if (from && RELATIVE_RANGES.some((r) => r.value === from) && (to === null || to === 'now')) range = { kind: 'relative', value: from };
  else if (from && to && EPOCH_MS.test(from) && EPOCH_MS.test(to)) {
    if (Number(from) < Number(to)) range = { kind: 'absolute', from: Number(from), to: Number(to) };
  } else if (rangeEnd(from) && rangeEnd(to ?? 'now')) range = { kind: 'expression', from, to: to ?? 'now' };
  const refresh = REFRESH_OPTIONS.find((r) => r.value === params.get('refresh'))?.value ?? 'off';
  const view = pane('view') === 'table' ? 'table' : 'chart';
  const traceId = pane('traceId');
  const kind = pane('type') === 'instant' ? 'instant' : 'range';
  const step = STEPS.find((s) => s.value === pane('step'))?.value ?? 'auto';
  return { language, query: pane('query') ?? '', range, refresh, view, traceId: traceId && TRACE_ID.test(traceId) ? traceId.toLowerCase() : null, kind, step, timeZone: zoneOf(params.get('tz')) };
}

/**
 * Writes a pane's parameters and the shared ones (defaults left out) and leaves every other parameter, the other
 * pane's included, as it was. The right pane's language is always written: it is what says the pane is open.
 */
export function writeExplorerUrl(params: URLSearchParams, state: ExplorerUrlState, side: PaneSide = 'left'): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of EXPLORER_PARAMS) next.delete(paramOf(side, name));
  const put = (name: string, value: string | null, fallback: string | null) => {
    if (value !== null && value !== '' && value !== fallback) next.set(paramOf(side, name), value);
  };
  put('language', LANGUAGES.find((l) => l.value === state.language)!.param, side === 'right' ? null : 'metrics');
  put('query', state.query, '');
  if (state.range.kind === 'relative') put('from', state.range.value, DEFAULT_RANGE);
  else if (state.range.kind === 'expression') {
    next.set('from', state.range.from);
    next.set('to', state.range.to);
  } else {
    next.set('from', String(state.range.from));
    next.set('to', String(state.range.to));
  }
  put('refresh', state.refresh, 'off');
  put('view', state.view, 'chart');
  put('traceId', state.traceId, null);
  put('type', state.kind, 'range');
  put('step', state.step, 'auto');
  put('tz', state.timeZone, 'utc');
  return next;
}

/** The range in epoch milliseconds at `now`: relative ranges end now. */
export function resolveRange(range: ExplorerRangeSetting, now: number): { from: number; to: number } {
  if (range.kind === 'absolute') return { from: range.from, to: range.to };
  if (range.kind === 'expression') {
    const end = (text: string, up: boolean) => (EPOCH_MS.test(text) ? Number(text) : (evaluateTimeExpression(text, now, up) ?? now));
    return { from: end(range.from, false), to: end(range.to, true) };
  }
  const ms = RELATIVE_RANGES.find((r) => r.value === range.value)?.ms ?? 3_600_000;
  return { from: now - ms, to: now };
}

export const TIME_FORMAT_MESSAGE = 'Enter a time as YYYY-MM-DD HH:mm:ss (UTC), or relative to now such as now-3h or now-1d/d.';
export const RANGE_ORDER_MESSAGE = 'The end must be after the start.';

/** An absolute time as the fields show it: `2026-11-26 10:00:00` in UTC. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** `YYYY-MM-DD HH:mm` or `YYYY-MM-DD HH:mm:ss` (UTC, a T also accepted) to epoch milliseconds; null if not a real time. */
export function parseTime(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?Z?$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  // Date.UTC rolls 2026-02-31 over into March: such a date is not one.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return ms;
}

/**
 * The range's fields checked at `now`: each an absolute time or a time relative to now; each message at its field,
 * or the range (absolute when both times are, else kept as typed and evaluated at each run).
 */
export function checkAbsoluteRange(fromText: string, toText: string, now: number = Date.now()): { from?: string; to?: string; range?: ExplorerRangeSetting } {
  const side = (text: string, end: boolean) => {
    const typed = text.trim();
    if (isTimeExpression(typed)) return { stored: typed, ms: evaluateTimeExpression(typed, now, end)! };
    const ms = parseTime(typed);
    return ms === null ? null : { stored: String(ms), ms };
  };
  const from = side(fromText, false);
  const to = side(toText, true);
  const problems: { from?: string; to?: string } = {};
  if (from === null) problems.from = TIME_FORMAT_MESSAGE;
  if (to === null) problems.to = TIME_FORMAT_MESSAGE;
  if (from !== null && to !== null && to.ms <= from.ms) problems.to = RANGE_ORDER_MESSAGE;
  if (problems.from || problems.to) return problems;
  if (EPOCH_MS.test(from!.stored) && EPOCH_MS.test(to!.stored)) return { range: { kind: 'absolute', from: from!.ms, to: to!.ms } };
  return { range: { kind: 'expression', from: from!.stored, to: to!.stored } };
}

/** What the range picker's button says. */
export function rangeLabel(range: ExplorerRangeSetting): string {
  if (range.kind === 'relative') return RELATIVE_RANGES.find((r) => r.value === range.value)?.label ?? range.value;
  if (range.kind === 'expression') return `${range.from} to ${range.to}`;
  return `${formatTime(range.from)} to ${formatTime(range.to)} UTC`;
}
