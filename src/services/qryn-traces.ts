// The explorer's trace reads against a qryn instance (docs/qryn.md "Logs and traces in the explorer"): TraceQL
// search (Tempo's /api/search) and one trace (/api/traces/{id}, OTLP JSON), and the pure layout of a trace as a
// waterfall: spans nested by parent, ordered by start, placed on the trace's shared time axis, coloured by service.
import { instanceRead, type LogsRange } from './qryn-logs';

export interface TraceSearchRequest {
  instanceUrl: string;
  auth: string;
  query: string;
  range: LogsRange;
  limit?: number;
}

export interface TraceHit {
  traceId: string;
  service: string;
  name: string;
  /** Epoch milliseconds. */
  startMs: number;
  durationMs: number;
  /** Spans the query matched in this trace. */
  matched: number;
}

export const DEFAULT_TRACE_LIMIT = 50;

/** The search's status line: a full page says it stopped at the limit rather than that this is all there is. */
export function tracesFoundText(count: number, limit = DEFAULT_TRACE_LIMIT): string {
  if (count === 0) return 'No traces matched in this time range.';
  if (count >= limit) return `The first ${count} traces found (the limit of ${limit}; narrow the query or the range for others).`;
  return `${count} ${count === 1 ? 'trace' : 'traces'} found.`;
}

interface SearchAnswer {
  traces?: { traceID: string; rootServiceName?: string; rootTraceName?: string; startTimeUnixNano?: string; durationMs?: number; spanSet?: { matched?: number }; spanSets?: { matched?: number }[] }[];
}

const msOfNs = (ns: string | undefined) => (ns ? Number(BigInt(ns) / 1_000_000n) + Number(BigInt(ns) % 1_000_000n) / 1e6 : 0);

/** TraceQL search over the range (unix seconds, as Tempo takes them), newest first as the instance answers. */
export async function searchTraces(request: TraceSearchRequest, signal?: AbortSignal, fetcher: typeof fetch = fetch): Promise<TraceHit[]> {
  const params = {
    q: request.query.trim() || '{}',
    start: String(Math.floor(request.range.from / 1000)),
    end: String(Math.ceil(request.range.to / 1000)),
    limit: String(request.limit ?? DEFAULT_TRACE_LIMIT),
  };
  const answer = await instanceRead<SearchAnswer>(request.instanceUrl, request.auth, '/api/search', params, signal, fetcher);
  return (answer.traces ?? []).map((t) => ({
    traceId: t.traceID,
    service: t.rootServiceName ?? '',
    name: t.rootTraceName ?? '',
    startMs: msOfNs(t.startTimeUnixNano),
    durationMs: t.durationMs ?? 0,
    matched: (t.spanSets ?? (t.spanSet ? [t.spanSet] : [])).reduce((n, s) => n + (s.matched ?? 0), 0),
  }));
}

export type TraceSortKey = 'service' | 'name' | 'duration' | 'start';

/** The hits sorted by a column (stable: ties keep the instance's order). */
export function sortHits(hits: TraceHit[], key: TraceSortKey, descending: boolean): TraceHit[] {
  const value = (h: TraceHit): string | number => (key === 'service' ? h.service : key === 'name' ? h.name : key === 'duration' ? h.durationMs : h.startMs);
  const sign = descending ? -1 : 1;
  return hits
    .map((h, i) => ({ h, i }))
    .sort((a, b) => {
      const x = value(a.h);
      const y = value(b.h);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return c !== 0 ? c * sign : a.i - b.i;
    })
    .map((e) => e.h);
}

// ---------------------------------------------------------------------------------------------------------------
// One trace

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpKeyValue {
  key: string;
  value?: OtlpValue;
}
interface OtlpSpan {
  traceId?: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: string | number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: OtlpKeyValue[];
  events?: { timeUnixNano?: string; name?: string; attributes?: OtlpKeyValue[] }[];
  status?: { code?: number | string; message?: string };
}
export interface OtlpTrace {
  batches?: { resource?: { attributes?: OtlpKeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[]; instrumentationLibrarySpans?: { spans?: OtlpSpan[] }[] }[];
}

export interface SpanEvent {
  name: string;
  /** Milliseconds after its span's start. */
  offsetMs: number;
  attributes: [string, string][];
}

export interface TraceSpan {
  spanId: string;
  parentSpanId: string | null;
  name: string;
  service: string;
  kind: string;
  /** Epoch milliseconds (fractional). */
  startMs: number;
  durationMs: number;
  /** 'error' when the span's status is an error. */
  status: 'ok' | 'error' | 'unset';
  attributes: [string, string][];
  resource: [string, string][];
  events: SpanEvent[];
}

const textOf = (v: OtlpValue | undefined): string => {
  if (!v) return '';
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return String(v.intValue);
  if (v.doubleValue !== undefined) return String(v.doubleValue);
  if (v.boolValue !== undefined) return String(v.boolValue);
  if (v.arrayValue) return `[${(v.arrayValue.values ?? []).map(textOf).join(', ')}]`;
  return '';
};
const pairs = (kvs: OtlpKeyValue[] | undefined): [string, string][] => (kvs ?? []).map((kv) => [kv.key, textOf(kv.value)]);

const statusOf = (code: number | string | undefined): TraceSpan['status'] => (code === 2 || code === 'STATUS_CODE_ERROR' ? 'error' : code === 1 || code === 'STATUS_CODE_OK' ? 'ok' : 'unset');
const kindOf = (kind: string | number | undefined) =>
  typeof kind === 'number' ? (['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'][kind] ?? 'unspecified') : (kind ?? 'SPAN_KIND_UNSPECIFIED').replace(/^SPAN_KIND_/, '').toLowerCase();

/** A trace's spans from Tempo's JSON (OTLP batches grouped by resource). */
export function spansOf(trace: OtlpTrace): TraceSpan[] {
  const spans: TraceSpan[] = [];
  for (const batch of trace.batches ?? []) {
    const resource = pairs(batch.resource?.attributes);
    const service = resource.find(([k]) => k === 'service.name')?.[1] ?? 'unknown';
    for (const scope of [...(batch.scopeSpans ?? []), ...(batch.instrumentationLibrarySpans ?? [])]) {
      for (const s of scope.spans ?? []) {
        const startMs = msOfNs(s.startTimeUnixNano);
        spans.push({
          spanId: s.spanId,
          parentSpanId: s.parentSpanId || null,
          name: s.name,
          service,
          kind: kindOf(s.kind),
          startMs,
          durationMs: Math.max(0, msOfNs(s.endTimeUnixNano) - startMs),
          status: statusOf(s.status?.code),
          attributes: pairs(s.attributes),
          resource,
          events: (s.events ?? []).map((e) => ({ name: e.name ?? '', offsetMs: msOfNs(e.timeUnixNano) - startMs, attributes: pairs(e.attributes) })),
        });
      }
    }
  }
  return spans;
}

export interface WaterfallRow {
  span: TraceSpan;
  /** Nesting depth: 0 for a root (or a span whose parent is not in the trace). */
  depth: number;
  /** Left edge and width as fractions of the trace's duration (0..1). */
  offset: number;
  width: number;
  /** Ids of the spans under this one (direct children). */
  children: string[];
  /** Index of the service in `services` (its colour). */
  serviceIndex: number;
}

export interface Waterfall {
  rows: WaterfallRow[];
  startMs: number;
  durationMs: number;
  services: string[];
}

/**
 * The waterfall: depth-first from the roots (spans without a parent in the trace), children by start time, each
 * span's bar placed on the trace's time axis (from the earliest start to the latest end).
 */
export function layoutWaterfall(spans: TraceSpan[]): Waterfall {
  if (spans.length === 0) return { rows: [], startMs: 0, durationMs: 0, services: [] };
  const ids = new Set(spans.map((s) => s.spanId));
  const byParent = new Map<string | null, TraceSpan[]>();
  for (const s of spans) {
    const parent = s.parentSpanId && ids.has(s.parentSpanId) && s.parentSpanId !== s.spanId ? s.parentSpanId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), s]);
  }
  const byStart = (a: TraceSpan, b: TraceSpan) => a.startMs - b.startMs || a.name.localeCompare(b.name);
  const startMs = Math.min(...spans.map((s) => s.startMs));
  const endMs = Math.max(...spans.map((s) => s.startMs + s.durationMs));
  const durationMs = endMs - startMs;
  const services = [...new Set([...spans].sort(byStart).map((s) => s.service))];
  const rows: WaterfallRow[] = [];
  const seen = new Set<string>();
  const visit = (span: TraceSpan, depth: number) => {
    // A cycle in parent ids (bad data) must not loop.
    if (seen.has(span.spanId)) return;
    seen.add(span.spanId);
    const children = [...(byParent.get(span.spanId) ?? [])].sort(byStart);
    rows.push({
      span,
      depth,
      offset: durationMs > 0 ? (span.startMs - startMs) / durationMs : 0,
      width: durationMs > 0 ? span.durationMs / durationMs : 1,
      children: children.map((c) => c.spanId),
      serviceIndex: services.indexOf(span.service),
    });
    for (const child of children) visit(child, depth + 1);
  };
  for (const root of [...(byParent.get(null) ?? [])].sort(byStart)) visit(root, 0);
  // Spans only reachable through a cycle: shown as roots rather than lost.
  for (const s of [...spans].sort(byStart)) if (!seen.has(s.spanId)) visit(s, 0);
  return { rows, startMs, durationMs, services };
}

export interface TraceRequest {
  instanceUrl: string;
  auth: string;
  traceId: string;
}

export const TRACE_ID_PROBLEM = 'A trace id is 1 to 32 hexadecimal characters.';

/** One trace's spans; a 404 is the instance's "Trace not found." */
export async function readTrace(request: TraceRequest, signal?: AbortSignal, fetcher: typeof fetch = fetch): Promise<TraceSpan[]> {
  const trace = await instanceRead<OtlpTrace>(request.instanceUrl, request.auth, `/api/traces/${encodeURIComponent(request.traceId.trim().toLowerCase())}`, {}, signal, fetcher);
  return spansOf(trace);
}

/** Durations as people read them: 850µs, 12.3ms, 1.25s, 2m 5s. */
export function formatDuration(ms: number): string {
  if (ms < 1) return `${Math.round(ms * 1000)}µs`;
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
  return `${Math.floor(ms / 60_000)}m ${Math.round((ms % 60_000) / 1000)}s`;
}
