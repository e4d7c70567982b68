import { createHash } from 'node:crypto';

// Every protocol decodes its body into one Batch. A decoder validates the whole body before anything is written:
// a bad line, label or timestamp anywhere throws IngestError (4xx) and nothing of the request is stored.

export class IngestError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export type SeriesType = 'logs' | 'metrics';

export interface Series {
  type: SeriesType;
  fingerprint: string;
  labels: Record<string, string>;
}

export interface SpanRecord {
  traceId: string;
  spanId: string;
  parentId: string;
  name: string;
  serviceName: string;
  kind: string;
  timestampNs: bigint;
  durationNs: bigint;
  statusCode: number;
  /** The span's own attributes. */
  attributes: [string, string][];
  /** The attributes of the resource that sent the span (OTLP's resource; Zipkin's local endpoint service name). */
  resourceAttributes?: [string, string][];
  /**
   * The OTLP type of each attribute, by position ('s' string, 'i' int, 'd' double, 'b' bool, 'k' list; 'a' array,
   * followed by its elements' letters).
   */
  attributeTypes?: string[];
  resourceTypes?: string[];
  /** OTLP's instrumentation scope of the span (scopeSpans[].scope): name and version. */
  scopeName?: string;
  scopeVersion?: string;
  /** The scope's attributes (InstrumentationScope.attributes) and their OTLP types, by position. */
  scopeAttributes?: [string, string][];
  scopeTypes?: string[];
  source: 'zipkin' | 'otlp';
  payload: string;
}

export class Batch {
  readonly series = new Map<string, Series>();
  readonly logs: { fingerprint: string; timestampNs: bigint; line: string }[] = [];
  /** `stale`: a Prometheus stale marker (its NaN bits are written as received, see STALE_NAN_BITS). */
  readonly metrics: { fingerprint: string; timestampNs: bigint; value: number; stale?: boolean }[] = [];
  readonly spans: SpanRecord[] = [];
  /** Metric metadata as remote write sends it (type, help, unit per metric family). */
  readonly metadata: MetricMetadata[] = [];

  /** Registers a series (labels validated and sorted) and returns its fingerprint. */
  addSeries(type: SeriesType, labels: Record<string, string>): string {
    const entries = Object.entries(labels);
    if (entries.length === 0) throw new IngestError('A stream or series needs at least one label.');
    for (const [name, value] of entries) {
      if (!LABEL_NAME.test(name)) throw new IngestError(`Invalid label name "${name.slice(0, 100)}": use letters, digits and underscores, not starting with a digit.`);
      if (typeof value !== 'string') throw new IngestError(`The value of label "${name}" must be a string.`);
      if (value.length > 4096) throw new IngestError(`The value of label "${name}" is longer than 4096 characters.`);
    }
    if (entries.length > 64) throw new IngestError('A stream or series may have at most 64 labels.');
    const sorted = Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const canonical = JSON.stringify(sorted);
    const fingerprint = fingerprintOf(type, canonical);
    if (!this.series.has(fingerprint)) this.series.set(fingerprint, { type, fingerprint, labels: sorted });
    return fingerprint;
  }

  addLog(fingerprint: string, timestampNs: bigint, line: string): void {
    checkTimestamp(timestampNs);
    if (typeof line !== 'string') throw new IngestError('A log line must be a string.');
    this.logs.push({ fingerprint, timestampNs, line });
  }

  addMetric(fingerprint: string, timestampNs: bigint, value: number, stale = false): void {
    checkTimestamp(timestampNs);
    if (typeof value !== 'number') throw new IngestError('A sample value must be a number.');
    this.metrics.push(stale ? { fingerprint, timestampNs, value, stale } : { fingerprint, timestampNs, value });
  }

  addSpan(span: SpanRecord): void {
    checkTimestamp(span.timestampNs);
    if (!/^[0-9a-f]{16,32}$/.test(span.traceId)) throw new IngestError('A trace id must be 16 or 32 hexadecimal characters.');
    if (!/^[0-9a-f]{16}$/.test(span.spanId)) throw new IngestError('A span id must be 16 hexadecimal characters.');
    if (span.parentId && !/^[0-9a-f]{16}$/.test(span.parentId)) throw new IngestError('A parent span id must be 16 hexadecimal characters.');
    if (span.durationNs < 0n) throw new IngestError('A span duration cannot be negative.');
    this.spans.push(span);
  }

  get size(): number {
    return this.logs.length + this.metrics.length + this.spans.length + this.metadata.length;
  }
}

export interface MetricMetadata {
  metric: string;
  /** counter, gauge, histogram, gaugehistogram, summary, info, stateset or unknown (as Prometheus' API names them). */
  type: string;
  help: string;
  unit: string;
}

/** Prometheus' stale marker: a NaN whose bits are 0x7ff0000000000002 (high word, low word). */
export const STALE_NAN_BITS = { high: 0x7ff00000, low: 0x00000002 } as const;

export const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** 64-bit fingerprint of a series: the first 8 bytes of SHA-256 over type and sorted labels, as a decimal string. */
export function fingerprintOf(type: SeriesType, canonicalLabels: string): string {
  return createHash('sha256').update(type).update('\0').update(canonicalLabels).digest().readBigUInt64BE(0).toString();
}

// Timestamps are kept in nanoseconds; the Date partitions of ClickHouse 18.16 end in 2105.
const MIN_NS = 0n;
const MAX_NS = 4_102_444_800_000_000_000n; // 2100-01-01

export function checkTimestamp(ns: bigint): void {
  if (ns <= MIN_NS || ns >= MAX_NS) throw new IngestError('A timestamp is out of range (it must fall between 1970 and 2100).');
}

/** Decimal text of nanoseconds (Loki's form), strictly digits. */
export function parseNanos(text: unknown): bigint {
  if (typeof text === 'number' && Number.isSafeInteger(text)) return BigInt(text);
  if (typeof text !== 'string' || !/^\d{1,19}$/.test(text)) throw new IngestError('A timestamp must be a string of nanoseconds since the epoch.');
  return BigInt(text);
}

/** RFC 3339 with up to nanosecond precision. */
export function parseRfc3339(text: unknown): bigint {
  if (typeof text !== 'string') throw new IngestError('A timestamp must be an RFC 3339 string.');
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!match) throw new IngestError(`Invalid RFC 3339 timestamp "${text.slice(0, 40)}".`);
  const ms = Date.parse(`${match[1]}${match[3]}`);
  if (Number.isNaN(ms)) throw new IngestError(`Invalid RFC 3339 timestamp "${text.slice(0, 40)}".`);
  const fraction = BigInt((match[2] ?? '').padEnd(9, '0'));
  return BigInt(ms) * 1_000_000n + fraction;
}

/** Day of a nanosecond timestamp as YYYY-MM-DD (UTC), the partition of the row. */
export function dayOf(ns: bigint): string {
  // Called for every line and sample: the last day's text is kept (the rows of a push mostly share a day).
  const day = Number(ns / 86_400_000_000_000n);
  if (day !== lastDay) {
    lastDay = day;
    lastDayText = new Date(day * 86_400_000).toISOString().slice(0, 10);
  }
  return lastDayText;
}
let lastDay = Number.NaN;
let lastDayText = '';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
