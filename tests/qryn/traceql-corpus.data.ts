import { randomBytes } from 'node:crypto';

// The trace data set of the TraceQL corpus (traceql-corpus.test.ts): hand-made traces for the cases that matter
// (errors with messages, events, links, deep chains, siblings, one-span traces) and seeded generated ones for
// variety: five services, three to four levels, every span kind, the three statuses, typed attributes (int, double,
// bool, string), durations from 1 ms to seconds; client and server spans are sent in scopes with typed attributes. The model is plain data; the test's own evaluator reads it.

export type Value = string | number | boolean;

export interface ModelSpan {
  traceId: string;
  spanId: string;
  parentId: string;
  name: string;
  service: string;
  env: string;
  kind: 'internal' | 'server' | 'client' | 'producer' | 'consumer';
  status: 'unset' | 'ok' | 'error';
  message: string;
  startNs: bigint;
  durationNs: bigint;
  attrs: Record<string, Value>;
  /** The attributes of the span's instrumentation scope (all scopes are named `corpus`, version 1.0). */
  scopeAttrs: Record<string, Value>;
  events: { name: string; offsetNs: bigint; attrs: Record<string, Value> }[];
  links: { traceId: string; spanId: string }[];
}

export interface ModelTrace {
  traceId: string;
  spans: ModelSpan[];
}

export interface SpanSpec {
  name: string;
  service: string;
  kind: ModelSpan['kind'];
  ms: number;
  status?: ModelSpan['status'];
  message?: string;
  attrs?: Record<string, Value>;
  events?: { name: string; offsetMs: number; attrs?: Record<string, Value> }[];
  link?: [number, number];
  children?: SpanSpec[];
}

export const SERVICES = ['frontend', 'api', 'db', 'cache', 'mail'] as const;

const HAND: SpanSpec[] = [
  { name: 'GET /cart', service: 'frontend', kind: 'server', ms: 1200, status: 'ok', attrs: { 'http.method': 'GET', 'http.status_code': 200 }, children: [
    { name: 'list cart', service: 'api', kind: 'server', ms: 800, attrs: { 'http.method': 'GET', 'http.status_code': 200 }, children: [
      { name: 'query cart', service: 'db', kind: 'client', ms: 50, attrs: { 'db.rows': 12, ratio: 0.25 } },
      { name: 'cache get', service: 'cache', kind: 'client', ms: 2, attrs: { 'cache.hit': true } },
    ] },
  ] },
  { name: 'POST /checkout', service: 'frontend', kind: 'server', ms: 2500, status: 'error', message: 'payment failed', attrs: { 'http.method': 'POST', 'http.status_code': 502 }, children: [
    { name: 'charge', service: 'api', kind: 'server', ms: 2000, status: 'error', message: 'card declined', attrs: { 'http.method': 'POST', 'http.status_code': 402 }, children: [
      { name: 'call bank', service: 'api', kind: 'client', ms: 1900, status: 'error', message: 'timeout', events: [{ name: 'exception', offsetMs: 1800, attrs: { 'exception.type': 'Timeout', attempt: 3 } }], children: [
        { name: 'bank handshake', service: 'api', kind: 'internal', ms: 1, attrs: { ratio: 0.9 } },
      ] },
      { name: 'insert order', service: 'db', kind: 'client', ms: 5, status: 'ok', attrs: { 'db.rows': 1 } },
    ] },
  ] },
  { name: 'send mail', service: 'mail', kind: 'producer', ms: 30, link: [1, 1], children: [
    { name: 'deliver', service: 'mail', kind: 'consumer', ms: 100, attrs: { 'mail.retry': true }, link: [1, 2], children: [
      { name: 'render', service: 'mail', kind: 'internal', ms: 1, attrs: { ratio: 0.75 } },
    ] },
  ] },
  { name: 'GET /health', service: 'api', kind: 'server', ms: 1, attrs: { 'http.method': 'GET', 'http.status_code': 200 } },
  { name: 'GET /cart', service: 'frontend', kind: 'server', ms: 300, attrs: { 'http.method': 'GET', 'http.status_code': 503 }, status: 'error', message: 'upstream', children: [
    { name: 'list cart', service: 'api', kind: 'server', ms: 250, status: 'error', message: 'db slow', attrs: { 'http.status_code': 503 }, children: [
      { name: 'query cart', service: 'db', kind: 'client', ms: 200, attrs: { 'db.rows': 0 }, children: [
        { name: 'scan', service: 'db', kind: 'internal', ms: 150, attrs: { ratio: 0.5 } },
      ] },
    ] },
  ] },
  { name: 'GET /search', service: 'frontend', kind: 'server', ms: 4000, status: 'ok', attrs: { 'http.method': 'GET', 'http.status_code': 200 }, children: [
    { name: 'search', service: 'api', kind: 'server', ms: 3900, children: [
      { name: 'cache get', service: 'cache', kind: 'client', ms: 1, attrs: { 'cache.hit': false } },
      { name: 'query items', service: 'db', kind: 'client', ms: 3000, attrs: { 'db.rows': 500, ratio: 0.1 } },
      { name: 'query prices', service: 'db', kind: 'client', ms: 500, attrs: { 'db.rows': 40 } },
    ] },
  ] },
  { name: 'POST /login', service: 'api', kind: 'server', ms: 20, attrs: { 'http.method': 'POST', 'http.status_code': 401 }, children: [
    { name: 'query user', service: 'db', kind: 'client', ms: 3, attrs: { 'db.rows': 1 }, events: [{ name: 'retry', offsetMs: 1 }] },
  ] },
  { name: 'GET /cart', service: 'frontend', kind: 'server', ms: 90, attrs: { 'http.method': 'GET', 'http.status_code': 200 }, children: [
    { name: 'cache get', service: 'cache', kind: 'client', ms: 1, attrs: { 'cache.hit': true } },
  ] },
];

/** A small deterministic generator (mulberry32), so the generated traces are the same on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generated(count: number): SpanSpec[] {
  const rnd = prng(20261129);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const names = ['GET /cart', 'list cart', 'query cart', 'cache get', 'render', 'search', 'query items', 'deliver'];
  const durations = [1, 2, 5, 20, 50, 90, 150, 300, 1200, 2500];
  const make = (depth: number): SpanSpec => {
    const status = pick(['unset', 'unset', 'ok', 'error'] as const);
    const attrs: Record<string, Value> = {};
    if (rnd() < 0.6) attrs['http.status_code'] = pick([200, 201, 404, 500, 503]);
    if (rnd() < 0.5) attrs['http.method'] = pick(['GET', 'POST', 'PUT']);
    if (rnd() < 0.4) attrs['db.rows'] = Math.floor(rnd() * 100);
    if (rnd() < 0.3) attrs['cache.hit'] = rnd() < 0.5;
    if (rnd() < 0.3) attrs.ratio = Math.round(rnd() * 100) / 100 + 0.001;
    const children = depth < 3 ? Array.from({ length: Math.floor(rnd() * 3) }, () => make(depth + 1)) : [];
    return {
      name: pick(names), service: pick(SERVICES), kind: depth === 0 ? 'server' : pick(['internal', 'client', 'server', 'producer', 'consumer'] as const),
      ms: pick(durations), status, message: status === 'error' ? pick(['timeout', 'db slow']) : undefined, attrs,
      events: rnd() < 0.2 ? [{ name: pick(['exception', 'retry']), offsetMs: 0, attrs: { 'exception.type': pick(['Timeout', 'IOError']) } }] : undefined,
      children,
    };
  };
  return Array.from({ length: count }, () => make(0));
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** The instrumentation scope attributes by span kind: a string, an int and a bool; other kinds' scope has none. */
const SCOPE_ATTRS: Partial<Record<ModelSpan['kind'], Record<string, Value>>> = {
  client: { 'lib.tier': 'gold', 'lib.shard': 3 },
  server: { 'lib.tier': 'silver', 'lib.beta': true },
};

/** The traces of the data set, ids fresh per run, starting at `startMs` one second apart. */
export function buildTraces(run: string, startMs: number): ModelTrace[] {
  const specs = [...HAND, ...generated(14)];
  const traces: ModelTrace[] = [];
  const linkTargets: [ModelSpan, [number, number]][] = [];
  specs.forEach((spec, i) => {
    const traceId = hex(16);
    const spans: ModelSpan[] = [];
    const add = (s: SpanSpec, parentId: string, startNs: bigint) => {
      const span: ModelSpan = {
        traceId, spanId: hex(8), parentId, name: s.name, service: `${s.service}-${run}`, env: i % 2 === 0 ? 'prod' : 'staging',
        kind: s.kind, status: s.status ?? 'unset', message: s.message ?? '', startNs, durationNs: BigInt(s.ms) * 1_000_000n, attrs: s.attrs ?? {},
        scopeAttrs: SCOPE_ATTRS[s.kind] ?? {},
        events: (s.events ?? []).map((e) => ({ name: e.name, offsetNs: BigInt(e.offsetMs) * 1_000_000n, attrs: e.attrs ?? {} })), links: [],
      };
      spans.push(span);
      if (s.link) linkTargets.push([span, s.link]);
      (s.children ?? []).forEach((c, j) => add(c, span.spanId, startNs + BigInt(j + 1) * 100_000n));
    };
    add(spec, '', BigInt(startMs + i * 1000) * 1_000_000n);
    traces.push({ traceId, spans });
  });
  for (const [span, [t, s]] of linkTargets) span.links.push({ traceId: traces[t].traceId, spanId: traces[t].spans[s].spanId });
  return traces;
}

const anyValue = (v: Value) =>
  typeof v === 'string' ? { stringValue: v } : typeof v === 'boolean' ? { boolValue: v } : Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
const keyValues = (attrs: Record<string, Value>) => Object.entries(attrs).map(([key, value]) => ({ key, value: anyValue(value) }));
const KIND_NUMBER = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;
const STATUS_NUMBER = { unset: 0, ok: 1, error: 2 } as const;

/** A resource's spans in one group per distinct scope attributes (OTLP's ScopeSpans). */
function byScope(spans: ModelSpan[]): ModelSpan[][] {
  const groups = new Map<string, ModelSpan[]>();
  for (const span of spans) {
    const key = JSON.stringify(span.scopeAttrs);
    groups.set(key, [...(groups.get(key) ?? []), span]);
  }
  return [...groups.values()];
}

/** The data set as one OTLP/JSON ExportTraceServiceRequest, one resource per service and environment. */
export function otlpBody(traces: ModelTrace[]): unknown {
  const byResource = new Map<string, ModelSpan[]>();
  for (const span of traces.flatMap((t) => t.spans)) {
    const key = `${span.service}\u0000${span.env}`;
    byResource.set(key, [...(byResource.get(key) ?? []), span]);
  }
  return {
    resourceSpans: [...byResource.entries()].map(([key, spans]) => {
      const [service, env] = key.split('\u0000');
      return {
        resource: { attributes: keyValues({ 'service.name': service, 'deployment.environment': env }) },
        scopeSpans: byScope(spans).map((scoped) => ({ scope: { name: 'corpus', version: '1.0', attributes: keyValues(scoped[0].scopeAttrs) }, spans: scoped.map((s) => ({
          traceId: s.traceId, spanId: s.spanId, ...(s.parentId ? { parentSpanId: s.parentId } : {}), name: s.name, kind: KIND_NUMBER[s.kind],
          startTimeUnixNano: String(s.startNs), endTimeUnixNano: String(s.startNs + s.durationNs), attributes: keyValues(s.attrs),
          status: { code: STATUS_NUMBER[s.status], ...(s.message ? { message: s.message } : {}) },
          events: s.events.map((e) => ({ timeUnixNano: String(s.startNs + e.offsetNs), name: e.name, attributes: keyValues(e.attrs) })),
          links: s.links.map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
        })) })),
      };
    }),
  };
}
