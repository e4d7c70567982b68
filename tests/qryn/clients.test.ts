import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import winston from 'winston';
import LokiTransport from 'winston-loki';
import { pushTimeseries } from 'prometheus-remote-write';
import { InfluxDB, Point } from '@influxdata/influxdb-client';
import { OTLPTraceExporter as OtlpHttpExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { TracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, eventually, type EnabledQryn } from '../support/qryn';
import { startRecordingProxy } from '../support/recording-proxy';

// Real client libraries, written by others, push to the gateway each through its own protocol; their data must
// then be counted by GET integrations/qryn/metrics and found by a read (Loki or Prometheus query_range).

let platform: TestPlatform;
let qryn: EnabledQryn;
let ownerToken: string;

const monthStart = () => {
  const now = new Date();
  return Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000);
};

async function metrics() {
  const response = await fetch(
    `${platform.url}/api/integrations/qryn/metrics?project_id=${qryn.projectId}&start=${monthStart()}&end=${Math.floor(Date.now() / 1000) + 60}`,
    { headers: { authorization: `Bearer ${ownerToken}` } },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, number>;
}

async function read(path: string, params: Record<string, string>) {
  const response = await fetch(`${qryn.url}${path}?${new URLSearchParams(params)}`, { headers: { authorization: qryn.basic } });
  const body = (await response.json()) as { status: string; data: any };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.data;
}

const logLines = async (query: string) => {
  const data = await read('/loki/api/v1/query_range', { query, limit: '1000', start: String(Date.now() - 3_600_000) + '000000', end: String(Date.now() + 60_000) + '000000' });
  expect(data.resultType).toBe('streams');
  return (data.result as { stream: Record<string, string>; values: [string, string][] }[]).flatMap((s) => s.values.map((v) => ({ stream: s.stream, line: v[1] })));
};

const matrix = async (query: string) => {
  const now = Math.floor(Date.now() / 1000);
  const data = await read('/api/v1/query_range', { query, start: String(now - 600), end: String(now + 60), step: '15' });
  expect(data.resultType).toBe('matrix');
  return data.result as { metric: Record<string, string>; values: [number, string][] }[];
};

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ qryn, ownerToken } = await enableQrynOnSeededProject(platform, 'Acme Production'));
});

afterAll(async () => {
  await platform?.stop();
});

describe('real clients push to the qryn gateway', () => {
  it('winston-loki sends Loki protobuf compressed with snappy, and its lines are counted and read back', async () => {
    const proxy = await startRecordingProxy(platform.url);
    const errors: unknown[] = [];
    const transport = new LokiTransport({
      host: `${proxy.url}/qryn/${qryn.instanceId}`,
      basicAuth: `${qryn.apiKey}:${qryn.apiSecret}`,
      labels: { app: 'winston-proto' },
      json: false,
      batching: false,
      onConnectionError: (error: unknown) => errors.push(error),
    });
    const logger = winston.createLogger({ transports: [transport] });
    const before = (await metrics()).logs_rows;
    for (let i = 0; i < 5; i++) logger.info(`protobuf line ${i}`);
    const lines = await eventually(async () => {
      const found = await logLines('{app="winston-proto"}');
      return found.length === 5 ? found : undefined;
    });
    expect(lines.map((l) => l.line).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `protobuf line ${i} {"level":"info"}`));
    expect(lines[0].stream).toMatchObject({ app: 'winston-proto', level: 'info' });
    expect(proxy.requests.length).toBeGreaterThan(0);
    for (const request of proxy.requests) {
      expect(request.contentType).toBe('application/x-protobuf');
      expect(request.status).toBe(204);
    }
    expect(errors).toEqual([]);
    expect((await metrics()).logs_rows).toBe(before + 5);
    logger.close();
    await proxy.close();
  });

  it('winston-loki in JSON mode', async () => {
    const proxy = await startRecordingProxy(platform.url);
    const transport = new LokiTransport({ host: `${proxy.url}/qryn/${qryn.instanceId}`, basicAuth: `${qryn.apiKey}:${qryn.apiSecret}`, labels: { app: 'winston-json' }, json: true, batching: false });
    const logger = winston.createLogger({ transports: [transport] });
    logger.warn('json line with "quotes" and ünïcode');
    const lines = await eventually(async () => {
      const found = await logLines('{app="winston-json"} |= "quotes"');
      return found.length === 1 ? found : undefined;
    });
    // winston-loki's JSON mode appends the entry's metadata to the line.
    expect(lines[0].line).toBe('json line with "quotes" and ünïcode {"level":"warn"}');
    expect(proxy.requests.every((r) => r.contentType.startsWith('application/json') && r.status === 204)).toBe(true);
    logger.close();
    await proxy.close();
  });

  it('prometheus-remote-write pushes samples that Prometheus query_range reads', async () => {
    const before = await metrics();
    const now = Date.now();
    const result = await pushTimeseries(
      [
        { labels: { __name__: 'queue_depth', job: 'workers', instance: 'a' }, samples: [{ value: 3, timestamp: now - 30_000 }, { value: 7, timestamp: now }] },
        { labels: { __name__: 'queue_depth', job: 'workers', instance: 'b' }, samples: [{ value: 1.5, timestamp: now }] },
      ],
      { url: `${qryn.url}/api/v1/prom/remote/write`, auth: { username: qryn.apiKey, password: qryn.apiSecret }, fetch: fetch as never /* Node's fetch; the package would load node-fetch */ },
    );
    expect(result.status).toBe(204);
    const series = await matrix('queue_depth{job="workers", instance=~"a|b"}');
    expect(series.map((s) => s.metric.instance).sort()).toEqual(['a', 'b']);
    const a = series.find((s) => s.metric.instance === 'a')!;
    expect(a.values.at(-1)![1]).toBe('7');
    const after = await metrics();
    expect(after.metrics_rows).toBe(before.metrics_rows + 3);
    expect(after.unique_metric_series_count).toBe(before.unique_metric_series_count + 2);
    const labels = await read('/api/v1/labels', {});
    expect(labels).toEqual(expect.arrayContaining(['__name__', 'instance', 'job']));
    const found = await read('/api/v1/series', { 'match[]': 'queue_depth{instance="b"}' });
    expect(found).toEqual([{ __name__: 'queue_depth', instance: 'b', job: 'workers' }]);
  });

  it('the official InfluxDB client writes line protocol', async () => {
    const before = await metrics();
    const writeApi = new InfluxDB({ url: qryn.url, token: `${qryn.apiKey}:${qryn.apiSecret}` }).getWriteApi('org', 'bucket', 'ms');
    writeApi.writePoint(new Point('cpu').tag('host', 'server 1').floatField('usage_idle', 92.5).intField('cores', 4).timestamp(new Date()));
    writeApi.writePoint(new Point('events').tag('host', 'server 1').stringField('message', 'disk almost full').timestamp(new Date()));
    await writeApi.close();
    const usage = await matrix('cpu_usage_idle{host="server 1"}');
    expect(usage[0].values.at(-1)![1]).toBe('92.5');
    expect((await matrix('cpu_cores'))[0].values.at(-1)![1]).toBe('4');
    expect((await logLines('{measurement="events"}')).map((l) => l.line)).toEqual(['disk almost full']);
    const after = await metrics();
    expect(after.metrics_rows).toBe(before.metrics_rows + 2);
    expect(after.logs_rows).toBe(before.logs_rows + 1);
  });

  for (const [name, Exporter] of [
    ['@opentelemetry/exporter-trace-otlp-http (JSON)', OtlpHttpExporter],
    ['@opentelemetry/exporter-trace-otlp-proto (protobuf)', OtlpProtoExporter],
  ] as const) {
    it(`${name} exports spans over OTLP/HTTP`, async () => {
      const proxy = await startRecordingProxy(platform.url);
      const before = await metrics();
      const exporter = new Exporter({ url: `${proxy.url}/qryn/${qryn.instanceId}/v1/traces`, headers: { authorization: qryn.basic } });
      const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
      const tracer = provider.getTracer('clients-test');
      const parent = tracer.startSpan('checkout');
      parent.setAttribute('cart.items', 3);
      parent.end();
      tracer.startSpan('payment').end();
      await provider.forceFlush();
      await provider.shutdown();
      expect(proxy.requests.length).toBeGreaterThan(0);
      for (const request of proxy.requests) {
        expect(request.contentType).toBe(Exporter === OtlpProtoExporter ? 'application/x-protobuf' : 'application/json');
        expect(request.status).toBe(200);
      }
      const after = await metrics();
      expect(after.traces_rows).toBe(before.traces_rows + 2);
      expect(after.traces_count).toBe(before.traces_count + 2);
      expect(after.traces_bytes).toBeGreaterThan(0);
      expect(after.retaning_data_traces).toBe(Math.floor(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) / 1000));
      await proxy.close();
    });
  }

  it('the stats add up: bytes per type, fingerprints, rotation point', async () => {
    const m = await metrics();
    expect(m.logs_bytes).toBeGreaterThan(0);
    expect(m.metrics_bytes).toBeGreaterThan(0);
    expect(m.bytes_count).toBeGreaterThanOrEqual(m.logs_bytes + m.metrics_bytes + m.traces_bytes);
    expect(m.metrics_and_logs_count).toBe(m.logs_rows + m.metrics_rows);
    // winston-proto, winston-json (level warn), queue_depth a/b, cpu_usage_idle, cpu_cores, events: 7 series.
    expect(m.fingerprints).toBe(7);
    expect(m.rotation_point).toBe(Math.min(m.retaning_data_logs as number, m.retaning_data_traces as number));
    // The default stored-bytes quota (QRYN_MAX_STORED_BYTES unset), against the bytes stored.
    expect(m.size_limit).toBe(10_000_000_000);
    expect(m.size_limit_reached).toBe(false);
  });
});
