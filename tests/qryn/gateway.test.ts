import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compressSync } from 'snappy';
import { gzipSync } from 'node:zlib';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { PromWriteRequest } from '../../server/products/qryn/ingest/protos';
import { findInstance } from '../../server/products/qryn/instances/qryn-repository';

// The gateway's guards and edges: who may push and read, rotation, the fingerprint limit, retention, the other
// push formats (bulk, Zipkin, Loki JSON as curl sends it), and malformed bodies of every protocol (4xx, nothing stored).

let platform: TestPlatform;
let qryn: EnabledQryn;
let api: (method: string, path: string, init?: { body?: unknown; query?: Record<string, string | number> }) => Promise<{ status: number; body: any }>;

const nowNs = () => `${Date.now()}000000`;

async function gw(path: string, init: { method?: string; auth?: string; body?: string | Uint8Array; type?: string; encoding?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.auth !== undefined) headers.authorization = init.auth;
  if (init.type) headers['content-type'] = init.type;
  if (init.encoding) headers['content-encoding'] = init.encoding;
  const response = await fetch(`${qryn.url}${path}`, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, body: typeof init.body === 'string' || init.body === undefined ? init.body : new Uint8Array(init.body) });
  const text = await response.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // plain text
  }
  return { status: response.status, body };
}

const lokiPush = (labels: Record<string, string>, line: string, auth = qryn.basic) =>
  gw('/loki/api/v1/push', { auth, type: 'application/json', body: JSON.stringify({ streams: [{ stream: labels, values: [[nowNs(), line]] }] }) });

/** Rows in the instance's tables: what "nothing stored" is checked against. */
async function storedRows(): Promise<number> {
  const instance = (await findInstance(platform.db, qryn.instanceId))!;
  const client = await qryn.backend.storageOf(instance);
  const rows = await client.query<{ n: string }>(
    `SELECT sum(rows) AS n FROM system.parts WHERE database = '${instance.database_name}' AND active`,
  );
  return Number(rows[0]?.n ?? 0);
}

beforeAll(async () => {
  platform = await startTestPlatform();
  const enabled = await enableQrynOnSeededProject(platform, 'Acme Staging');
  qryn = enabled.qryn;
  const { ownerToken: token, projectId } = enabled;
  api = async (method, path, init = {}) => {
    const url = new URL(`${platform.url}/api/${path}`);
    for (const [k, v] of Object.entries({ project_id: projectId, ...init.query })) url.searchParams.set(k, String(v));
    const response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
});

afterAll(async () => {
  await platform?.stop();
});

describe('health', () => {
  it('system status lists qryn with its storage and ingestion gateway running', async () => {
    const status = await api('GET', 'integrations/status');
    expect(status.body.find((p: { slug: string }) => p.slug === 'qryn')).toMatchObject({
      services: [
        { name: 'Storage', running: true },
        { name: 'Ingestion gateway', running: true },
      ],
    });
  });
});

describe('scheduled retention', () => {
  it('a retention job is queued at start (hourly, by the platform job queue)', async () => {
    const job = await platform.jobs.latest('qryn:retention', 'qryn.retention');
    expect(job?.status).toMatch(/queued|running|done/);
  });
});

describe('authentication and scopes', () => {
  it('refuses pushes and reads without credentials or with wrong ones', async () => {
    expect((await lokiPush({ app: 'x' }, 'no auth', '')).status).toBe(401);
    expect((await lokiPush({ app: 'x' }, 'bad', `Basic ${Buffer.from(`${qryn.apiKey}:wrong`).toString('base64')}`)).status).toBe(401);
    expect((await gw('/loki/api/v1/labels', { auth: 'Bearer nope' })).status).toBe(401);
    expect((await gw('/loki/api/v1/labels')).status).toBe(401);
  });

  it('a read token can query but not push; a write token can push; "read write" does both', async () => {
    const created = async (scope: string) => {
      const response = await api('POST', 'integrations/qryn/tokens', { body: { name: `${scope} token`, scope } });
      expect(response.status).toBe(201);
      expect(response.body.message).toBe('The new token has been created!');
      return response.body.token.token as string;
    };
    const read = await created('read');
    const write = await created('write');
    const both = await created('read write');
    const pushRefused = await lokiPush({ app: 'scoped' }, 'from a read token', `Bearer ${read}`);
    expect(pushRefused.status).toBe(403);
    expect(pushRefused.body.error).toMatch(/write scope/);
    expect((await lokiPush({ app: 'scoped' }, 'from a write token', `Bearer ${write}`)).status).toBe(204);
    expect((await lokiPush({ app: 'scoped' }, 'from a read write token', `Basic ${Buffer.from(`grafana:${both}`).toString('base64')}`)).status).toBe(204);
    const query = `/loki/api/v1/query_range?query=${encodeURIComponent('{app="scoped"}')}`;
    const readAnswer = await gw(query, { auth: `Bearer ${read}` });
    expect(readAnswer.status).toBe(200);
    expect(readAnswer.body.data.result[0].values.map((v: string[]) => v[1]).sort()).toEqual(['from a read write token', 'from a write token']);
    expect((await gw(query, { auth: `Bearer ${write}` })).status).toBe(403);
    // The list shows names and scopes, never the tokens themselves.
    const list = await api('GET', 'integrations/qryn/tokens');
    expect(list.body.map((t: { scope: string }) => t.scope)).toEqual(['read', 'write', 'read write']);
    expect(list.body.every((t: { token: string }) => t.token !== read && t.token !== write && t.token.includes('…'))).toBe(true);
    // A deleted token is refused at once.
    const id = list.body.find((t: { scope: string }) => t.scope === 'write').id;
    const deleted = await api('DELETE', `integrations/qryn/tokens/${id}`);
    expect(deleted.body.message).toBe('The token has been deleted!');
    expect((await lokiPush({ app: 'scoped' }, 'after delete', `Bearer ${write}`)).status).toBe(401);
  });

  it('rotating the keys refuses the old key and secret at once and accepts the new ones', async () => {
    expect((await lokiPush({ app: 'rotate' }, 'before')).status).toBe(204);
    const rotated = await api('GET', 'integrations/qryn/config/credentials/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.message).toBe('API keys rotated successfully');
    const oldBasic = qryn.basic;
    expect((await lokiPush({ app: 'rotate' }, 'old', oldBasic)).status).toBe(401);
    qryn.apiKey = rotated.body.api_key;
    qryn.apiSecret = rotated.body.api_secret;
    qryn.basic = `Basic ${Buffer.from(`${qryn.apiKey}:${qryn.apiSecret}`).toString('base64')}`;
    expect((await lokiPush({ app: 'rotate' }, 'new')).status).toBe(204);
    const config = await api('GET', 'integrations/qryn/config');
    expect(config.body).toMatchObject({ api_key: qryn.apiKey, api_secret: null, url: qryn.url });
  });
});

describe('push formats', () => {
  it('Loki JSON as curl sends it, Elastic bulk, Zipkin v2, and the Loki labels and label values reads', async () => {
    expect((await lokiPush({ job: 'curl', env: 'dev' }, 'hello from curl')).status).toBe(204);
    const bulk = [JSON.stringify({ index: { _index: 'app-logs' } }), JSON.stringify({ '@timestamp': new Date().toISOString(), message: 'bulk doc', level: 'info' }), ''].join('\n');
    const bulkAnswer = await gw('/_bulk', { auth: qryn.basic, type: 'application/x-ndjson', body: bulk });
    expect(bulkAnswer.status).toBe(200);
    expect(bulkAnswer.body).toMatchObject({ errors: false, items: [{ index: { _index: 'app-logs', status: 201 } }] });
    const zipkin = [{ traceId: '5af7183fb1d4cf5f', id: '6b221d5bc9e6496c', name: 'get /api', timestamp: Date.now() * 1000, duration: 2000, localEndpoint: { serviceName: 'frontend' }, tags: { 'http.method': 'GET' } }];
    expect((await gw('/api/v2/spans', { auth: qryn.basic, type: 'application/json', body: JSON.stringify(zipkin) })).status).toBe(202);
    const trace = await gw('/api/traces/5af7183fb1d4cf5f', { auth: qryn.basic });
    expect(trace.body.batches[0]).toMatchObject({
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'frontend' } }] },
      scopeSpans: [{ spans: [{ spanId: '6b221d5bc9e6496c', name: 'get /api', kind: 'SPAN_KIND_UNSPECIFIED', attributes: [{ key: 'http.method', value: { stringValue: 'GET' } }] }] }],
    });
    expect((await gw('/api/traces/00000000000000000000000000000001', { auth: qryn.basic })).status).toBe(404);
    const labels = await gw('/loki/api/v1/labels', { auth: qryn.basic });
    expect(labels.body).toMatchObject({ status: 'success', data: expect.arrayContaining(['job', 'env', 'index']) });
    expect((await gw('/loki/api/v1/label/index/values', { auth: qryn.basic })).body.data).toEqual(['app-logs']);
    const docs = await gw(`/loki/api/v1/query_range?query=${encodeURIComponent('{index="app-logs"} |~ "bulk\\\\s+doc"')}`, { auth: qryn.basic });
    expect(JSON.parse(docs.body.data.result[0].values[0][1])).toMatchObject({ message: 'bulk doc' });
  });

  it('Loki JSON compressed with gzip, and the older labels/entries form', async () => {
    const gzipped = gzipSync(JSON.stringify({ streams: [{ stream: { job: 'gzip' }, values: [[nowNs(), 'zipped line']] }] }));
    expect((await gw('/loki/api/v1/push', { auth: qryn.basic, type: 'application/json', encoding: 'gzip', body: gzipped })).status).toBe(204);
    const legacy = { streams: [{ labels: '{job="legacy", quote="a \\"b\\""}', entries: [{ ts: new Date().toISOString(), line: 'legacy line' }] }] };
    expect((await gw('/loki/api/v1/push', { auth: qryn.basic, type: 'application/json', body: JSON.stringify(legacy) })).status).toBe(204);
    const read = async (query: string) =>
      (await gw(`/loki/api/v1/query_range?query=${encodeURIComponent(query)}`, { auth: qryn.basic })).body.data.result as { stream: Record<string, string>; values: string[][] }[];
    expect((await read('{job="gzip"}'))[0].values[0][1]).toBe('zipped line');
    const legacyStreams = await read('{job="legacy"}');
    expect(legacyStreams[0]).toMatchObject({ stream: { job: 'legacy', quote: 'a "b"' }, values: [[expect.any(String), 'legacy line']] });
    expect((await gw('/loki/api/v1/push', { auth: qryn.basic, type: 'application/json', encoding: 'gzip', body: 'not gzip' })).status).toBe(400);
    expect((await gw('/loki/api/v1/push', { auth: qryn.basic, type: 'application/json', encoding: 'br', body: '{}' })).status).toBe(415);
  });

  it('stream selectors and line filters select what Loki would', async () => {
    for (const [level, line] of [['error', 'disk full'], ['warn', 'disk slow'], ['info', 'all good']]) {
      expect((await lokiPush({ job: 'selectors', level }, line)).status).toBe(204);
    }
    const lines = async (query: string) => {
      const answer = await gw(`/loki/api/v1/query_range?direction=forward&query=${encodeURIComponent(query)}`, { auth: qryn.basic });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data.result.flatMap((s: { values: string[][] }) => s.values.map((v) => v[1])).sort();
    };
    expect(await lines('{job="selectors", level!="info"}')).toEqual(['disk full', 'disk slow']);
    expect(await lines('{job="selectors", level=~"err.*|info"}')).toEqual(['all good', 'disk full']);
    expect(await lines('{job="selectors", level!~"err.*"}')).toEqual(['all good', 'disk slow']);
    expect(await lines('{job="selectors"} |= "disk" != "slow"')).toEqual(['disk full']);
    expect(await lines('{job="selectors"} !~ "^disk"')).toEqual(['all good']);
    expect((await gw(`/loki/api/v1/query_range?query=${encodeURIComponent('{job=~"("}')}`, { auth: qryn.basic })).status).toBe(400);
    expect((await gw(`/loki/api/v1/query_range?query=${encodeURIComponent('{job=""}')}`, { auth: qryn.basic })).status).toBe(400);
  });

  it('Prometheus reads answer the shapes Grafana parses, GET and form POST', async () => {
    const body = PromWriteRequest.encode(
      PromWriteRequest.fromObject({ timeseries: [{ labels: [{ name: '__name__', value: 'up' }, { name: 'job', value: 'api' }], samples: [{ value: 1, timestamp: Date.now() }] }] }),
    ).finish();
    expect((await gw('/api/v1/prom/remote/write', { auth: qryn.basic, type: 'application/x-protobuf', encoding: 'snappy', body: compressSync(Buffer.from(body)) })).status).toBe(204);
    const now = Math.floor(Date.now() / 1000);
    const form = await fetch(`${qryn.url}/api/v1/query_range`, {
      method: 'POST',
      headers: { authorization: qryn.basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: 'up{job="api"}', start: String(now - 60), end: String(now + 30), step: '15s' }),
    });
    const answer = (await form.json()) as any;
    expect(answer.data.resultType).toBe('matrix');
    expect(answer.data.result[0].metric).toEqual({ __name__: 'up', job: 'api' });
    expect(answer.data.result[0].values.at(-1)[1]).toBe('1');
    const instant = await gw(`/api/v1/query?query=up&time=${now + 1}`, { auth: qryn.basic });
    expect(instant.body.data).toMatchObject({ resultType: 'vector', result: [{ metric: { job: 'api' }, value: [now + 1, '1'] }] });
    expect((await gw('/api/v1/label/__name__/values', { auth: qryn.basic })).body.data).toContain('up');
    expect((await gw('/api/v1/status/buildinfo', { auth: qryn.basic })).body.data.version).toMatch(/^\d+\.\d+\.\d+$/);
    // PromQL beyond selectors (docs/qryn.md); a range query without its start is refused as Prometheus does.
    expect((await gw(`/api/v1/query?query=${encodeURIComponent('sum by (job) (up)')}&time=${now + 1}`, { auth: qryn.basic })).body.data.result).toEqual([{ metric: { job: 'api' }, value: [now + 1, '1'] }]);
    expect((await gw('/api/v1/query_range?query=rate(up[5m])&step=15', { auth: qryn.basic })).body).toMatchObject({ status: 'error', errorType: 'bad_data' });
  });
});

describe('the fingerprints limit', () => {
  it('refuses new series past the month limit with a clear 4xx, keeps accepting known ones, and reports the banner', async () => {
    const limit = await api('PATCH', 'integrations/qryn/fingerprints/limit', { body: { limit: 1000 } });
    expect(limit.status).toBe(200);
    const notAStep = await api('PATCH', 'integrations/qryn/fingerprints/limit', { body: { limit: 1500 } });
    expect(notAStep.status).toBe(400);
    expect(Object.keys(notAStep.body.details)).toEqual(['limit']);
    const before = (await api('GET', 'integrations/qryn/metrics', { query: { start: 0, end: Math.floor(Date.now() / 1000) + 60 } })).body.fingerprints as number;
    const streams = Array.from({ length: 1000 - before }, (_, i) => ({ stream: { job: 'fill', n: String(i) }, values: [[nowNs(), 'x']] }));
    expect((await gw('/loki/api/v1/push', { auth: qryn.basic, type: 'application/json', body: JSON.stringify({ streams }) })).status).toBe(204);
    const refused = await lokiPush({ job: 'fill', n: 'one too many' }, 'y');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/fingerprints limit/);
    expect((await lokiPush({ job: 'fill', n: '0' }, 'known series still accepted')).status).toBe(204);
    expect((await api('GET', 'integrations/qryn/config')).body.fingerprint_limit_reached).toBe(true);
    expect((await api('PATCH', 'integrations/qryn/fingerprints/limit', { body: { limit: 0 } })).status).toBe(200);
    expect((await lokiPush({ job: 'fill', n: 'one too many' }, 'y')).status).toBe(204);
  });
});

describe('retention', () => {
  it('drops the day partitions older than the policy and keeps the rest', async () => {
    const day = 86_400_000;
    const old = `${Date.now() - 40 * day}000000`;
    const recent = `${Date.now() - 2 * day}000000`;
    const push = await gw('/loki/api/v1/push', {
      auth: qryn.basic,
      type: 'application/json',
      body: JSON.stringify({ streams: [{ stream: { job: 'retention' }, values: [[old, 'old line'], [recent, 'recent line']] }] }),
    });
    expect(push.status).toBe(204);
    const policy = await api('PATCH', 'integrations/qryn/retention/policies', { body: { ttl_addon_id: 'retention-30d' } });
    expect(policy.body).toMatchObject({ ttl_days: 30 });
    const dropped = await qryn.backend.runRetention();
    expect(dropped.some((d) => d.includes(new Date(Date.now() - 40 * day).toISOString().slice(0, 10)))).toBe(true);
    // Two windows, each within Loki's longest query range (721 h): the old line's days are gone, the recent one stays.
    const window = (fromDays: number, toDays: number) =>
      gw(`/loki/api/v1/query_range?query=${encodeURIComponent('{job="retention"}')}&start=${Date.now() - fromDays * day}000000&end=${Date.now() - toDays * day}000000`, { auth: qryn.basic });
    expect((await window(45, 16)).body.data.result).toEqual([]);
    expect((await window(20, 0)).body.data.result[0].values.map((v: string[]) => v[1])).toEqual(['recent line']);
    const metrics = await api('GET', 'integrations/qryn/metrics', { query: { start: 0, end: Math.floor(Date.now() / 1000) } });
    expect(metrics.body.retaning_data_logs).toBeGreaterThanOrEqual(Math.floor((Date.now() - 3 * day) / 1000));
  });
});

describe('malformed bodies of every protocol', () => {
  const protocols: { name: string; path: string; type: string; encoding?: string; body: fc.Arbitrary<Uint8Array | string> }[] = [
    {
      name: 'Loki JSON',
      path: '/loki/api/v1/push',
      type: 'application/json',
      body: fc.oneof(
        fc.string(),
        fc.json(),
        fc.record({ streams: fc.array(fc.record({ stream: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer())), values: fc.array(fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)))) })) }).map((v) => JSON.stringify(v)),
      ),
    },
    { name: 'Loki protobuf', path: '/loki/api/v1/push', type: 'application/x-protobuf', body: fc.oneof(fc.uint8Array(), fc.uint8Array().map((b) => new Uint8Array(compressSync(Buffer.from(b))))) },
    { name: 'remote write', path: '/api/v1/prom/remote/write', type: 'application/x-protobuf', body: fc.oneof(fc.uint8Array(), fc.uint8Array().map((b) => new Uint8Array(compressSync(Buffer.from(b))))) },
    { name: 'line protocol', path: '/api/v2/write', type: 'text/plain', body: fc.oneof(fc.string(), fc.stringMatching(/^[a-z,= "\\0-9.]{1,40}$/)) },
    { name: 'bulk', path: '/_bulk', type: 'application/x-ndjson', body: fc.oneof(fc.string(), fc.array(fc.json(), { minLength: 1 }).map((l) => l.join('\n'))) },
    { name: 'Zipkin', path: '/api/v2/spans', type: 'application/json', body: fc.oneof(fc.string(), fc.json(), fc.array(fc.record({ traceId: fc.string(), id: fc.string(), timestamp: fc.oneof(fc.integer(), fc.string()) })).map((v) => JSON.stringify(v))) },
    { name: 'OTLP JSON', path: '/v1/traces', type: 'application/json', body: fc.oneof(fc.string(), fc.json(), fc.record({ resourceSpans: fc.array(fc.record({ scopeSpans: fc.array(fc.record({ spans: fc.array(fc.record({ traceId: fc.string(), spanId: fc.string(), startTimeUnixNano: fc.oneof(fc.string(), fc.integer()) })) })) })) }).map((v) => JSON.stringify(v))) },
    { name: 'OTLP protobuf', path: '/v1/traces', type: 'application/x-protobuf', body: fc.uint8Array({ minLength: 1 }) },
  ];

  for (const protocol of protocols) {
    it(`${protocol.name}: a 4xx (never 5xx) for what is invalid, and nothing stored partially`, async () => {
      await fc.assert(
        fc.asyncProperty(protocol.body, async (body) => {
          const before = await storedRows();
          const answer = await gw(protocol.path, { auth: qryn.basic, type: protocol.type, body: typeof body === 'string' ? body : Buffer.from(body) });
          expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
          if (answer.status >= 400) expect(await storedRows()).toBe(before);
        }),
        { numRuns: 40 },
      );
    });
  }

  it('a batch with one bad entry after good ones stores none of it', async () => {
    const before = await storedRows();
    const body = JSON.stringify({ streams: [{ stream: { job: 'partial' }, values: [[nowNs(), 'good'], [nowNs(), 'good too']] }, { stream: { 'bad-label': 'x' }, values: [[nowNs(), 'bad']] }] });
    expect((await gw('/loki/api/v1/push', { auth: qryn.basic, type: 'application/json', body })).status).toBe(400);
    const lines = 'cpu,host=a usage=1 1700000000000000000\ncpu,host=a usage=oops';
    expect((await gw('/write', { auth: qryn.basic, type: 'text/plain', body: lines })).status).toBe(400);
    expect(await storedRows()).toBe(before);
  });
});

describe('release', () => {
  it('refuses the keys at once and drops the database with a job; a second release does nothing', async () => {
    const instance = (await findInstance(platform.db, qryn.instanceId))!;
    const client = await qryn.backend.storageOf(instance);
    const release = () => platform.db.transaction((tx) => qryn.backend.release(tx, { integrationId: instance.integration_id, projectId: instance.project_id }));
    await release();
    expect((await lokiPush({ app: 'x' }, 'after release')).status).toBe(401);
    await platform.jobs.drain();
    expect(await client.query(`SELECT name FROM system.databases WHERE name = '${instance.database_name}'`)).toEqual([]);
    await release();
  });
});
