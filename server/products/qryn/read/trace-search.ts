import { identifier, literal, type StorageClient } from '../storage/storage-client';
import { upgradeInstanceSchema } from '../storage/schema';
import { dateClause } from '../query/label-index';
import { eventsOfPayload, linksOfPayload, SPAN_COLUMNS, type SpanRow, type TimeRange } from './trace-reader';
import { refText, type AttributeRef, type FieldExpr, type Kind, type Pipeline } from '../../../../packages/traceql/ast';
import { conditionIsExact, traceConditionSql, traceRowsSql, type SpanTable } from '../../../../packages/traceql/clickhouse';
import { attributeValue, buildTrace, evalField, type EvalSpan, type EvalTrace, type SpanLinkRow, type Value } from '../../../../packages/traceql/field-eval';
import { evaluatePipeline, referencedAttributes } from '../../../../packages/traceql/evaluate';

// TraceQL search: plan → select → evaluate. The pushdown (packages/traceql/clickhouse.ts) picks the candidate traces
// in the range, newest first, with one aggregation per trace; their spans are read in chunks and the evaluator runs
// the whole query on each trace until `limit` traces answered. When the pushed condition is the whole query (plain
// filters with && and ||), the first `limit` candidates are the answer; otherwise up to MAX_INSPECTED candidates are
// looked at, so a query the storage cannot narrow stops there (the answer's inspectedTraces says how many).

export interface SearchOptions {
  pipeline: Pipeline;
  range: TimeRange;
  limit: number;
  spansPerSpanSet: number;
  minDurationNs?: bigint;
  maxDurationNs?: bigint;
  signal: AbortSignal;
}

export interface AnsweredSpan {
  spanId: string;
  name: string;
  startNs: bigint;
  durationNs: bigint;
  attributes: [string, Value][];
}

export interface AnsweredSpanset {
  spans: AnsweredSpan[];
  matched: number;
  attributes: [string, Value][];
}

export interface SearchHit {
  traceId: string;
  rootServiceName: string;
  rootTraceName: string;
  startNs: bigint;
  durationNs: bigint;
  spanSets: AnsweredSpanset[];
  serviceStats: Record<string, { spanCount: number; errorCount: number }>;
}

export interface SearchResult {
  hits: SearchHit[];
  inspectedTraces: number;
  inspectedSpans: number;
  inspectedBytes: number;
}

const MAX_INSPECTED = 5_000;
const CHUNK = 200;
const NO_ROOT = '<root span not yet received>';
const STATUS = ['unset', 'ok', 'error'] as const;

type Row = SpanRow & { source?: string; payload?: string };

const zip = (keys: string[], values: string[]) => new Map(keys.map((k, i) => [k, values[i] ?? '']));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether the query reads what only the stored span (payload) holds: status messages, events, links. */
export function needsPayload(pipeline: unknown): boolean {
  const text = JSON.stringify(pipeline, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  return /"scope":"(event|link)"|"name":"(statusMessage|eventName|eventTimeSinceStart|linkTraceId|linkSpanId)"/.test(text);
}

function toSpan(row: Row): EvalSpan {
  let payload: unknown;
  if (row.payload !== undefined) {
    try {
      payload = JSON.parse(row.payload);
    } catch {
      payload = undefined;
    }
  }
  const status = isObject(payload) && isObject(payload.status) ? payload.status : {};
  const events = row.payload !== undefined ? eventsOfPayload(row.source ?? '', row.payload) : [];
  return {
    traceId: row.trace_id,
    spanId: row.span_id,
    parentId: row.parent_id,
    name: row.name,
    service: row.service_name,
    kind: (row.kind || 'UNSPECIFIED').toLowerCase() as Kind,
    status: STATUS[row.status_code] ?? 'unset',
    statusMessage: typeof status.message === 'string' ? status.message : '',
    startNs: BigInt(row.ts),
    durationNs: BigInt(row.dur),
    attributes: zip(row.attribute_keys, row.attribute_values),
    resource: zip(row.resource_keys, row.resource_values),
    ...(row.attribute_types?.length ? { attributeTypes: zip(row.attribute_keys, row.attribute_types) } : {}),
    ...(row.resource_types?.length ? { resourceTypes: zip(row.resource_keys, row.resource_types) } : {}),
    ...(row.scope_name ? { scopeName: row.scope_name } : {}),
    ...(row.scope_version ? { scopeVersion: row.scope_version } : {}),
    ...(row.scope_keys?.length ? { scopeAttributes: zip(row.scope_keys, row.scope_values), scopeTypes: zip(row.scope_keys, row.scope_types) } : {}),
    events: events.map((e) => ({ name: e.name, timeNs: e.timeNs, attributes: new Map(e.attributes), types: new Map(e.attributes.map(([k], i) => [k, e.attributeTypes[i] ?? ''])) })),
    links: row.payload === undefined ? [] : linksOfPayload(row.payload).map((l): SpanLinkRow => ({ traceId: l.traceId, spanId: l.spanId, attributes: new Map(l.attributes), types: new Map(l.attributes.map(([k], i) => [k, l.types[i]])) })),
  };
}

/** The key Tempo answers a matched span's attribute under (its name; status and kind for those intrinsics). */
function answerKey(ref: AttributeRef): string | undefined {
  if (ref.scope !== 'intrinsic') return ref.name;
  return ref.name === 'status' || ref.name === 'kind' || ref.name === 'statusMessage' ? ref.name : undefined;
}

function answerSpan(span: EvalSpan, trace: EvalTrace, refs: AttributeRef[], selected: FieldExpr[]): AnsweredSpan {
  const attributes: [string, Value][] = [];
  const seen = new Set<string>();
  const add = (key: string | undefined, value: Value) => {
    if (key === undefined || value === undefined || seen.has(key)) return;
    seen.add(key);
    attributes.push([key, value]);
  };
  for (const ref of refs) add(answerKey(ref), attributeValue(ref, span, trace, {}));
  for (const e of selected) add(e.kind === 'attribute' ? answerKey(e.ref) ?? refText(e.ref) : undefined, evalField(e, span, trace, {}));
  return { spanId: span.spanId, name: span.name, startNs: span.startNs, durationNs: span.durationNs, attributes };
}

export async function searchTraces(client: StorageClient, database: string, options: SearchOptions): Promise<SearchResult> {
  const { range, pipeline, signal } = options;
  // A database made before the resource columns gains them first (schema.ts).
  await upgradeInstanceSchema(client, database);
  const spansTable = `${identifier(database)}.spans`;
  const inRange = `${dateClause(range)} AND timestamp_ns >= ${range.startNs} AND timestamp_ns <= ${range.endNs}`;
  const table: SpanTable = { table: spansTable, bound: dateClause(range), rows: inRange };
  const traceDuration = 'max(timestamp_ns + duration_ns) - min(timestamp_ns)';
  const exact = conditionIsExact(pipeline, table);
  // Only the rows of traces holding a span of the first stage are grouped (the others cannot answer); when that stage
  // is the whole query and exact, this is already the trace condition.
  const rows = traceRowsSql(pipeline, table);
  const having = [
    rows !== null && exact ? null : traceConditionSql(pipeline, table),
    options.minDurationNs !== undefined ? `${traceDuration} >= ${options.minDurationNs}` : null,
    options.maxDurationNs !== undefined ? `${traceDuration} <= ${options.maxDurationNs}` : null,
  ].filter((c): c is string => c !== null);
  const candidateSql = `SELECT trace_id FROM ${spansTable} WHERE ${inRange}${rows ? ` AND ${rows}` : ''} GROUP BY trace_id${having.length ? ` HAVING ${having.join(' AND ')}` : ''}
     ORDER BY min(timestamp_ns) DESC, trace_id LIMIT ${exact ? options.limit : MAX_INSPECTED}`;
  const refs = referencedAttributes(pipeline);
  const result: SearchResult = { hits: [], inspectedTraces: 0, inspectedSpans: 0, inspectedBytes: 0 };
  const reader = spanReader(client, spansTable, inRange, needsPayload(pipeline), result, signal);
  signal.throwIfAborted();
  // When the condition is the answer, the spans of its traces are read in the same query that chooses them; their
  // order (newest first, then by id) is the candidates' own: a trace's start is its first span in the range.
  const chosen = exact ? await reader(candidateSql) : null;
  const candidates = chosen
    ? [...chosen.entries()]
        .map(([id, spans]) => ({ id, start: spans.reduce((m, sp) => (sp.startNs < m ? sp.startNs : m), spans[0].startNs) }))
        .sort((a, b) => (a.start > b.start ? -1 : a.start < b.start ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((c) => c.id)
    : (await client.query<{ trace_id: string }>(candidateSql, { signal })).map((c) => c.trace_id);
  for (let at = 0; at < candidates.length && result.hits.length < options.limit; at += CHUNK) {
    signal.throwIfAborted();
    const ids = candidates.slice(at, at + CHUNK);
    const byTrace = chosen ?? (await reader(ids));
    for (const id of ids) {
      if (result.hits.length >= options.limit) break;
      signal.throwIfAborted();
      result.inspectedTraces++;
      const trace = buildTrace(id, byTrace.get(id) ?? []);
      const sets = evaluatePipeline(pipeline, trace);
      if (sets.length === 0) continue;
      result.hits.push(hitOf(trace, sets, refs, options.spansPerSpanSet));
    }
  }
  return result;
}

/**
 * Reads the spans of traces in the range — by id, or those a subquery selecting trace_id chooses — counting what it
 * read into `stats`; `signal` kills a read under way.
 */
export function spanReader(
  client: StorageClient,
  spansTable: string,
  inRange: string,
  payload: boolean,
  stats: { inspectedSpans: number; inspectedBytes: number },
  signal: AbortSignal,
) {
  return async (ids: string[] | string): Promise<Map<string, EvalSpan[]>> => {
    const rows = await client.query<Row>(
      `SELECT ${SPAN_COLUMNS}${payload ? ', source, payload' : ''} FROM ${spansTable} WHERE ${inRange} AND trace_id IN (${typeof ids === 'string' ? ids : ids.map(literal).join(', ')})
       ORDER BY trace_id, timestamp_ns, span_id`,
      { signal },
    );
    const byTrace = new Map<string, EvalSpan[]>();
    for (const row of rows) {
      stats.inspectedSpans++;
      stats.inspectedBytes += rowBytes(row);
      const list = byTrace.get(row.trace_id) ?? [];
      list.push(toSpan(row));
      byTrace.set(row.trace_id, list);
    }
    return byTrace;
  };
}

function rowBytes(row: Row): number {
  let n = row.trace_id.length + row.span_id.length + row.parent_id.length + row.name.length + row.service_name.length + row.kind.length + 20;
  for (const list of [row.attribute_keys, row.attribute_values, row.resource_keys, row.resource_values]) for (const s of list) n += s.length;
  return n + (row.payload?.length ?? 0);
}

function hitOf(trace: EvalTrace, sets: ReturnType<typeof evaluatePipeline>, refs: AttributeRef[], spss: number): SearchHit {
  const serviceStats: SearchHit['serviceStats'] = {};
  for (const s of trace.spans) {
    const stat = (serviceStats[s.service] ??= { spanCount: 0, errorCount: 0 });
    stat.spanCount++;
    if (s.status === 'error') stat.errorCount++;
  }
  return {
    traceId: trace.traceId,
    rootServiceName: trace.root ? trace.root.service : NO_ROOT,
    rootTraceName: trace.root ? trace.root.name : '',
    startNs: trace.startNs,
    durationNs: trace.durationNs,
    spanSets: sets.map((set) => {
      const spans = [...set.spans].sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : a.spanId < b.spanId ? -1 : 1));
      return { spans: spans.slice(0, spss).map((s) => answerSpan(s, trace, refs, set.selected)), matched: spans.length, attributes: set.attributes };
    }),
    serviceStats,
  };
}
