import { identifier, literal, type StorageClient } from './storage-client';
import { upgradeInstanceSchema } from './schema';
import { referencedAttributes, spansetFilters, type AttributeRef, type SpansetExpr } from '../../../packages/traceql/parse';
import { filterSql, spansetSql, type SpanTable } from '../../../packages/traceql/clickhouse';
import { dateClause } from './label-index';
import { anyValueText } from './ingest/traces';

// The read side of traces (Tempo's API): a trace by id as OTLP resource spans, TraceQL search over the spans table
// (packages/traceql), and the tag names and values Grafana's query builder offers.

export interface TimeRange {
  startNs: bigint;
  endNs: bigint;
}

/** A stored span as read back. */
export interface StoredSpan {
  traceId: string;
  spanId: string;
  parentId: string;
  name: string;
  kind: string;
  startNs: bigint;
  durationNs: bigint;
  statusCode: number;
  attributes: [string, string][];
  events: SpanEvent[];
}

/** A span event (OTLP's Span.Event; a Zipkin annotation becomes one named by its value, without attributes). */
export interface SpanEvent {
  timeNs: bigint;
  name: string;
  attributes: [string, string][];
}

/** One resource of a trace (a service and its resource attributes) and its spans. */
export interface TraceResource {
  attributes: [string, string][];
  spans: StoredSpan[];
}

export interface SearchOptions {
  query: SpansetExpr;
  range: TimeRange;
  limit: number;
  spansPerSpanSet: number;
  minDurationNs?: bigint;
  maxDurationNs?: bigint;
}

export interface SearchHit {
  traceId: string;
  rootServiceName: string;
  rootTraceName: string;
  startNs: bigint;
  durationNs: bigint;
  matched: number;
  spans: { spanId: string; name: string; startNs: bigint; durationNs: bigint; attributes: [string, string][] }[];
  serviceStats: Record<string, { spanCount: number; errorCount: number }>;
}

export type TagScope = 'span' | 'resource' | 'intrinsic';
/** The intrinsics TraceQL search understands here (packages/traceql). */
export const INTRINSIC_TAGS = ['duration', 'kind', 'name', 'rootName', 'rootServiceName', 'status', 'traceDuration'];

const MAX_SPANS_PER_TRACE = 10_000;
const MAX_TAGS = 1_000;
const NO_ROOT = '<root span not yet received>';
const STATUS_NAMES = ['unset', 'ok', 'error'];

const pairs = (keys: string[], values: string[]): [string, string][] => keys.map((k, i) => [k, values[i] ?? '']);

interface SpanRow {
  trace_id: string;
  span_id: string;
  parent_id: string;
  name: string;
  service_name: string;
  kind: string;
  ts: string;
  dur: string;
  status_code: number;
  attribute_keys: string[];
  attribute_values: string[];
  resource_keys: string[];
  resource_values: string[];
}

const SPAN_COLUMNS = `trace_id, span_id, parent_id, name, service_name, kind, toString(timestamp_ns) AS ts, toString(duration_ns) AS dur, status_code,
  attribute_keys, attribute_values, resource_keys, resource_values`;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The events of a stored span, read from the span as received (payload): OTLP's `events` (JSON, or protobuf kept as
 * JSON with 64-bit times as decimal text) and Zipkin's `annotations` (µs). Ingestion checked their form; a payload
 * that does not parse (none is written so) answers no events rather than failing the trace.
 */
export function eventsOfPayload(source: string, payload: string): SpanEvent[] {
  let span: unknown;
  try {
    span = JSON.parse(payload);
  } catch {
    return [];
  }
  if (!isObject(span)) return [];
  const events: SpanEvent[] = [];
  if (source === 'zipkin') {
    for (const a of Array.isArray(span.annotations) ? span.annotations : []) {
      if (isObject(a) && typeof a.timestamp === 'number' && Number.isSafeInteger(a.timestamp) && typeof a.value === 'string') {
        events.push({ timeNs: BigInt(a.timestamp) * 1_000n, name: a.value, attributes: [] });
      }
    }
  } else {
    for (const e of Array.isArray(span.events) ? span.events : []) {
      if (!isObject(e)) continue;
      const time = typeof e.timeUnixNano === 'number' ? String(Math.trunc(e.timeUnixNano)) : e.timeUnixNano;
      if (typeof time !== 'string' || !/^\d{1,20}$/.test(time)) continue;
      const attributes: [string, string][] = (Array.isArray(e.attributes) ? e.attributes : [])
        .filter((a): a is Record<string, unknown> => isObject(a) && typeof a.key === 'string')
        .map((a) => [a.key as string, anyValueText(a.value)]);
      events.push({ timeNs: BigInt(time), name: typeof e.name === 'string' ? e.name : '', attributes });
    }
  }
  // Tempo answers a span's events in time order; Zipkin does not require its annotations sorted.
  return events.sort((a, b) => (a.timeNs < b.timeNs ? -1 : a.timeNs > b.timeNs ? 1 : 0));
}

/** The resource attributes of a row (rows written before the resource columns have only the service name). */
function resourceOf(row: SpanRow): [string, string][] {
  const attributes = pairs(row.resource_keys, row.resource_values);
  if (!attributes.some(([k]) => k === 'service.name')) attributes.unshift(['service.name', row.service_name]);
  return attributes;
}

/** The value of a referenced attribute on a span, as Tempo lists it with the span in a search answer. */
function attributeValue(row: SpanRow, ref: AttributeRef): [string, string] | undefined {
  const find = (keys: string[], values: string[], name: string) => {
    const i = keys.indexOf(name);
    return i >= 0 ? values[i] : undefined;
  };
  if (ref.scope === 'intrinsic') {
    if (ref.name === 'status') return ['status', STATUS_NAMES[row.status_code] ?? 'unset'];
    if (ref.name === 'kind') return ['kind', (row.kind || 'unspecified').toLowerCase()];
    return undefined;
  }
  const fromSpan = ref.scope !== 'resource' ? find(row.attribute_keys, row.attribute_values, ref.name) : undefined;
  if (fromSpan !== undefined) return [ref.name, fromSpan];
  if (ref.scope === 'span') return undefined;
  const fromResource = find(row.resource_keys, row.resource_values, ref.name) ?? (ref.name === 'service.name' && row.service_name ? row.service_name : undefined);
  return fromResource === undefined ? undefined : [ref.name, fromResource];
}

export function createTraceReader(client: StorageClient, database: string) {
  const db = identifier(database);
  const spans = `${db}.spans`;
  const ready = () => upgradeInstanceSchema(client, database);
  const table = (range: TimeRange): SpanTable => ({ table: spans, bound: dateClause(range) });

  return {
    /** A trace by id, grouped by resource (what Tempo's GET /api/traces/{id} answers); [] when unknown. */
    async trace(traceId: string): Promise<TraceResource[]> {
      await ready();
      const id = traceId.toLowerCase().padStart(32, '0');
      // The stored span (payload) only here, for its events: searches do not read it.
      const rows = await client.query<SpanRow & { source: string; payload: string }>(`SELECT ${SPAN_COLUMNS}, source, payload FROM ${spans} WHERE trace_id = ${literal(id)} ORDER BY timestamp_ns LIMIT ${MAX_SPANS_PER_TRACE}`);
      const resources = new Map<string, TraceResource>();
      for (const row of rows) {
        const attributes = resourceOf(row);
        const key = JSON.stringify(attributes);
        const resource = resources.get(key) ?? { attributes, spans: [] };
        resource.spans.push({
          traceId: id,
          spanId: row.span_id,
          parentId: row.parent_id,
          name: row.name,
          kind: row.kind || 'UNSPECIFIED',
          startNs: BigInt(row.ts),
          durationNs: BigInt(row.dur),
          statusCode: row.status_code,
          attributes: pairs(row.attribute_keys, row.attribute_values),
          events: eventsOfPayload(row.source, row.payload),
        });
        resources.set(key, resource);
      }
      return [...resources.values()];
    },

    /**
     * TraceQL search: the traces (newest first) in the range whose spans satisfy the query, each with its root,
     * start, duration, per-service counts and up to `spansPerSpanSet` of its matching spans.
     */
    async search(options: SearchOptions): Promise<SearchHit[]> {
      await ready();
      const { range } = options;
      const { filters, having } = spansetSql(options.query, table(range));
      const inRange = `${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs}`;
      const traceDuration = 'max(timestamp_ns + duration_ns) - min(timestamp_ns)';
      const durationBounds = [
        options.minDurationNs !== undefined ? ` AND ${traceDuration} >= ${options.minDurationNs}` : '',
        options.maxDurationNs !== undefined ? ` AND ${traceDuration} <= ${options.maxDurationNs}` : '',
      ].join('');
      const traces = await client.query<{ trace_id: string; start: string; duration: string; root_service: string; root_name: string; roots: string }>(
        `SELECT trace_id, toString(min(timestamp_ns)) AS start, toString(${traceDuration}) AS duration,
           anyIf(service_name, parent_id = '') AS root_service, anyIf(name, parent_id = '') AS root_name, toString(countIf(parent_id = '')) AS roots
         FROM ${spans} WHERE ${inRange}
         GROUP BY trace_id HAVING ${having}${durationBounds}
         ORDER BY min(timestamp_ns) DESC, trace_id LIMIT ${options.limit}`,
      );
      if (traces.length === 0) return [];
      const ids = traces.map((t) => literal(t.trace_id)).join(', ');
      const matching = await client.query<SpanRow>(
        `SELECT ${SPAN_COLUMNS} FROM ${spans} WHERE ${inRange} AND trace_id IN (${ids}) AND (${filters.join(' OR ')})
         ORDER BY timestamp_ns, span_id LIMIT ${MAX_SPANS_PER_TRACE * 10}`,
      );
      const stats = await client.query<{ trace_id: string; service_name: string; spans: string; errors: string }>(
        `SELECT trace_id, service_name, toString(count()) AS spans, toString(countIf(status_code = 2)) AS errors
         FROM ${spans} WHERE ${inRange} AND trace_id IN (${ids}) GROUP BY trace_id, service_name`,
      );
      const references = spansetFilters(options.query).flatMap(referencedAttributes);
      const unique = [...new Map(references.map((r) => [`${r.scope}:${r.name}`, r])).values()];
      const byTrace = new Map<string, SearchHit>();
      for (const t of traces) {
        byTrace.set(t.trace_id, {
          traceId: t.trace_id,
          rootServiceName: Number(t.roots) > 0 ? t.root_service : NO_ROOT,
          rootTraceName: Number(t.roots) > 0 ? t.root_name : '',
          startNs: BigInt(t.start),
          durationNs: BigInt(t.duration),
          matched: 0,
          spans: [],
          serviceStats: {},
        });
      }
      for (const row of matching) {
        const hit = byTrace.get(row.trace_id)!;
        hit.matched++;
        if (hit.spans.length >= options.spansPerSpanSet) continue;
        hit.spans.push({
          spanId: row.span_id,
          name: row.name,
          startNs: BigInt(row.ts),
          durationNs: BigInt(row.dur),
          attributes: unique.map((ref) => attributeValue(row, ref)).filter((a): a is [string, string] => a !== undefined),
        });
      }
      for (const s of stats) byTrace.get(s.trace_id)!.serviceStats[s.service_name] = { spanCount: Number(s.spans), errorCount: Number(s.errors) };
      return traces.map((t) => byTrace.get(t.trace_id)!);
    },

    /** Attribute names seen in the range, per scope. */
    async tagNames(range: TimeRange, scope: TagScope): Promise<string[]> {
      if (scope === 'intrinsic') return INTRINSIC_TAGS;
      await ready();
      const keys = scope === 'span' ? 'attribute_keys' : `arrayConcat(resource_keys, if(service_name != '', ['service.name'], emptyArrayString()))`;
      const rows = await client.query<{ tag: string }>(
        `SELECT DISTINCT arrayJoin(${keys}) AS tag FROM ${spans} WHERE ${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs} ORDER BY tag LIMIT ${MAX_TAGS}`,
      );
      return rows.map((r) => r.tag);
    },

    /**
     * The values of an attribute or intrinsic in the range, optionally among the spans a TraceQL query's filters
     * match (the query builder narrows its choices with the rest of the query).
     */
    async tagValues(ref: AttributeRef, range: TimeRange, within?: SpansetExpr): Promise<string[]> {
      await ready();
      const where = `${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs}${within ? ` AND (${spansetFilters(within).map((f) => filterSql(f, table(range))).join(' OR ')})` : ''}`;
      const spanValues = `arrayFilter((v, k) -> k = ${literal(ref.name)}, attribute_values, attribute_keys)`;
      const resourceValues = ref.name === 'service.name'
        ? `if(service_name != '', [service_name], emptyArrayString())`
        : `arrayFilter((v, k) -> k = ${literal(ref.name)}, resource_values, resource_keys)`;
      let expression: string;
      if (ref.scope === 'intrinsic') {
        if (ref.name === 'status') return STATUS_NAMES.slice().reverse();
        if (ref.name === 'kind') return ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
        if (ref.name === 'name') expression = 'name';
        else if (ref.name === 'rootName') return this.rootValues('name', where);
        else if (ref.name === 'rootServiceName') return this.rootValues('service_name', where);
        else return [];
      } else if (ref.scope === 'span') expression = `arrayJoin(${spanValues})`;
      else if (ref.scope === 'resource') expression = `arrayJoin(${resourceValues})`;
      else expression = `arrayJoin(arrayConcat(${spanValues}, ${resourceValues}))`;
      const rows = await client.query<{ value: string }>(`SELECT DISTINCT ${expression} AS value FROM ${spans} WHERE ${where} ORDER BY value LIMIT ${MAX_TAGS}`);
      return rows.map((r) => r.value);
    },

    async rootValues(column: 'name' | 'service_name', where: string): Promise<string[]> {
      const rows = await client.query<{ value: string }>(`SELECT DISTINCT ${column} AS value FROM ${spans} WHERE ${where} AND parent_id = '' ORDER BY value LIMIT ${MAX_TAGS}`);
      return rows.map((r) => r.value);
    },
  };
}
