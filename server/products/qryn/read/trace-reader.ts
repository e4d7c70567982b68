import { identifier, literal, type StorageClient } from '../storage/storage-client';
import { upgradeInstanceSchema } from '../storage/schema';
import type { AttributeRef, Pipeline, SpansetExpr } from '../../../../packages/traceql/ast';
import { filterSql, type SpanTable } from '../../../../packages/traceql/clickhouse';
import { dateClause } from '../query/label-index';
import { anyValueText, anyValueType } from '../ingest/traces';

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
  /** The OTLP type of each attribute ('s', 'i', 'd', 'b', 'a', 'k'); empty for spans stored before types were. */
  attributeTypes: string[];
  events: SpanEvent[];
  /** OTLP's instrumentation scope of the span: '' and no attributes for Zipkin spans and rows stored before. */
  scope: { name: string; version: string; attributes: [string, string][]; types: string[] };
}

/** A span event (OTLP's Span.Event; a Zipkin annotation becomes one named by its value, without attributes). */
export interface SpanEvent {
  timeNs: bigint;
  name: string;
  attributes: [string, string][];
  attributeTypes: string[];
}

/** One resource of a trace (a service and its resource attributes) and its spans. */
export interface TraceResource {
  attributes: [string, string][];
  types: string[];
  spans: StoredSpan[];
}

export type TagScope = 'span' | 'resource' | 'intrinsic' | 'event' | 'link' | 'instrumentation';

/** A tag value with the type Tempo reports for it (string, int, float, bool, duration, keyword). */
export interface TagValue {
  type: string;
  value: string;
}

/** The spans' stored payloads a scan for event and link tags reads at most (newest first). */
const MAX_PAYLOAD_SCAN = 10_000;
const TYPE_NAMES: Record<string, string> = { s: 'string', i: 'int', d: 'float', b: 'bool', a: 'string', k: 'string' };

/** The type of a stored value: its stored type, or for rows stored before types were, read from its form. */
export function tagType(value: string, stored: string | undefined): string {
  if (stored && TYPE_NAMES[stored[0]]) return TYPE_NAMES[stored[0]];
  if (/^-?\d+$/.test(value)) return 'int';
  if (/^-?\d+\.\d+(?:[eE][-+]?\d+)?$/.test(value)) return 'float';
  if (value === 'true' || value === 'false') return 'bool';
  return 'string';
}

/** Go's time.Duration.String(), as Tempo writes durations (1.5s, 150ms, 1m30s, 1h0m0s). */
export function goDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  let n = ns < 0n ? -ns : ns;
  const frac = (value: bigint, unit: bigint) => {
    const whole = value / unit;
    const rest = (value % unit).toString().padStart(unit.toString().length - 1, '0').replace(/0+$/, '');
    return rest ? `${whole}.${rest}` : `${whole}`;
  };
  if (n < 1_000n) return `${sign}${n}ns`;
  if (n < 1_000_000n) return `${sign}${frac(n, 1_000n)}µs`;
  if (n < 1_000_000_000n) return `${sign}${frac(n, 1_000_000n)}ms`;
  let out = '';
  const h = n / 3_600_000_000_000n;
  n %= 3_600_000_000_000n;
  const m = n / 60_000_000_000n;
  n %= 60_000_000_000n;
  if (h > 0n) out += `${h}h`;
  if (h > 0n || m > 0n) out += `${m}m`;
  return `${sign}${out}${frac(n, 1_000_000_000n)}s`;
}
/** The intrinsics TraceQL search understands here (packages/traceql). */
export const INTRINSIC_TAGS = ['duration', 'event:name', 'event:timeSinceStart', 'kind', 'instrumentation:name', 'instrumentation:version', 'link:spanID', 'link:traceID', 'name', 'rootName', 'rootServiceName', 'span:childCount', 'span:id', 'span:parentID', 'status', 'statusMessage', 'trace:id', 'traceDuration'];

const MAX_SPANS_PER_TRACE = 10_000;
const MAX_TAGS = 1_000;
const STATUS_NAMES = ['unset', 'ok', 'error'];

const pairs = (keys: string[], values: string[]): [string, string][] => keys.map((k, i) => [k, values[i] ?? '']);

/** A span row as the reads select it (SPAN_COLUMNS). */
export interface SpanRow {
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
  attribute_types: string[];
  resource_types: string[];
  scope_name: string;
  scope_version: string;
  scope_keys: string[];
  scope_values: string[];
  scope_types: string[];
}

export const SPAN_COLUMNS = `trace_id, span_id, parent_id, name, service_name, kind, toString(timestamp_ns) AS ts, toString(duration_ns) AS dur, status_code,
  attribute_keys, attribute_values, resource_keys, resource_values, attribute_types, resource_types, scope_name, scope_version, scope_keys, scope_values, scope_types`;

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
        events.push({ timeNs: BigInt(a.timestamp) * 1_000n, name: a.value, attributes: [], attributeTypes: [] });
      }
    }
  } else {
    for (const e of Array.isArray(span.events) ? span.events : []) {
      if (!isObject(e)) continue;
      const time = typeof e.timeUnixNano === 'number' ? String(Math.trunc(e.timeUnixNano)) : e.timeUnixNano;
      if (typeof time !== 'string' || !/^\d{1,20}$/.test(time)) continue;
      const list = (Array.isArray(e.attributes) ? e.attributes : []).filter((a): a is Record<string, unknown> => isObject(a) && typeof a.key === 'string');
      const attributes = list.map((a): [string, string] => [a.key as string, anyValueText(a.value)]);
      events.push({ timeNs: BigInt(time), name: typeof e.name === 'string' ? e.name : '', attributes, attributeTypes: list.map((a) => anyValueType(a.value)) });
    }
  }
  // Tempo answers a span's events in time order; Zipkin does not require its annotations sorted.
  return events.sort((a, b) => (a.timeNs < b.timeNs ? -1 : a.timeNs > b.timeNs ? 1 : 0));
}

/** The resource attributes of a row (rows written before the resource columns have only the service name). */
function resourceOf(row: SpanRow): { attributes: [string, string][]; types: string[] } {
  const attributes = pairs(row.resource_keys, row.resource_values);
  const types = [...(row.resource_types ?? [])];
  if (!attributes.some(([k]) => k === 'service.name')) {
    attributes.unshift(['service.name', row.service_name]);
    if (types.length) types.unshift('s');
  }
  return { attributes, types };
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
        const { attributes, types } = resourceOf(row);
        const key = JSON.stringify([attributes, types]);
        const resource = resources.get(key) ?? { attributes, types, spans: [] };
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
          attributeTypes: row.attribute_types ?? [],
          events: eventsOfPayload(row.source, row.payload),
          scope: { name: row.scope_name, version: row.scope_version, attributes: pairs(row.scope_keys, row.scope_values), types: row.scope_types },
        });
        resources.set(key, resource);
      }
      return [...resources.values()];
    },

    /** Attribute names seen in the range, per scope. */
    async tagNames(range: TimeRange, scope: TagScope): Promise<string[]> {
      if (scope === 'intrinsic') return INTRINSIC_TAGS;
      await ready();
      if (scope === 'event' || scope === 'link') {
        const names = new Set<string>();
        for (const holder of await this.payloadHolders(range, scope)) for (const [key] of holder.attributes) names.add(key);
        return [...names].sort().slice(0, MAX_TAGS);
      }
      const keys = scope === 'span' ? 'attribute_keys' : scope === 'instrumentation' ? 'scope_keys' : `arrayConcat(resource_keys, if(service_name != '', ['service.name'], emptyArrayString()))`;
      const rows = await client.query<{ tag: string }>(
        `SELECT DISTINCT arrayJoin(${keys}) AS tag FROM ${spans} WHERE ${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs} ORDER BY tag LIMIT ${MAX_TAGS}`,
      );
      return rows.map((r) => r.tag);
    },

    /**
     * The values of an attribute or intrinsic in the range, optionally among the spans a TraceQL query's filters
     * match (the query builder narrows its choices with the rest of the query).
     */
    async tagValues(ref: AttributeRef, range: TimeRange, within?: Pipeline): Promise<TagValue[]> {
      await ready();
      const payloadScope = ref.scope === 'event' || (ref.scope === 'intrinsic' && ref.name === 'eventName') ? 'event' : ref.scope === 'link' || (ref.scope === 'intrinsic' && (ref.name === 'linkTraceId' || ref.name === 'linkSpanId')) ? 'link' : undefined;
      if (payloadScope) {
        const found = new Map<string, TagValue>();
        for (const holder of await this.payloadHolders(range, payloadScope)) {
          if (ref.scope === 'intrinsic') {
            const value = ref.name === 'eventName' ? holder.name : ref.name === 'linkTraceId' ? holder.traceId : holder.spanId;
            if (value !== undefined) found.set(`s${value}`, { type: 'string', value });
            continue;
          }
          holder.attributes.forEach(([key, value], i) => {
            if (key === ref.name) found.set(`${holder.types[i]}${value}`, { type: tagType(value, holder.types[i]), value });
          });
        }
        return [...found.values()].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)).slice(0, MAX_TAGS);
      }
      const narrowing = within ? withinSql(within, table(range)) : null;
      const where = `${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs}${narrowing ? ` AND ${narrowing}` : ''}`;
      // Each value with its stored type in front (`i\t42`); rows stored before types were have none.
      const withTypes = (keys: string, values: string, types: string) =>
        `arrayFilter((v, k) -> k = ${literal(ref.name)}, arrayMap((v, t) -> concat(t, '\t', v), ${values}, if(empty(${types}), arrayMap(x -> '', ${keys}), ${types})), ${keys})`;
      const spanValues = withTypes('attribute_keys', 'attribute_values', 'attribute_types');
      const resourceValues = ref.name === 'service.name'
        ? `if(service_name != '', [concat('s\t', service_name)], emptyArrayString())`
        : withTypes('resource_keys', 'resource_values', 'resource_types');
      let expression: string;
      if (ref.scope === 'intrinsic') {
        const keywords = (list: string[]) => list.map((value) => ({ type: 'keyword', value }));
        if (ref.name === 'status') return keywords(STATUS_NAMES.slice().reverse());
        if (ref.name === 'kind') return keywords(['unspecified', 'internal', 'server', 'client', 'producer', 'consumer']);
        if (ref.name === 'duration') {
          const rows = await client.query<{ d: string }>(`SELECT DISTINCT toString(duration_ns) AS d FROM ${spans} WHERE ${where} ORDER BY duration_ns LIMIT ${MAX_TAGS}`);
          return rows.map((r) => ({ type: 'duration', value: goDuration(BigInt(r.d)) }));
        }
        if (ref.name === 'name') expression = `concat('s\t', name)`;
        // Spans without a scope (Zipkin's, older rows) have '' there, which is no value to offer.
        else if (ref.name === 'instrumentationName') expression = `arrayJoin(if(scope_name = '', emptyArrayString(), [concat('s\t', scope_name)]))`;
        else if (ref.name === 'instrumentationVersion') expression = `arrayJoin(if(scope_version = '', emptyArrayString(), [concat('s\t', scope_version)]))`;
        else if (ref.name === 'rootName') return this.rootValues('name', where);
        else if (ref.name === 'rootServiceName') return this.rootValues('service_name', where);
        else return [];
      } else if (ref.scope === 'span') expression = `arrayJoin(${spanValues})`;
      else if (ref.scope === 'instrumentation') expression = `arrayJoin(${withTypes('scope_keys', 'scope_values', 'scope_types')})`;
      else if (ref.scope === 'resource') expression = `arrayJoin(${resourceValues})`;
      else expression = `arrayJoin(arrayConcat(${spanValues}, ${resourceValues}))`;
      const rows = await client.query<{ value: string }>(`SELECT DISTINCT ${expression} AS value FROM ${spans} WHERE ${where} ORDER BY value LIMIT ${MAX_TAGS}`);
      const seen = new Map<string, TagValue>();
      for (const { value: typed } of rows) {
        const tab = typed.indexOf('\t');
        const value = typed.slice(tab + 1);
        const entry = { type: tagType(value, typed.slice(0, tab) || undefined), value };
        seen.set(`${entry.type}\t${value}`, entry);
      }
      return [...seen.values()].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    },

    async rootValues(column: 'name' | 'service_name', where: string): Promise<TagValue[]> {
      const rows = await client.query<{ value: string }>(`SELECT DISTINCT ${column} AS value FROM ${spans} WHERE ${where} AND parent_id = '' ORDER BY value LIMIT ${MAX_TAGS}`);
      return rows.map((r) => ({ type: 'string', value: r.value }));
    },

    /**
     * The events or links of the newest spans in the range that have any (read from the stored spans, which keep
     * them), each with its attributes: what event and link tags are listed from.
     */
    async payloadHolders(range: TimeRange, scope: 'event' | 'link'): Promise<{ name?: string; traceId?: string; spanId?: string; attributes: [string, string][]; types: string[] }[]> {
      const marker = scope === 'event' ? `'"events"'` : `'"links"'`;
      const rows = await client.query<{ source: string; payload: string }>(
        `SELECT source, payload FROM ${spans} WHERE ${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs}
           AND position(payload, ${marker}) > 0 ORDER BY timestamp_ns DESC LIMIT ${MAX_PAYLOAD_SCAN}`,
      );
      if (scope === 'event') return rows.flatMap((r) => eventsOfPayload(r.source, r.payload).map((e) => ({ name: e.name, attributes: e.attributes, types: e.attributeTypes })));
      return rows.flatMap((r) => linksOfPayload(r.payload));
    },
  };
}

/** The spans a query's filters could match (any of them), for narrowing tag values; null when it cannot narrow. */
function withinSql(pipeline: Pipeline, table: SpanTable): string | null {
  const filters: string[] = [];
  let open = false;
  const walk = (e: SpansetExpr): void => {
    if (e.kind === 'filter') {
      const sql = filterSql(e.expr, table);
      if (sql === null) open = true;
      else filters.push(sql);
    } else if (e.kind === 'op') {
      walk(e.left);
      walk(e.right);
    } else e.pipeline.stages.forEach((s) => (s.kind === 'spanset' ? walk(s.expr) : undefined));
  };
  pipeline.stages.forEach((s) => (s.kind === 'spanset' ? walk(s.expr) : undefined));
  return open || filters.length === 0 ? null : `(${filters.join(' OR ')})`;
}

/** The links of a stored OTLP span: ids and attributes (with their types). */
export function linksOfPayload(payload: string): { traceId: string; spanId: string; attributes: [string, string][]; types: string[] }[] {
  let span: unknown;
  try {
    span = JSON.parse(payload);
  } catch {
    return [];
  }
  if (!isObject(span) || !Array.isArray(span.links)) return [];
  return span.links.filter(isObject).map((l) => {
    const list = (Array.isArray(l.attributes) ? l.attributes : []).filter((a): a is Record<string, unknown> => isObject(a) && typeof a.key === 'string');
    return {
      traceId: typeof l.traceId === 'string' ? l.traceId.toLowerCase() : '',
      spanId: typeof l.spanId === 'string' ? l.spanId.toLowerCase() : '',
      attributes: list.map((a): [string, string] => [a.key as string, anyValueText(a.value)]),
      types: list.map((a) => anyValueType(a.value)),
    };
  });
}
