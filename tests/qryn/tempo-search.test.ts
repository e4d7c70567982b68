import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { OtlpTraceEncoder } from '../../server/products/qryn/ingest/protos';
import { TempoTrace, TempoTraceByIDResponse, tempoToObject } from '../support/tempo-proto';
import { Batch } from '../../server/products/qryn/ingest/batch';
import { decodeOtlp, decodeZipkin } from '../../server/products/qryn/ingest/traces';
import { findInstance } from '../../server/products/qryn/instances/qryn-repository';
import { createTraceReader } from '../../server/products/qryn/read/trace-reader';
import type { StorageClient } from '../../server/products/qryn/storage/storage-client';
import { parseQuery } from '../../packages/traceql/parse';
import { searchTraces } from '../../server/products/qryn/read/trace-search';

// Tempo's search API over spans pushed the three ways (Zipkin JSON, OTLP JSON, OTLP protobuf): TraceQL's basic form,
// tag search, tag names and values, and the trace by id in JSON and in Tempo's protobuf, decoded with Tempo's
// definitions (tests/support/tempo-proto.ts).

let platform: TestPlatform;
let qryn: EnabledQryn;

// Names unique to this run, so that other data in the instance never matches.
const run = randomBytes(3).toString('hex');
const svc = (name: string) => `${name}-${run}`;
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const traceA = hex(8); // Zipkin (64-bit trace id, stored padded to 32)
const traceB = hex(16); // OTLP JSON
const traceC = hex(16); // OTLP protobuf
const [spanA1, spanA2, spanB1, spanB2, spanC1] = [hex(8), hex(8), hex(8), hex(8), hex(8)];
const startMs = Date.now() - 60_000;
const startNs = BigInt(startMs) * 1_000_000n;

async function gw(path: string, init: { method?: string; body?: string | Uint8Array; type?: string; accept?: string; auth?: string } = {}) {
  const headers: Record<string, string> = {};
  const auth = init.auth ?? qryn.basic;
  if (auth) headers.authorization = auth;
  if (init.type) headers['content-type'] = init.type;
  if (init.accept) headers.accept = init.accept;
  const response = await fetch(`${qryn.url}${path}`, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, body: init.body === undefined || typeof init.body === 'string' ? init.body : new Uint8Array(init.body) });
  const buffer = Buffer.from(await response.arrayBuffer());
  let body: any = buffer.toString('utf8');
  try {
    body = JSON.parse(body);
  } catch {
    // text
  }
  return { status: response.status, type: response.headers.get('content-type') ?? '', body, raw: buffer };
}

const search = async (params: Record<string, string>) => {
  const answer = await gw(`/api/search?${new URLSearchParams(params)}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { traces: any[]; metrics: unknown };
};
const found = async (q: string, extra: Record<string, string> = {}) => (await search({ q, ...extra })).traces.map((t) => t.traceID).sort();
const ids = (...list: string[]) => list.map((id) => id.padStart(32, '0')).sort();
const attr = (key: string, value: string | number | boolean) => ({ key, value: typeof value === 'string' ? { stringValue: value } : typeof value === 'number' ? { intValue: value } : { boolValue: value } });

beforeAll(async () => {
  platform = await startTestPlatform();
  qryn = (await enableQrynOnSeededProject(platform, 'Acme Staging')).qryn;
  const us = (ms: number) => ms * 1000;
  // A: frontend → payments over Zipkin; the payment fails (Zipkin's error tag).
  const zipkin = [
    { traceId: traceA, id: spanA1, name: 'GET /checkout', kind: 'SERVER', timestamp: us(startMs), duration: us(150), localEndpoint: { serviceName: svc('frontend') }, tags: { 'http.method': 'GET', 'http.status_code': '200' } },
    { traceId: traceA, id: spanA2, parentId: spanA1, name: 'charge', kind: 'CLIENT', timestamp: us(startMs + 10), duration: us(40), localEndpoint: { serviceName: svc('payments') }, tags: { error: 'card declined' },
      // Annotations are the span's events; Zipkin does not order them, Tempo answers them in time order.
      annotations: [{ timestamp: us(startMs + 45), value: 'declined' }, { timestamp: us(startMs + 12), value: 'card sent' }] },
  ];
  expect((await gw('/api/v2/spans', { type: 'application/json', body: JSON.stringify(zipkin) })).status).toBe(202);
  // B: inventory over OTLP JSON, a resource attribute beside service.name, an int attribute, an error status.
  const otlpJson = {
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', svc('inventory')), attr('deployment.environment', 'staging')] },
        scopeSpans: [
          {
            // The scope's attributes: TraceQL's `instrumentation.` scope, typed as the span's are.
            scope: { name: `inventory-lib-${run}`, version: '2.1', attributes: [attr('lib.tier', 'gold'), { key: 'lib.shard', value: { intValue: '3' } }] },
            spans: [
              { traceId: traceB, spanId: spanB1, name: 'list items', kind: 2, startTimeUnixNano: String(startNs + 5_000_000_000n), endTimeUnixNano: String(startNs + 5_020_000_000n), attributes: [attr('http.method', 'POST'), attr('http.status_code', 503)], status: { code: 2 },
                events: [{ timeUnixNano: String(startNs + 5_015_000_000n), name: 'exception', attributes: [attr('exception.type', 'Timeout'), attr('retries', 2)] }] },
              // OTLP/JSON's own form of an int64 is decimal text.
              { traceId: traceB, spanId: spanB2, parentSpanId: spanB1, name: 'db query', kind: 3, startTimeUnixNano: String(startNs + 5_001_000_000n), endTimeUnixNano: String(startNs + 5_006_000_000n), attributes: [attr('db.system', 'postgres'), { key: 'db.rows', value: { intValue: '42' } }] },
            ],
          },
        ],
      },
    ],
  };
  expect((await gw('/v1/traces', { type: 'application/json', body: JSON.stringify(otlpJson) })).status).toBe(200);
  // C: mailer over OTLP protobuf, 300 ms.
  const proto = OtlpTraceEncoder.encode({
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', svc('mailer'))] },
        scopeSpans: [{ scope: { name: `mailer-lib-${run}`, attributes: [attr('lib.tier', 'silver'), attr('lib.beta', true)] }, spans: [{ traceId: Buffer.from(traceC, 'hex'), spanId: Buffer.from(spanC1, 'hex'), name: `send-${run}`, kind: 1, startTimeUnixNano: String(startNs + 10_000_000_000n), endTimeUnixNano: String(startNs + 10_300_000_000n), attributes: [attr('mail.retry', true), { key: 'mail.codes', value: { arrayValue: { values: [{ intValue: 250 }, { stringValue: '550' }, { doubleValue: 0.5 }] } } }],
          events: [{ timeUnixNano: String(startNs + 10_100_000_000n), name: 'queued', attributes: [attr('queue.depth', 7)] }, { timeUnixNano: String(startNs + 10_250_000_000n), name: 'sent' }] }] }],
      },
    ],
  }).finish();
  expect((await gw('/v1/traces', { type: 'application/x-protobuf', body: proto })).status).toBe(200);
});

afterAll(async () => {
  await platform?.stop();
});

const mine = `resource.service.name =~ ".*-${run}"`;

describe('TraceQL search (/api/search?q=)', () => {
  it('finds a trace by a resource attribute and answers Tempo’s search shape', async () => {
    const answer = await search({ q: `{ resource.service.name = "${svc('frontend')}" }` });
    expect(answer.traces).toHaveLength(1);
    const [trace] = answer.traces;
    expect(trace).toMatchObject({
      traceID: ids(traceA)[0],
      rootServiceName: svc('frontend'),
      rootTraceName: 'GET /checkout',
      startTimeUnixNano: String(startNs),
      durationMs: 150,
      serviceStats: { [svc('frontend')]: { spanCount: 1, errorCount: 0 }, [svc('payments')]: { spanCount: 1, errorCount: 1 } },
    });
    expect(trace.spanSets).toEqual([trace.spanSet]);
    expect(trace.spanSet).toEqual({
      matched: 1,
      spans: [{ spanID: spanA1, name: 'GET /checkout', startTimeUnixNano: String(startNs), durationNanos: '150000000', attributes: [{ key: 'service.name', value: { stringValue: svc('frontend') } }] }],
    });
  });

  it('status, kind, name, duration, span and resource attributes, && and ||', async () => {
    expect(await found(`{ status = error && ${mine} }`)).toEqual(ids(traceA, traceB));
    expect(await found(`{ status != error && kind = server && ${mine} }`)).toEqual(ids(traceA));
    expect(await found(`{ span.http.status_code >= 500 && ${mine} }`)).toEqual(ids(traceB));
    // Zipkin tags are strings (as Tempo stores them): "200" is not the int 200, which OTLP's trace B would hold.
    expect(await found(`{ span.http.status_code = 200 && ${mine} }`)).toEqual([]);
    expect(await found(`{ span.http.status_code = "200" && ${mine} }`)).toEqual(ids(traceA));
    expect(await found(`{ span.http.status_code = 503 && ${mine} }`)).toEqual(ids(traceB));
    expect(await found(`{ span.http.status_code = "503" && ${mine} }`)).toEqual([]);
    expect(await found(`{ duration > 100ms && ${mine} }`)).toEqual(ids(traceA, traceC));
    expect(await found(`{ duration >= 20ms && duration < 0.2s && ${mine} }`)).toEqual(ids(traceA, traceB));
    expect(await found(`{ kind = client && resource.deployment.environment = "staging" }`)).toEqual(ids(traceB));
    expect(await found(`{ name = "send-${run}" || (span.db.system = "postgres" && ${mine}) }`)).toEqual(ids(traceB, traceC));
    expect(await found(`{ .mail.retry = true && ${mine} }`)).toEqual(ids(traceC));
    expect(await found(`{ .service.name = "${svc('payments')}" }`)).toEqual(ids(traceA));
    expect(await found(`{ span.service.name = "${svc('payments')}" }`)).toEqual([]);
    expect(await found(`{ resource.service.name =~ "(?i)INVENTORY-${run}" }`)).toEqual(ids(traceB));
    expect(await found(`{ resource.service.name =~ "inventory" }`)).toEqual([]); // anchored, as in Tempo
    expect(await found(`{ ${mine} && !(status = error) && span.http.method != nil }`)).toEqual(ids(traceA));
    expect(await found(`{ ${mine} && span.http.method = nil && status = error }`)).toEqual(ids(traceA));
    expect(await found(`{ name = "charge" && ${mine} } && { name = "GET /checkout" }`)).toEqual(ids(traceA));
    expect(await found(`{ name = "charge" && ${mine} } && { name = "list items" }`)).toEqual([]);
    expect(await found(`{ rootServiceName = "${svc('inventory')}" && name = "db query" }`)).toEqual(ids(traceB));
    expect(await found(`{ traceDuration > 200ms && ${mine} }`)).toEqual(ids(traceC));
  });

  it('instrumentation scope attributes, typed as Tempo types them (JSON and protobuf pushes)', async () => {
    expect(await found(`{ ${mine} && instrumentation.lib.tier = "gold" }`)).toEqual(ids(traceB));
    expect(await found(`{ ${mine} && instrumentation.lib.tier =~ "s.*" }`)).toEqual(ids(traceC));
    expect(await found(`{ ${mine} && instrumentation.lib.shard = 3 }`)).toEqual(ids(traceB));
    expect(await found(`{ ${mine} && instrumentation.lib.shard >= 2 }`)).toEqual(ids(traceB));
    // An int is not the string "3"; a bool is not the string "true".
    expect(await found(`{ ${mine} && instrumentation.lib.shard = "3" }`)).toEqual([]);
    expect(await found(`{ ${mine} && instrumentation.lib.beta = true }`)).toEqual(ids(traceC));
    expect(await found(`{ ${mine} && instrumentation.lib.beta = "true" }`)).toEqual([]);
    expect(await found(`{ ${mine} && instrumentation.lib.tier != nil }`)).toEqual(ids(traceB, traceC));
    expect(await found(`{ ${mine} && instrumentation.lib.tier = nil }`)).toEqual(ids(traceA));
    expect(await found(`{ ${mine} && instrumentation.lib.tier != "gold" }`)).toEqual(ids(traceC));
    // The scope's attributes are neither the span's nor the resource's.
    expect(await found(`{ ${mine} && span.lib.tier = "gold" }`)).toEqual([]);
    expect(await found(`{ ${mine} && resource.lib.tier = "gold" }`)).toEqual([]);
    expect(await found(`{ ${mine} && instrumentation.http.method = "POST" }`)).toEqual([]);
  });

  it('typed array elements pushed in protobuf: an int element is not its digits, a string element not a number', async () => {
    expect(await found(`{ ${mine} && span.mail.codes = 250 }`)).toEqual(ids(traceC));
    expect(await found(`{ ${mine} && span.mail.codes = "250" }`)).toEqual([]);
    expect(await found(`{ ${mine} && span.mail.codes = "550" }`)).toEqual(ids(traceC));
    expect(await found(`{ ${mine} && span.mail.codes = 550 }`)).toEqual([]);
    expect(await found(`{ ${mine} && span.mail.codes < 1 }`)).toEqual(ids(traceC));
    expect(await found(`{ ${mine} && span.mail.codes > 300 && 1 = 1 }`)).toEqual([]);
  });

  it('lists the matched spans with the attributes the query names, up to spss', async () => {
    const [trace] = (await search({ q: `{ resource.service.name = "${svc('inventory')}" && status != ok }`, spss: '1' })).traces;
    expect(trace.spanSet.matched).toBe(2);
    expect(trace.spanSet.spans).toHaveLength(1);
    expect(trace.spanSet.spans[0]).toMatchObject({ spanID: spanB1, name: 'list items', durationNanos: '20000000' });
    expect(trace.spanSet.spans[0].attributes).toEqual(expect.arrayContaining([{ key: 'service.name', value: { stringValue: svc('inventory') } }, { key: 'status', value: { stringValue: 'error' } }]));
  });

  it('minDuration, maxDuration, limit and the time range', async () => {
    expect(await found(`{ ${mine} }`, { minDuration: '200ms' })).toEqual(ids(traceC));
    expect(await found(`{ ${mine} }`, { maxDuration: '100ms' })).toEqual(ids(traceB));
    expect(await found(`{ ${mine} }`, { minDuration: '0', maxDuration: '1m' })).toEqual(ids(traceA, traceB, traceC));
    // Newest first.
    expect((await search({ q: `{ ${mine} }`, limit: '2' })).traces.map((t) => t.traceID)).toEqual([ids(traceC)[0], ids(traceB)[0]]);
    const before = String(Math.floor(startMs / 1000) - 3600);
    expect(await found(`{ ${mine} }`, { start: before, end: String(Math.floor(startMs / 1000) - 60) })).toEqual([]);
    expect(await found(`{ ${mine} }`, { start: before, end: String(Math.floor(startMs / 1000) + 120) })).toEqual(ids(traceA, traceB, traceC));
  });

  it('answers 400 with Tempo’s wording for bad queries and parameters', async () => {
    const bad = await gw(`/api/search?${new URLSearchParams({ q: '{ span.foo = }' })}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid TraceQL query: parse error at line 1, col 14: syntax error: unexpected }');
    for (const q of ['{ status = "error" }', '{ duration > "x" }', '{ .a =~ 5 }', '{ .a = 1 } | count()', '{ .a =~ "(" }', '{ !name = "x" }', '{ resource.service.name = nil }', '{} | rate()']) {
      const answer = await gw(`/api/search?${new URLSearchParams({ q })}`);
      expect(answer.status, q).toBe(400);
      expect(answer.body.error, q).toMatch(/^invalid TraceQL query: /);
    }
    expect((await gw('/api/search?minDuration=soon')).status).toBe(400);
    expect((await gw('/api/search?limit=0')).status).toBe(400);
    expect((await gw('/api/search?start=100&end=50')).status).toBe(400);
    expect((await gw(`/api/search?${new URLSearchParams({ q: '{}', tags: 'a=b' })}`)).status).toBe(400);
  });
});

describe('tag search and tags', () => {
  it('finds traces by tags (logfmt), as Grafana’s search form sends them', async () => {
    const byTags = async (tags: string) => (await search({ tags })).traces.map((t) => t.traceID).sort();
    expect(await byTags(`service.name=${svc('inventory')} http.method=POST`)).toEqual(ids(traceB));
    expect(await byTags(`service.name=${svc('inventory')} http.method=GET`)).toEqual([]);
    expect(await byTags(`name="GET /checkout" http.status_code=200 root.service.name=${svc('frontend')}`)).toEqual(ids(traceA));
    expect(await byTags(`service.name=${svc('payments')} error=true`)).toEqual(ids(traceA));
    expect((await gw(`/api/search?${new URLSearchParams({ tags: 'a=1 a=2' })}`)).status).toBe(400);
    expect((await gw(`/api/search?${new URLSearchParams({ tags: 'a="open' })}`)).status).toBe(400);
  });

  it('lists tag names, per scope in v2', async () => {
    const v1 = await gw('/api/search/tags');
    expect(v1.body.tagNames).toEqual(expect.arrayContaining(['http.method', 'http.status_code', 'db.system', 'deployment.environment', 'service.name', 'mail.retry']));
    const v2 = await gw('/api/v2/search/tags');
    const scope = (name: string) => v2.body.scopes.find((s: { name: string }) => s.name === name).tags as string[];
    expect(scope('span')).toEqual(expect.arrayContaining(['http.method', 'db.system', 'mail.retry']));
    expect(scope('span')).not.toContain('deployment.environment');
    expect(scope('resource')).toEqual(expect.arrayContaining(['deployment.environment', 'service.name']));
    expect(scope('resource')).not.toContain('http.method');
    expect(scope('intrinsic')).toEqual(expect.arrayContaining(['duration', 'kind', 'name', 'status']));
    expect((await gw('/api/v2/search/tags?scope=resource')).body.scopes.map((s: { name: string }) => s.name)).toEqual(['resource']);
    expect((await gw('/api/v2/search/tags?scope=nope')).status).toBe(400);
    const only = async (name: string) => (await gw(`/api/v2/search/tags?scope=${name}`)).body.scopes;
    expect(await only('event')).toEqual([{ name: 'event', tags: expect.arrayContaining(['exception.type', 'retries', 'queue.depth']) }]);
    expect(await only('link')).toEqual([{ name: 'link', tags: [] }]);
    expect(await only('instrumentation')).toEqual([{ name: 'instrumentation', tags: expect.arrayContaining(['lib.beta', 'lib.shard', 'lib.tier']) }]);
    expect(scope('span')).not.toContain('lib.tier');
    expect(scope('resource')).not.toContain('lib.tier');
    expect(v2.body.scopes.map((s: { name: string }) => s.name)).toEqual(['span', 'resource', 'intrinsic', 'event', 'link', 'instrumentation']);
  });

  it('lists typed tag values, narrowed by the query being written', async () => {
    const values = async (tag: string, q?: string) => (await gw(`/api/v2/search/tag/${encodeURIComponent(tag)}/values${q ? `?${new URLSearchParams({ q })}` : ''}`)).body.tagValues;
    // OTLP's int 503 and Zipkin's string tag "200", each with its stored type.
    expect(await values('span.http.status_code')).toEqual(expect.arrayContaining([{ type: 'int', value: '503' }, { type: 'string', value: '200' }]));
    expect(await values('event.retries')).toEqual([{ type: 'int', value: '2' }]);
    expect(await values('instrumentation.lib.tier', `{ ${mine} }`)).toEqual([{ type: 'string', value: 'gold' }, { type: 'string', value: 'silver' }]);
    expect(await values('instrumentation.lib.shard', `{ ${mine} }`)).toEqual([{ type: 'int', value: '3' }]);
    expect(await values('instrumentation.lib.beta', `{ ${mine} }`)).toEqual([{ type: 'bool', value: 'true' }]);
    expect(await values('instrumentation:name', `{ ${mine} && instrumentation:version = "2.1" }`)).toEqual([{ type: 'string', value: `inventory-lib-${run}` }]);
    expect(await values('event:name')).toEqual(expect.arrayContaining([{ type: 'string', value: 'exception' }, { type: 'string', value: 'queued' }]));
    expect(await values('duration', `{ ${mine} && name = "list items" }`)).toEqual([{ type: 'duration', value: '20ms' }]);
    expect(await values('resource.service.name')).toEqual(expect.arrayContaining(['frontend', 'payments', 'inventory', 'mailer'].map((s) => ({ type: 'string', value: svc(s) }))));
    expect(await values('span.http.method', `{ resource.service.name = "${svc('inventory')}" }`)).toEqual([{ type: 'string', value: 'POST' }]);
    // An unfinished query narrows nothing.
    expect(await values('span.http.method', `{ resource.service.name = "${svc('inventory')}" && span.http.method = }`)).toEqual(expect.arrayContaining([{ type: 'string', value: 'POST' }, { type: 'string', value: 'GET' }]));
    expect(await values('status')).toEqual(expect.arrayContaining([{ type: 'keyword', value: 'error' }]));
    expect(await values('name', `{ ${mine} && kind = client }`)).toEqual([{ type: 'string', value: 'charge' }, { type: 'string', value: 'db query' }]);
    expect((await gw(`/api/search/tag/db.system/values`)).body.tagValues).toContain('postgres');
    expect((await gw('/api/v2/search/tag/%ZZ/values')).status).toBe(400);
    expect((await gw('/api/v2/search/tag/what%20ever/values')).status).toBe(400);
  });
});

describe('trace by id', () => {
  it('JSON: resources with their attributes, spans with theirs (Zipkin and OTLP alike)', async () => {
    const b = await gw(`/api/traces/${traceB}`);
    expect(b.status).toBe(200);
    expect(b.body.batches).toHaveLength(1);
    expect(b.body.batches[0].resource.attributes).toEqual([attr('service.name', svc('inventory')), attr('deployment.environment', 'staging')]);
    expect(b.body.batches[0].scopeSpans[0].spans.map((s: { name: string }) => s.name)).toEqual(['list items', 'db query']);
    expect(b.body.batches[0].scopeSpans[0].spans[0]).toMatchObject({ traceId: traceB, spanId: spanB1, kind: 'SPAN_KIND_SERVER', status: { code: 2 }, attributes: [attr('http.method', 'POST'), { key: 'http.status_code', value: { intValue: '503' } }] });
    const a = await gw(`/tempo/api/traces/${traceA}`);
    expect(a.body.batches.map((r: any) => r.resource.attributes[0].value.stringValue).sort()).toEqual([svc('frontend'), svc('payments')]);
    expect(b.body.batches[0].scopeSpans).toHaveLength(1);
    expect(b.body.batches[0].scopeSpans[0].scope).toEqual({ name: `inventory-lib-${run}`, version: '2.1', attributes: [attr('lib.tier', 'gold'), { key: 'lib.shard', value: { intValue: '3' } }] });
    // Zipkin spans have no instrumentation scope.
    expect(a.body.batches.map((r: any) => r.scopeSpans[0].scope)).toEqual([undefined, undefined]);
    const v2 = await gw(`/api/v2/traces/${traceB}`);
    expect(v2.body.trace.resourceSpans).toEqual(b.body.batches);
    expect((await gw('/api/traces/00000000000000000000000000000001')).status).toBe(404);
    expect((await gw('/api/traces/not-hex')).status).toBe(400);
  });

  it('protobuf when asked (Accept: application/protobuf), decoded with Tempo’s definitions', async () => {
    const answer = await gw(`/api/traces/${traceA}`, { accept: 'application/protobuf' });
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('application/protobuf');
    const trace = tempoToObject(TempoTrace, answer.raw);
    expect(trace.resourceSpans).toHaveLength(2);
    const byService = new Map(trace.resourceSpans.map((r: any) => [r.resource.attributes[0].value.stringValue, r.scopeSpans[0].spans[0]]));
    expect(byService.get(svc('frontend'))).toEqual({
      traceId: ids(traceA)[0],
      spanId: spanA1,
      name: 'GET /checkout',
      kind: 'SPAN_KIND_SERVER',
      startTimeUnixNano: String(startNs),
      endTimeUnixNano: String(startNs + 150_000_000n),
      attributes: [attr('http.method', 'GET'), attr('http.status_code', '200')],
      status: { code: 'STATUS_CODE_UNSET' },
    });
    expect(byService.get(svc('payments'))).toMatchObject({ parentSpanId: spanA1, kind: 'SPAN_KIND_CLIENT', status: { code: 'STATUS_CODE_ERROR' } });
    const v2 = await gw(`/api/v2/traces/${traceC}`, { accept: 'application/protobuf' });
    const response = tempoToObject(TempoTraceByIDResponse, v2.raw);
    expect(response.trace.resourceSpans[0].scopeSpans[0].spans[0]).toMatchObject({ traceId: traceC, name: `send-${run}`, kind: 'SPAN_KIND_INTERNAL', endTimeUnixNano: String(startNs + 10_300_000_000n) });
    // An array's elements keep their types through the protobuf push and back.
    expect(response.trace.resourceSpans[0].scopeSpans[0].spans[0].attributes).toContainEqual({ key: 'mail.codes', value: { arrayValue: { values: [{ intValue: '250' }, { stringValue: '550' }, { doubleValue: 0.5 }] } } });
    expect(response.trace.resourceSpans[0].scopeSpans[0].scope).toMatchObject({ name: `mailer-lib-${run}`, attributes: [attr('lib.tier', 'silver'), attr('lib.beta', true)] });
    const b = tempoToObject(TempoTrace, (await gw(`/api/traces/${traceB}`, { accept: 'application/protobuf' })).raw);
    expect(b.resourceSpans[0].scopeSpans[0].scope).toMatchObject({ name: `inventory-lib-${run}`, version: '2.1', attributes: [attr('lib.tier', 'gold'), { key: 'lib.shard', value: { intValue: '3' } }] });
  });
});

describe('span events', () => {
  const spanOf = (answer: any, spanId: string) =>
    answer.batches.flatMap((b: any) => b.scopeSpans.flatMap((s: any) => s.spans)).find((s: any) => s.spanId === spanId);

  it('JSON: OTLP events and Zipkin annotations come back as OTLP events, in time order', async () => {
    const b = (await gw(`/api/traces/${traceB}`)).body;
    expect(spanOf(b, spanB1).events).toEqual([
      { timeUnixNano: String(startNs + 5_015_000_000n), name: 'exception', attributes: [attr('exception.type', 'Timeout'), { key: 'retries', value: { intValue: '2' } }] },
    ]);
    expect(spanOf(b, spanB2).attributes).toContainEqual({ key: 'db.rows', value: { intValue: '42' } });
    // A span without events has no events field, as Tempo answers.
    expect(spanOf(b, spanB2)).not.toHaveProperty('events');
    const a = (await gw(`/api/traces/${traceA}`)).body;
    const startUs = BigInt(startMs) * 1_000n;
    expect(spanOf(a, spanA2).events).toEqual([
      { timeUnixNano: String((startUs + 12_000n) * 1_000n), name: 'card sent', attributes: [] },
      { timeUnixNano: String((startUs + 45_000n) * 1_000n), name: 'declined', attributes: [] },
    ]);
    const c = (await gw(`/api/traces/${traceC}`)).body;
    expect(spanOf(c, spanC1).events).toEqual([
      { timeUnixNano: String(startNs + 10_100_000_000n), name: 'queued', attributes: [{ key: 'queue.depth', value: { intValue: '7' } }] },
      { timeUnixNano: String(startNs + 10_250_000_000n), name: 'sent', attributes: [] },
    ]);
  });

  it('protobuf: Span.events (field 11) decoded with Tempo’s definitions', async () => {
    const c = tempoToObject(TempoTrace, (await gw(`/api/traces/${traceC}`, { accept: 'application/protobuf' })).raw);
    expect(c.resourceSpans[0].scopeSpans[0].spans[0].events).toEqual([
      { timeUnixNano: String(startNs + 10_100_000_000n), name: 'queued', attributes: [{ key: 'queue.depth', value: { intValue: '7' } }] },
      { timeUnixNano: String(startNs + 10_250_000_000n), name: 'sent' },
    ]);
    const a = tempoToObject(TempoTraceByIDResponse, (await gw(`/api/v2/traces/${traceA}`, { accept: 'application/protobuf' })).raw);
    const payments = a.trace.resourceSpans.flatMap((r: any) => r.scopeSpans[0].spans).find((s: any) => s.spanId === spanA2);
    expect(payments.events.map((e: any) => e.name)).toEqual(['card sent', 'declined']);
  });

  it('refuses malformed events and annotations at the push, naming the field', async () => {
    const zipkin = (annotations: unknown) => JSON.stringify([{ traceId: hex(16), id: hex(8), name: 'x', timestamp: startMs * 1000, duration: 10, annotations }]);
    const badAnnotation = await gw('/api/v2/spans', { type: 'application/json', body: zipkin([{ timestamp: 'soon', value: 'x' }]) });
    expect(badAnnotation.status).toBe(400);
    expect(JSON.stringify(badAnnotation.body)).toContain('annotations[].timestamp');
    expect((await gw('/api/v2/spans', { type: 'application/json', body: zipkin([{ timestamp: startMs * 1000 }]) })).status).toBe(400);
    const otlp = (events: unknown) =>
      JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: hex(16), spanId: hex(8), name: 'x', startTimeUnixNano: String(startNs), endTimeUnixNano: String(startNs), events }] }] }] });
    const badEvent = await gw('/v1/traces', { type: 'application/json', body: otlp([{ name: 'no time' }]) });
    expect(badEvent.status).toBe(400);
    expect(JSON.stringify(badEvent.body)).toContain('events[].timeUnixNano');
    expect((await gw('/v1/traces', { type: 'application/json', body: otlp({ name: 'not a list' }) })).status).toBe(400);
  });
});

describe('the rest of the API', () => {
  it('echo and build info; reads need credentials', async () => {
    const echo = await gw('/api/echo');
    expect(echo).toMatchObject({ status: 200, body: 'echo' });
    expect((await gw('/api/status/buildinfo')).body.version).toMatch(/^2\./);
    expect((await gw('/api/search', { auth: '' })).status).toBe(401);
    expect((await gw('/api/echo', { auth: 'Bearer nope' })).status).toBe(401);
  });
});

/** The first schema's spans columns; later ones are added to them. */
const FIRST_SPANS_COLUMNS = `date Date, trace_id String, span_id String, parent_id String, name String,
  service_name LowCardinality(String), kind LowCardinality(String), timestamp_ns Int64, duration_ns Int64,
  status_code Int32, attribute_keys Array(String), attribute_values Array(String),
  source LowCardinality(String), payload String`;

/** Runs `body` on an instance database whose spans table has these columns (the other tables as now), then drops it. */
async function withOlderDatabase(name: string, spansColumns: string, body: (client: StorageClient, database: string) => Promise<void>) {
  const instance = (await findInstance(platform.db, qryn.instanceId))!;
  const client = await qryn.backend.storageOf(instance);
  const database = `qryn_${name}_${run}`;
  await client.command(`CREATE DATABASE ${database}`);
  try {
    await client.command(`CREATE TABLE ${database}.spans (${spansColumns}) ENGINE = MergeTree PARTITION BY date ORDER BY (trace_id, timestamp_ns)`);
    for (const table of ['time_series', 'series_labels', 'log_samples', 'metric_samples']) {
      await client.command(`CREATE TABLE ${database}.${table} AS ${instance.database_name}.${table}`);
    }
    await body(client, database);
  } finally {
    await client.command(`DROP DATABASE IF EXISTS ${database}`);
  }
}

describe('databases created before the resource columns', () => {
  it('gain them on first use: older spans still read and search, new ones keep their resource', async () => {
    // The spans table as the first schema made it, with a span whose resource went into its attributes.
    await withOlderDatabase('old', FIRST_SPANS_COLUMNS, async (client, database) => {
      const oldTrace = hex(16);
      const day = new Date(startMs).toISOString().slice(0, 10);
      await client.command(
        `INSERT INTO ${database}.spans VALUES ('${day}', '${oldTrace}', '${hex(8)}', '', 'old root', 'legacy', 'SERVER', ${startNs}, 1000, 0, ['service.name', 'http.method'], ['legacy', 'GET'], 'otlp', '{}')`,
      );
      // A span stored before events were read: its received span (payload) holds them, so they read back too.
      const eventTrace = hex(16);
      const stored = JSON.stringify({ events: [{ timeUnixNano: String(startNs + 500n), name: 'legacy event', attributes: [attr('k', 'v')] }] });
      await client.command(
        `INSERT INTO ${database}.spans VALUES ('${day}', '${eventTrace}', '${hex(8)}', '', 'old evented', 'legacy-events', 'SERVER', ${startNs}, 1000, 0, [], [], 'otlp', '${stored}')`,
      );
      const batch = new Batch();
      const newTrace = hex(8);
      decodeZipkin([{ traceId: newTrace, id: hex(8), name: 'new root', timestamp: startMs * 1000, duration: 5, localEndpoint: { serviceName: 'fresh' } }], batch);
      await qryn.backend.writer.write({ id: `old-${run}`, database, client, fingerprintLimit: 0 }, batch);
      const columns = await client.query<{ name: string }>(`SELECT name FROM system.columns WHERE database = '${database}' AND table = 'spans' AND (name LIKE 'resource_%' OR name = 'attribute_types') ORDER BY name`);
      expect(columns.map((c) => c.name)).toEqual(['attribute_types', 'resource_keys', 'resource_types', 'resource_values']);
      const reader = createTraceReader(client, database);
      expect((await reader.trace(oldTrace))[0].attributes).toEqual([['service.name', 'legacy']]);
      expect((await reader.trace(oldTrace))[0].spans[0].events).toEqual([]);
      expect((await reader.trace(eventTrace))[0].spans[0].events).toEqual([{ timeNs: startNs + 500n, name: 'legacy event', attributes: [['k', 'v']], attributeTypes: ['s'] }]);
      expect((await reader.trace(newTrace))[0].attributes).toEqual([['service.name', 'fresh']]);
      const range = { startNs: startNs - 1_000_000_000n, endNs: startNs + 1_000_000_000n };
      const query = parseQuery('{ resource.service.name =~ "legacy|fresh" }');
      if (query.kind !== 'search') throw new Error('a search query');
      const { hits } = await searchTraces(client, database, { pipeline: query.pipeline, range, limit: 10, spansPerSpanSet: 3, signal: new AbortController().signal });
      expect(hits.map((h) => h.rootTraceName).sort()).toEqual(['new root', 'old root']);
      // Rows stored before attribute types are untyped text: compared as the other side's type, as before.
      for (const q of ['{ span.http.method = "GET" }', '{ .http.method =~ "G.*" }']) {
        const untyped = parseQuery(q);
        if (untyped.kind !== 'search') throw new Error('a search query');
        const found = await searchTraces(client, database, { pipeline: untyped.pipeline, range, limit: 10, spansPerSpanSet: 3, signal: new AbortController().signal });
        expect(found.hits.map((h) => h.rootTraceName), q).toEqual(['old root']);
      }
    });
  });
});

describe('databases created before the instrumentation scope attributes', () => {
  it('gain the scope columns on first use: older spans read without scope attributes, new ones with them', async () => {
    // The spans table as it was made before scope attributes were kept (scope name and version only).
    const columns = `${FIRST_SPANS_COLUMNS}, resource_keys Array(String), resource_values Array(String),
      attribute_types Array(String), resource_types Array(String), scope_name String, scope_version String`;
    await withOlderDatabase('noscope', columns, async (client, database) => {
      const oldTrace = hex(16);
      const day = new Date(startMs).toISOString().slice(0, 10);
      await client.command(
        `INSERT INTO ${database}.spans VALUES ('${day}', '${oldTrace}', '${hex(8)}', '', 'old root', 'legacy', 'SERVER', ${startNs}, 1000, 0, ['codes'], ['["200"]'], 'otlp', '{}', ['service.name'], ['legacy'], ['a'], ['s'], 'old-lib', '1.0')`,
      );
      const newTrace = hex(16);
      const batch = new Batch();
      decodeOtlp({
        resourceSpans: [{
          resource: { attributes: [attr('service.name', 'fresh')] },
          scopeSpans: [{ scope: { name: 'new-lib', attributes: [attr('lib.tier', 'gold'), { key: 'lib.shard', value: { intValue: '3' } }] }, spans: [{ traceId: newTrace, spanId: hex(8), name: 'new root', startTimeUnixNano: String(startNs), endTimeUnixNano: String(startNs + 5_000n) }] }],
        }],
      }, batch);
      await qryn.backend.writer.write({ id: `noscope-${run}`, database, client, fingerprintLimit: 0 }, batch);
      const columns = await client.query<{ name: string }>(`SELECT name FROM system.columns WHERE database = '${database}' AND table = 'spans' AND name LIKE 'scope_%' ORDER BY name`);
      expect(columns.map((c) => c.name)).toEqual(['scope_keys', 'scope_name', 'scope_types', 'scope_values', 'scope_version']);
      const reader = createTraceReader(client, database);
      expect((await reader.trace(oldTrace))[0].spans[0].scope).toEqual({ name: 'old-lib', version: '1.0', attributes: [], types: [] });
      expect((await reader.trace(newTrace))[0].spans[0].scope).toEqual({ name: 'new-lib', version: '', attributes: [['lib.tier', 'gold'], ['lib.shard', '3']], types: ['s', 'i'] });
      const range = { startNs: startNs - 1_000_000_000n, endNs: startNs + 1_000_000_000n };
      const names = async (q: string) => {
        const query = parseQuery(q);
        if (query.kind !== 'search') throw new Error('a search query');
        const { hits } = await searchTraces(client, database, { pipeline: query.pipeline, range, limit: 10, spansPerSpanSet: 3, signal: new AbortController().signal });
        return hits.map((h) => h.rootTraceName).sort();
      };
      expect(await names('{ instrumentation.lib.shard = 3 }')).toEqual(['new root']);
      expect(await names('{ instrumentation.lib.tier = nil }')).toEqual(['old root']);
      expect(await names('{ instrumentation:name = "old-lib" }')).toEqual(['old root']);
      // An array stored before its elements' types: each element is untyped text, compared as the other side's type.
      expect(await names('{ span.codes = 200 }')).toEqual(['old root']);
      expect(await names('{ span.codes = "200" }')).toEqual(['old root']);
      expect(await names('{ span.codes = 200 && 1 = 1 }')).toEqual(['old root']);
      expect(await reader.tagNames(range, 'instrumentation')).toEqual(['lib.shard', 'lib.tier']);
    });
  });
});
