import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compressSync } from 'snappy';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { PromWriteRequest } from '../../server/products/qryn/ingest/protos';
import { createGateway } from '../../server/products/qryn/gateway/gateway';
import { DEFAULT_GATEWAY_LIMITS, gatewayLimits, type GatewayLimits } from '../../server/products/qryn/gateway/gateway-limits';
import type { Writer } from '../../server/products/qryn/ingest/writer';
import { findInstance } from '../../server/products/qryn/instances/qryn-repository';
import { measureStoredBytes } from '../../server/products/qryn/gateway/stored-bytes';

// The gateway's limits: bytes in flight per instance and overall with the storage stalled (429/503 before memory
// goes), series per push, samples per second, failed sign-ins per credential and address, and bad input that used
// to give 500/503 (bad percent-encoding, times out of range, a query over the documented length).

let platform: TestPlatform;
let qryn: EnabledQryn;

beforeAll(async () => {
  platform = await startTestPlatform();
  qryn = (await enableQrynOnSeededProject(platform, 'Acme Staging')).qryn;
});
afterAll(async () => platform?.stop());

/** A second gateway over the platform's database and storage, with its own limits and writer, on a free port. */
async function gatewayWith(limits: Partial<GatewayLimits>, writer?: Partial<Writer>): Promise<{ url: string; close(): Promise<void> }> {
  const gateway = createGateway({
    db: platform.db,
    writer: { ...qryn.backend.writer, ...writer } as Writer,
    storage: (instance) => qryn.backend.storageOf(instance),
    nowMs: () => Date.now(),
    log: () => undefined,
    limits: { ...DEFAULT_GATEWAY_LIMITS, ...limits },
  });
  const server: Server = createServer((req, res) => void gateway.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/qryn/${qryn.instanceId}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const lokiBody = (streams: number, linesEach: number, pad = 0) =>
  JSON.stringify({
    streams: Array.from({ length: streams }, (_, s) => ({
      stream: { app: 'limits', n: String(s) },
      values: Array.from({ length: linesEach }, (_, i) => [`${Date.now()}${String(i).padStart(6, '0')}`, `line ${i} ${'x'.repeat(pad)}`]),
    })),
  });

const push = (url: string, body: string, auth = qryn.basic, signal?: AbortSignal) =>
  fetch(`${url}/loki/api/v1/push`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body, signal });

describe('bytes in flight', () => {
  it('with the storage stalled, pushes past the instance share get 429 and past the overall bound 503, at once', async () => {
    const stalled = new Promise<void>(() => undefined);
    const gw = await gatewayWith({ instanceInflightBytes: 1_000_000, inflightBytes: 1_500_000 }, { write: () => stalled });
    try {
      const body = lokiBody(1, 10, 60_000); // ~600 kB
      const held = push(gw.url, body).catch(() => undefined);
      // The first push is held by the stalled write; the next ones are answered at once.
      await new Promise((r) => setTimeout(r, 300));
      const second = await push(gw.url, body, qryn.basic, AbortSignal.timeout(5000));
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toBe('1');
      expect((await second.json()).message).toMatch(/too much data being written/);
      void held;
    } finally {
      await gw.close();
    }
    const overall = await gatewayWith({ instanceInflightBytes: 10_000_000, inflightBytes: 1_000_000 }, { write: () => stalled });
    try {
      const body = lokiBody(1, 10, 60_000);
      void push(overall.url, body).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
      expect((await push(overall.url, body, qryn.basic, AbortSignal.timeout(5000))).status).toBe(503);
    } finally {
      await overall.close();
    }
  });

  it('gives the bytes back when a push ends: later pushes are accepted again', async () => {
    let release: () => void = () => undefined;
    const gw = await gatewayWith({ instanceInflightBytes: 1_000_000 }, { write: () => new Promise<void>((resolve) => (release = resolve)) });
    try {
      const body = lokiBody(1, 10, 60_000);
      const first = push(gw.url, body);
      await new Promise((r) => setTimeout(r, 300));
      expect((await push(gw.url, body)).status).toBe(429);
      release();
      expect((await first).status).toBe(204);
      const third = push(gw.url, body);
      await new Promise((r) => setTimeout(r, 300));
      release();
      expect((await third).status).toBe(204);
    } finally {
      await gw.close();
    }
  });
});

describe('per-instance limits', () => {
  it('a push with more series than allowed, or more samples than the burst, is refused whole with 429', async () => {
    const gw = await gatewayWith({ seriesPerPush: 5, samplesBurst: 20, samplesPerSecond: 1 });
    try {
      const many = await push(gw.url, lokiBody(6, 1));
      expect(many.status).toBe(429);
      expect((await many.json()).message).toMatch(/at most 5 distinct series/);
      expect((await push(gw.url, lokiBody(1, 21))).status).toBe(429);
      // Within the burst it passes, then the bucket is empty until it refills (1 per second).
      expect((await push(gw.url, lokiBody(1, 15))).status).toBe(204);
      const over = await push(gw.url, lokiBody(1, 10));
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await gw.close();
    }
  });

  it('the shipped defaults refuse a push of 50,000 new series', async () => {
    expect(DEFAULT_GATEWAY_LIMITS.seriesPerPush).toBeLessThan(50_000);
    const response = await push(qryn.url, lokiBody(50_000, 1));
    expect(response.status).toBe(429);
  });

  it('reads its limits from the environment, refusing a malformed one by name', () => {
    expect(gatewayLimits({ QRYN_SERIES_PER_PUSH: '7' }).seriesPerPush).toBe(7);
    expect(() => gatewayLimits({ QRYN_INFLIGHT_BYTES: 'lots' })).toThrow(/QRYN_INFLIGHT_BYTES/);
  });
});

describe('failed sign-ins', () => {
  it('past the allowance a credential is answered 429 for the window; a credential that signed in lately still passes', async () => {
    const gw = await gatewayWith({ failedLogins: 3, failedLoginWindowMs: 60_000 });
    try {
      const labels = (auth: string) => fetch(`${gw.url}/loki/api/v1/labels`, { headers: { authorization: auth } });
      expect((await labels(qryn.basic)).status).toBe(200);
      const wrong = `Basic ${Buffer.from(`${qryn.apiKey}:wrong`).toString('base64')}`;
      for (let i = 0; i < 3; i++) expect((await labels(wrong)).status).toBe(401);
      const throttled = await labels(wrong);
      expect(throttled.status).toBe(429);
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await labels(`Bearer guess-${Math.random()}`)).status).toBe(429); // the address is throttled too
      expect((await labels(qryn.basic)).status).toBe(200);
    } finally {
      await gw.close();
    }
  });
});

describe('bad input is 400 or 413 with a reason, never 500/503', () => {
  const get = async (path: string) => {
    const response = await fetch(`${qryn.url}${path}`, { headers: { authorization: qryn.basic } });
    // JSON from the gateway and the Prometheus API; Loki's query calls answer their errors as plain text.
    const text = await response.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // plain text
    }
    return { status: response.status, body };
  };

  it('bad percent-encoding in the path', async () => {
    for (const path of ['/loki/api/v1/label/%ZZ/values', '/api/v1/label/%ZZ/values']) {
      const response = await get(path);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/not valid/);
    }
    const bulk = await fetch(`${qryn.url}/%ZZ/_bulk`, { method: 'POST', headers: { authorization: qryn.basic, 'content-type': 'application/x-ndjson' }, body: '{"index":{}}\n{"a":1}\n' });
    expect(bulk.status).toBe(400);
  });

  it('times out of range', async () => {
    const query = encodeURIComponent('{app="limits"}');
    // Loki reads 13 digits and more as nanoseconds: 99999999999999 ns is a valid time there.
    for (const extra of ['end=9999999999999999999999', 'start=-99999999999999', 'start=-1']) {
      const loki = await get(`/loki/api/v1/query_range?query=${query}&${extra}`);
      expect(loki.status, extra).toBe(400);
      // Loki answers its errors as plain text.
      expect(String(typeof loki.body === 'string' ? loki.body : loki.body?.message), extra).toMatch(/out of range/);
    }
    // query_range needs both ends: each case gives one that is out of range.
    for (const extra of ['start=0&end=99999999999999', 'start=-99999999999999&end=600']) {
      const prom = await get(`/api/v1/query_range?query=up&step=60&${extra}`);
      expect(prom.status, extra).toBe(400);
      expect(prom.body.error).toMatch(/out of range/);
    }
    // A step longer than the range is one point, as Prometheus answers it; never a server error.
    expect((await get('/api/v1/query_range?query=up&start=0&end=600&step=9000000000')).status).toBe(200);
    // A step whose nanoseconds overflow int64 is Prometheus' 400, never a server error.
    const overflow = await get('/api/v1/query_range?query=up&start=0&end=600&step=99999999999999');
    expect(overflow.status).toBe(400);
    expect(overflow.body.error).toMatch(/overflows int64/);
  });

  it('a selector with 3,000 matchers is over the documented length: 413 before any read runs', async () => {
    const selector = `{${Array.from({ length: 3000 }, (_, i) => `l${i}="v"`).join(',')}}`;
    // Too long for a URL (the server's header limit answers 431): clients send it form-encoded.
    const response = await fetch(`${qryn.url}/loki/api/v1/query_range`, {
      method: 'POST',
      headers: { authorization: qryn.basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: selector }).toString(),
    });
    expect(response.status).toBe(413);
    expect((await response.json()).message).toMatch(/queries of at most 4096 characters are accepted/);
    // Just under the bound the query runs (no 503 from a statement too large for the storage).
    const under = `{${Array.from({ length: 1700 }, (_, i) => `l${i}="v"`).join(',')}}`.slice(0, 4_090).replace(/,[^,]*$/, '}');
    expect(under.length).toBeGreaterThan(4_000);
    const fits = await fetch(`${qryn.url}/loki/api/v1/query_range`, {
      method: 'POST',
      headers: { authorization: qryn.basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: under }).toString(),
    });
    expect(fits.status, await fits.clone().text()).toBe(200);
    // In the query string the same bound applies, per parameter.
    const gw = await gatewayWith({ maxQueryLength: 1000 });
    try {
      const long = await fetch(`${gw.url}/api/v1/query?query=${encodeURIComponent(selector.slice(0, 2000))}`, { headers: { authorization: qryn.basic } });
      expect(long.status).toBe(413);
      expect((await long.json()).message).toMatch(/"query" is 2000 characters long; at most 1000/);
    } finally {
      await gw.close();
    }
  });
});

describe('Prometheus label names that are Object.prototype members', () => {
  it('constructor, toString and __proto__ are ordinary labels: the remote write is stored', async () => {
    const ts = String(Date.now());
    const body = compressSync(
      Buffer.from(
        PromWriteRequest.encode(
          PromWriteRequest.fromObject({
            timeseries: [
              {
                labels: [
                  { name: '__name__', value: 'proto_names' },
                  { name: '__proto__', value: 'p' },
                  { name: 'constructor', value: 'c' },
                  { name: 'toString', value: 't' },
                ],
                samples: [{ value: 1, timestamp: ts }],
              },
            ],
          }),
        ).finish(),
      ),
    );
    const response = await fetch(`${qryn.url}/api/v1/prom/remote/write`, { method: 'POST', headers: { authorization: qryn.basic, 'content-type': 'application/x-protobuf' }, body: new Uint8Array(body) });
    expect(response.status).toBe(204);
    const instance = (await findInstance(platform.db, qryn.instanceId))!;
    const client = await qryn.backend.storageOf(instance);
    const rows = await client.query<{ labels: string }>(`SELECT labels FROM ${instance.database_name}.time_series WHERE labels LIKE '%proto_names%'`);
    // Compared as entries: an object literal cannot hold an own "__proto__" key.
    expect(Object.entries(JSON.parse(rows[0].labels)).sort()).toEqual([['__name__', 'proto_names'], ['__proto__', 'p'], ['constructor', 'c'], ['toString', 't']]);
  });
});

describe('stored-bytes quota', () => {
  // Last in the file: it drops the instance's partitions to bring it back under the quota.
  it('pushes until over a tiny quota: every write path gets 429 before storing, reads work, and under it again writes are accepted', async () => {
    const instance = (await findInstance(platform.db, qryn.instanceId))!;
    const client = await qryn.backend.storageOf(instance);
    const before = await measureStoredBytes(client, instance.database_name);
    const refreshMs = 150;
    // One byte above what is stored now: the next push is accepted and takes the instance over.
    const gw = await gatewayWith({ maxStoredBytes: before + 1, storedBytesRefreshMs: refreshMs });
    const auth = { authorization: qryn.basic };
    const lines = async (like: string) =>
      Number((await client.query<{ n: string }>(`SELECT count() AS n FROM ${instance.database_name}.log_samples WHERE line LIKE '${like}'`))[0].n);
    try {
      const line = (n: number) => JSON.stringify({ streams: [{ stream: { app: 'quota' }, values: [[`${Date.now()}000000`, `quota-line ${n}`]] }] });
      expect((await push(gw.url, line(1))).status).toBe(204);
      expect(await measureStoredBytes(client, instance.database_name)).toBeGreaterThan(before + 1);
      // Under the quota a stale figure is refreshed in the background while the push goes on: the push after the
      // interval may still pass on the old figure; the one after that sees the new one.
      let refused: Response | undefined;
      let accepted = 1;
      for (let n = 2; n <= 4 && !refused; n++) {
        await new Promise((r) => setTimeout(r, refreshMs + 50));
        const response = await push(gw.url, line(n));
        if (response.status === 204) accepted++;
        else refused = response;
      }
      expect(accepted).toBeLessThanOrEqual(2);
      expect(refused?.status).toBe(429);
      expect((await refused!.json()).message).toMatch(/^This instance stores \d+ bytes, over its quota of \d+ bytes: pushes are refused until retention or deletion brings it under \(reads keep working\)\.$/);
      // Every write path: remote write, Influx, Zipkin, OTLP, bulk.
      const others: [string, string, string][] = [
        ['/api/v1/prom/remote/write', 'application/x-protobuf', 'x'],
        ['/write', 'text/plain', 'cpu,host=a value=1'],
        ['/api/v2/spans', 'application/json', '[]'],
        ['/v1/traces', 'application/json', '{"resourceSpans":[]}'],
        ['/_bulk', 'application/x-ndjson', '{"index":{}}\n{"message":"m"}\n'],
      ];
      for (const [path, type, body] of others) {
        const response = await fetch(`${gw.url}${path}`, { method: 'POST', headers: { ...auth, 'content-type': type }, body });
        expect(response.status, path).toBe(429);
      }
      expect(await lines('quota-line %')).toBe(accepted);

      // Reads keep working.
      const read = await fetch(`${gw.url}/loki/api/v1/query_range?query=${encodeURIComponent('{app="quota"}')}&start=${Date.now() - 3_600_000}000000&end=${Date.now() + 60_000}000000`, { headers: auth });
      expect(read.status).toBe(200);
      expect(JSON.stringify(await read.json())).toContain('quota-line 1');
      expect((await fetch(`${gw.url}/api/v1/labels`, { headers: auth })).status).toBe(200);

      // Deletion brings it under (as retention does: whole partitions dropped): the next push is accepted.
      const partitions = await client.query<{ table: string; partition: string }>(
        `SELECT DISTINCT table, partition FROM system.parts WHERE database = '${instance.database_name}' AND active`,
      );
      for (const p of partitions) await client.command(`ALTER TABLE ${instance.database_name}.${p.table} DROP PARTITION '${p.partition}'`);
      await new Promise((r) => setTimeout(r, refreshMs + 50));
      expect((await push(gw.url, line(3))).status).toBe(204);
      expect(await lines('quota-line 3')).toBe(1);
    } finally {
      await gw.close();
    }
  });
});
