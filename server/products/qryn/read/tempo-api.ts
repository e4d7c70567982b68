import protobuf from 'protobufjs';
import { HttpError, sendJson, text, type ReadRequest } from '../http/gateway-http';
import { OtlpTraceEncoder } from '../ingest/protos';
import { createTraceReader, type StoredSpan, type TagScope, type TimeRange, type TraceResource } from './trace-reader';
import { searchTraces } from './trace-search';
import { parseTraceQLParam, scheduled } from './tempo-read';
import { tempoMetricsApi } from './tempo-metrics-api';
import { parseAttributeRef, parseQuery } from '../../../../packages/traceql/parse';
import type { AttributeRef, FieldExpr, Pipeline, Static } from '../../../../packages/traceql/ast';
import { arrayElements, elementType, type Value } from '../../../../packages/traceql/field-eval';
import { RegexError } from '../../../../packages/re2-pattern/re2-pattern';

// The Tempo HTTP API of an instance (what Grafana's Tempo datasource calls), also under /tempo/…:
//   /api/echo, /api/status/buildinfo
//   /api/traces/{id} and /api/v2/traces/{id}: JSON, or Tempo's protobuf when the client asks for it (Accept)
//   /api/search (q = TraceQL, or tags = logfmt), /api/search/tags, /api/v2/search/tags,
//   /api/search/tag/{tag}/values, /api/v2/search/tag/{tag}/values
// Times are unix seconds (start, end); without them a search looks at the last DEFAULT_RANGE.

const NS_PER_S = 1_000_000_000n;
const DEFAULT_RANGE_NS = 24n * 3600n * NS_PER_S;
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1_000;
const DEFAULT_SPANS_PER_SPANSET = 3;
const OTLP_KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
/** The Tempo release whose API this follows (Grafana reads it to pick features). */
const TEMPO_VERSION = '2.6.0';

export async function tempoApi(r: ReadRequest): Promise<boolean> {
  const { res, method, url } = r;
  if (method !== 'GET') return false;
  const path = r.path.replace(/^\/tempo(?=\/api\/)/, '');
  if (!path.startsWith('/api/')) return false;
  if (path === '/api/echo') {
    text(res, 200, 'echo');
    return true;
  }
  if (path === '/api/status/buildinfo') {
    sendJson(res, 200, { version: TEMPO_VERSION, revision: '', branch: '', buildUser: '', buildDate: '', goVersion: '' });
    return true;
  }
  if (path === '/api/metrics/query_range' || path === '/api/metrics/query') return tempoMetricsApi(r, path === '/api/metrics/query');
  // Traces by id, tags and tag values read in the instance's turn, as searches do (tempo-read.ts).
  const read = <T>(work: (reader: ReturnType<typeof createTraceReader>) => Promise<T>) =>
    scheduled(r, (_signal, storage) => work(createTraceReader(storage, r.access.instance.database_name)));
  const trace = /^\/api\/(v2\/)?traces\/([^/]+)$/.exec(path);
  if (trace) {
    const id = trace[2];
    if (!/^[0-9a-fA-F]{1,32}$/.test(id)) throw new HttpError(400, `invalid trace id "${id.slice(0, 40)}": a trace id is up to 32 hexadecimal characters.`);
    const resources = await read((reader) => reader.trace(id));
    if (resources.length === 0) throw new HttpError(404, 'Trace not found.');
    const v2 = trace[1] !== undefined;
    if (wantsProtobuf(r.req.headers.accept)) {
      const traceBytes = OtlpTraceEncoder.encode(protobufTrace(resources)).finish();
      // v2 wraps the trace in TraceByIDResponse { Trace trace = 1; … }.
      const body = v2 ? protobuf.Writer.create().uint32(10).bytes(traceBytes).finish() : traceBytes;
      res.writeHead(200, { 'content-type': 'application/protobuf', 'content-length': body.length, 'cache-control': 'no-store' });
      res.end(Buffer.from(body.buffer, body.byteOffset, body.length));
      return true;
    }
    const batches = jsonTrace(resources);
    sendJson(res, 200, v2 ? { trace: { resourceSpans: batches } } : { batches });
    return true;
  }
  if (path === '/api/search') {
    const params = url.searchParams;
    const q = params.get('q');
    const tags = params.get('tags');
    if (q && tags) throw new HttpError(400, "invalid request: can't specify tags and q in the same query");
    const query = q ? traceQL(q) : tagsQuery(tags ?? '');
    const minDurationNs = optionalDuration(params.get('minDuration'), 'minDuration');
    const maxDurationNs = optionalDuration(params.get('maxDuration'), 'maxDuration');
    if (minDurationNs !== undefined && maxDurationNs !== undefined && minDurationNs > maxDurationNs) {
      throw new HttpError(400, 'invalid maxDuration: must be greater than minDuration');
    }
    const limit = positiveInt(params.get('limit'), 'limit') ?? DEFAULT_LIMIT;
    const spansPerSpanSet = positiveInt(params.get('spss'), 'spss') ?? DEFAULT_SPANS_PER_SPANSET;
    const range = searchRange(params, r.nowNs);
    const found = await scheduled(r, (signal, storage) =>
      withQueryErrors(() =>
        searchTraces(storage, r.access.instance.database_name, {
          pipeline: query, range, limit: Math.min(limit, MAX_LIMIT), spansPerSpanSet: Math.min(spansPerSpanSet, 1000), minDurationNs, maxDurationNs, signal,
        }),
      ),
    );
    sendJson(res, 200, {
      traces: found.hits.map((hit) => {
        const spanSets = hit.spanSets.map((set) => ({
          spans: set.spans.map((s) => ({
            spanID: s.spanId,
            name: s.name,
            startTimeUnixNano: s.startNs.toString(),
            durationNanos: s.durationNs.toString(),
            ...(s.attributes.length > 0 ? { attributes: typedKeyValues(s.attributes) } : {}),
          })),
          matched: set.matched,
          ...(set.attributes.length > 0 ? { attributes: typedKeyValues(set.attributes) } : {}),
        }));
        return {
          traceID: hit.traceId,
          rootServiceName: hit.rootServiceName,
          ...(hit.rootTraceName ? { rootTraceName: hit.rootTraceName } : {}),
          startTimeUnixNano: hit.startNs.toString(),
          durationMs: Number(hit.durationNs / 1_000_000n),
          spanSet: spanSets[0],
          spanSets,
          serviceStats: hit.serviceStats,
        };
      }),
      metrics: { inspectedTraces: found.inspectedTraces, inspectedSpans: String(found.inspectedSpans), inspectedBytes: String(found.inspectedBytes), completedJobs: 1, totalJobs: 1 },
    });
    return true;
  }
  if (path === '/api/search/tags' || path === '/api/v2/search/tags') {
    const params = url.searchParams;
    const range = searchRange(params, r.nowNs);
    const scope = params.get('scope') ?? '';
    const named: TagScope[] = ['span', 'resource', 'intrinsic', 'event', 'link', 'instrumentation'];
    if (scope !== '' && scope !== 'all' && scope !== 'none' && !named.includes(scope as TagScope)) {
      throw new HttpError(400, `invalid scope "${scope.slice(0, 40)}": use span, resource, event, link, instrumentation, intrinsic or none.`);
    }
    const scopes: TagScope[] = named.includes(scope as TagScope) ? [scope as TagScope] : named;
    if (path === '/api/search/tags') {
      const names = new Set<string>();
      const found = await read(async (reader) => {
        const all: string[] = [];
        for (const s of scopes.filter((s) => s === 'span' || s === 'resource')) all.push(...(await reader.tagNames(range, s)));
        return all;
      });
      for (const name of found) names.add(name);
      sendJson(res, 200, { tagNames: [...names].sort() });
    } else {
      const answer = await read(async (reader) => {
        const all = [];
        for (const s of scopes) all.push({ name: s, tags: await reader.tagNames(range, s) });
        return all;
      });
      sendJson(res, 200, { scopes: answer });
    }
    return true;
  }
  const values = /^\/api\/(v2\/)?search\/tag\/([^/]+)\/values$/.exec(path);
  if (values) {
    const params = url.searchParams;
    const range = searchRange(params, r.nowNs);
    const tag = decodeTag(values[2]);
    if (values[1] === undefined) {
      // v1 names a plain attribute (span or resource).
      sendJson(res, 200, { tagValues: [...new Set((await read((reader) => reader.tagValues({ scope: 'unscoped', name: tag }, range))).map((v) => v.value))] });
      return true;
    }
    const ref = parseAttributeRef(tag);
    if (!ref) throw new HttpError(400, `invalid tag "${tag.slice(0, 100)}": name an attribute (span.x, resource.x, .x) or an intrinsic (name, status, kind).`);
    // The query builder sends the query being written, often unfinished: a query that does not parse narrows nothing.
    let within: Pipeline | undefined;
    const q = params.get('q');
    if (q) {
      try {
        const parsed = parseQuery(q);
        within = parsed.kind === 'search' ? parsed.pipeline : undefined;
      } catch {
        within = undefined;
      }
    }
    sendJson(res, 200, { tagValues: await withQueryErrors(() => read((reader) => reader.tagValues(ref, range, within))) });
    return true;
  }
  return false;
}

function wantsProtobuf(accept: string | undefined): boolean {
  return /application\/(x-)?protobuf/i.test(accept ?? '');
}

function decodeTag(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, 'The tag name in the path is not valid percent-encoding.');
  }
}

function traceQL(q: string): Pipeline {
  const parsed = parseTraceQLParam(q);
  // A metrics query is answered by /api/metrics/query_range, as in Tempo.
  if (parsed.kind === 'metrics') throw new HttpError(400, 'invalid TraceQL query: metrics queries are answered by /api/metrics/query_range and /api/metrics/query, not by search');
  return parsed.pipeline;
}

async function withQueryErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof RegexError) throw new HttpError(400, `invalid TraceQL query: ${error.message}`);
    throw error;
  }
}

/**
 * Tempo's tag search (`tags=service.name=api http.method=GET`, logfmt) as one spanset filter: every tag must
 * match on the same span. Tempo's special names: name, status.code, error, root.name, root.service.name.
 */
export function tagsQuery(tags: string): Pipeline {
  const conditions: FieldExpr[] = [];
  const seen = new Set<string>();
  for (const [key, value] of parseLogfmt(tags)) {
    if (seen.has(key)) throw new HttpError(400, `invalid tags: tag ${key} has been set twice`);
    seen.add(key);
    const string = { type: 'string' as const, value };
    if (key === 'name') conditions.push(equals({ scope: 'intrinsic', name: 'name' }, string));
    else if (key === 'root.name') conditions.push(equals({ scope: 'intrinsic', name: 'rootName' }, string));
    else if (key === 'root.service.name') conditions.push(equals({ scope: 'intrinsic', name: 'rootServiceName' }, string));
    else if (key === 'status.code' || (key === 'error' && value === 'true')) {
      const status = key === 'error' ? 'error' : ({ '0': 'unset', '1': 'ok', '2': 'error', unset: 'unset', ok: 'ok', error: 'error' } as const)[value.toLowerCase() as '0'];
      if (!status) throw new HttpError(400, `invalid tags: status.code must be ok, error or unset (or 0, 1, 2), not "${value.slice(0, 40)}"`);
      conditions.push(equals({ scope: 'intrinsic', name: 'status' }, { type: 'status', value: status }));
    } else conditions.push(equals({ scope: 'unscoped', name: key }, string));
  }
  const expr = conditions.reduce<FieldExpr | null>((left, right) => (left ? { kind: 'binary', op: '&&', left, right } : right), null);
  return { stages: [{ kind: 'spanset', expr: { kind: 'filter', expr } }] };
}

const equals = (ref: AttributeRef, value: Static): FieldExpr => ({ kind: 'binary', op: '=', left: { kind: 'attribute', ref }, right: { kind: 'static', value } });

/** logfmt as Tempo's tags parameter takes it: `key=value key="quoted value"`, each key with a value. */
function parseLogfmt(textValue: string): [string, string][] {
  const out: [string, string][] = [];
  let i = 0;
  const fail = (reason: string): never => {
    throw new HttpError(400, `invalid tags: ${reason} at pos ${i + 1}`);
  };
  while (i < textValue.length) {
    while (i < textValue.length && /\s/.test(textValue[i])) i++;
    if (i >= textValue.length) break;
    const start = i;
    while (i < textValue.length && !/[\s="]/.test(textValue[i])) i++;
    const key = textValue.slice(start, i);
    if (!key) fail('unexpected character');
    if (textValue[i] !== '=') fail(`the tag ${key} has no value`);
    i++;
    let value = '';
    if (textValue[i] === '"') {
      i++;
      for (;;) {
        if (i >= textValue.length) fail('unterminated quoted value');
        const c = textValue[i++];
        if (c === '"') break;
        if (c === '\\') {
          const e = textValue[i++];
          value += e === 'n' ? '\n' : e === 't' ? '\t' : e ?? '';
        } else value += c;
      }
    } else {
      const valueStart = i;
      while (i < textValue.length && !/\s/.test(textValue[i])) i++;
      value = textValue.slice(valueStart, i);
    }
    out.push([key, value]);
  }
  return out;
}

const GO_DURATION = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;
const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

function optionalDuration(value: string | null, name: string): bigint | undefined {
  if (value === null || value === '') return undefined;
  if (value === '0') return 0n;
  if (!GO_DURATION.test(value)) throw new HttpError(400, `invalid ${name}: time: invalid duration "${value.slice(0, 40)}" (e.g. 100ms, 1.5s, 2m)`);
  let ns = 0;
  for (const part of value.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) ns += Number(part[1]) * UNIT_NS[part[2]];
  return BigInt(Math.round(ns));
}

function positiveInt(value: string | null, name: string): number | undefined {
  if (value === null || value === '') return undefined;
  if (!/^\d{1,9}$/.test(value) || Number(value) === 0) throw new HttpError(400, `invalid ${name}: must be a positive number`);
  return Number(value);
}

/** start and end in unix seconds (Tempo's form); the last DEFAULT_RANGE without them. */
function searchRange(params: URLSearchParams, nowNs: bigint): TimeRange {
  const seconds = (name: string): bigint | undefined => {
    const value = params.get(name);
    if (value === null || value === '') return undefined;
    if (!/^\d{1,12}$/.test(value)) throw new HttpError(400, `invalid ${name}: must be unix seconds`);
    return BigInt(value) * NS_PER_S;
  };
  const start = seconds('start');
  const end = seconds('end');
  if (start !== undefined && end !== undefined && end <= start) {
    throw new HttpError(400, `http parameter start must be before end. received start=${start / NS_PER_S} end=${end / NS_PER_S}`);
  }
  const endNs = end ?? nowNs;
  // The end second is included whole.
  return { startNs: start ?? endNs - DEFAULT_RANGE_NS, endNs: end !== undefined ? endNs + NS_PER_S - 1n : endNs };
}

/** Tempo's typed AnyValue for an evaluated value (stored attribute text is answered as a string). */
function anyValue(value: NonNullable<Value>): Record<string, unknown> {
  switch (value.t) {
    case 'number':
      return Number.isInteger(value.v) ? { intValue: String(value.v) } : { doubleValue: value.v };
    case 'bool':
      return { boolValue: value.v };
    case 'array':
      return { arrayValue: { values: value.elems.map((e, i) => storedAnyValue(e, value.types[i])) } };
    default:
      return { stringValue: value.v };
  }
}

const typedKeyValues = (attributes: [string, Value][]) => attributes.map(([key, value]) => ({ key, value: value === undefined ? { stringValue: 'nil' } : anyValue(value) }));

/**
 * A stored value as an OTLP AnyValue of its stored type (int64 as decimal text, which both OTLP/JSON and protobufjs
 * take); an array (`a` and its elements' letters) as `arrayValue` of its elements, each of its own type. Untyped
 * values (stored before types were) and lists answer as strings.
 */
function storedAnyValue(value: string, type: string | undefined): Record<string, unknown> {
  if (type === 'i' && /^-?\d+$/.test(value)) return { intValue: value };
  if (type === 'd' && value !== '' && !Number.isNaN(Number(value))) return { doubleValue: Number(value) };
  if (type === 'b') return { boolValue: value === 'true' };
  if (type?.startsWith('a')) {
    const elems = arrayElements(value);
    if (elems) return { arrayValue: { values: elems.map((e, i) => storedAnyValue(e, elementType(type[i + 1]))) } };
  }
  return { stringValue: value };
}

/** Stored attributes as OTLP KeyValues with their stored types. */
function keyValues(attributes: [string, string][], types: string[] = []) {
  return attributes.map(([key, value], i) => ({ key, value: storedAnyValue(value, types[i]) }));
}

/**
 * A resource's spans grouped by instrumentation scope (OTLP's ScopeSpans) in the order they come; the scope is
 * answered when it has a name, a version or attributes (Zipkin spans and rows stored before scopes have none).
 */
function byScope(spans: StoredSpan[]): { scope?: Record<string, unknown>; spans: StoredSpan[] }[] {
  const groups = new Map<string, { scope?: Record<string, unknown>; spans: StoredSpan[] }>();
  for (const span of spans) {
    const { name, version, attributes, types } = span.scope;
    const key = JSON.stringify([name, version, attributes, types]);
    let group = groups.get(key);
    if (!group) {
      const scope = name || version || attributes.length ? { name, version, ...(attributes.length ? { attributes: keyValues(attributes, types) } : {}) } : undefined;
      group = { ...(scope ? { scope } : {}), spans: [] };
      groups.set(key, group);
    }
    group.spans.push(span);
  }
  return [...groups.values()];
}

/** OTLP JSON resource spans (the v1 answer's `batches`, hex ids as Grafana reads them). */
function jsonTrace(resources: TraceResource[]) {
  return resources.map((resource) => ({
    resource: { attributes: keyValues(resource.attributes, resource.types) },
    scopeSpans: byScope(resource.spans).map((group) => ({
      ...(group.scope ? { scope: group.scope } : {}),
      spans: group.spans.map((s) => ({
        traceId: s.traceId,
        spanId: s.spanId,
        ...(s.parentId ? { parentSpanId: s.parentId } : {}),
        name: s.name,
        kind: `SPAN_KIND_${s.kind}`,
        startTimeUnixNano: s.startNs.toString(),
        endTimeUnixNano: (s.startNs + s.durationNs).toString(),
        attributes: keyValues(s.attributes, s.attributeTypes),
        ...(s.events.length > 0 ? { events: s.events.map((e) => ({ timeUnixNano: e.timeNs.toString(), name: e.name, attributes: keyValues(e.attributes, e.attributeTypes) })) } : {}),
        status: { code: s.statusCode },
      })),
    })),
  }));
}

/** The same as protobufjs message objects (ids as bytes, times as decimal 64-bit text). */
function protobufTrace(resources: TraceResource[]) {
  const bytes = (hex: string) => Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  return {
    resourceSpans: resources.map((resource) => ({
      resource: { attributes: keyValues(resource.attributes, resource.types) },
      scopeSpans: byScope(resource.spans).map((group) => ({
        ...(group.scope ? { scope: group.scope } : {}),
        spans: group.spans.map((s) => ({
          traceId: bytes(s.traceId),
          spanId: bytes(s.spanId),
          ...(s.parentId ? { parentSpanId: bytes(s.parentId) } : {}),
          name: s.name,
          kind: Math.max(0, OTLP_KINDS.indexOf(s.kind)),
          startTimeUnixNano: s.startNs.toString(),
          endTimeUnixNano: (s.startNs + s.durationNs).toString(),
          attributes: keyValues(s.attributes, s.attributeTypes),
          // Span.events = 11; Span.Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3 }.
          events: s.events.map((e) => ({ timeUnixNano: e.timeNs.toString(), name: e.name, attributes: keyValues(e.attributes, e.attributeTypes) })),
          status: { code: s.statusCode },
        })),
      })),
    })),
  };
}
