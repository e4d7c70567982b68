import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { findInstance } from '../../server/products/qryn/instances/qryn-repository';
import { createMetricsQuerier } from '../../server/products/qryn/query/metrics-querier';
import { STALE_NAN, remoteWrite, remoteWriteBody, type GeneratedSeries } from './promql-samples';

// The Prometheus HTTP API of an instance beyond the PromQL corpus (tests/qryn/promql-reference.test.ts): what the
// metrics querier reads back (NaN, stale markers), RE2 matchers, match[] on labels and label values, series by
// the exact range, metadata from remote write, the calls Grafana makes (buildinfo, rules, alerts, exemplars,
// format_query), errors and limits in Prometheus' shapes.

let platform: TestPlatform;
let qryn: EnabledQryn;
let baseMs: number;

const seconds = (ms: number) => (ms / 1000).toFixed(3);
const range = () => ({ start: seconds(baseMs - 1_000), end: seconds(baseMs + 10 * 60_000) });

async function get(path: string, params: Record<string, string | string[]> = {}) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of Array.isArray(v) ? v : [v]) search.append(k, one);
  const response = await fetch(`${qryn.url}${path}?${search}`, { headers: { authorization: qryn.basic } });
  return { status: response.status, body: (await response.json()) as any };
}

function series(labels: Record<string, string>, values: number[], startMs: number, options: { staleAfter?: boolean } = {}): GeneratedSeries {
  const samples = values.map((value, i) => ({ value, timestamp: startMs + i * 15_000 }));
  // The marker goes straight into its sample object (see STALE_NAN).
  if (options.staleAfter) samples.push({ value: STALE_NAN, timestamp: startMs + values.length * 15_000 });
  return { labels, samples };
}

beforeAll(async () => {
  platform = await startTestPlatform();
  qryn = (await enableQrynOnSeededProject(platform, 'Acme Staging')).qryn;
  baseMs = Math.floor((Date.now() - 30 * 60_000) / 60_000) * 60_000 + 1_000;
  const data = [
    series({ __name__: 'nan_gauge', job: 'x' }, [1, NaN, 3, Infinity, -Infinity, 6], baseMs),
    series({ __name__: 'ended', job: 'x' }, [1, 2, 3], baseMs, { staleAfter: true }),
    series({ __name__: 'up', job: 'NODE', instance: 'n1' }, [1, 1], baseMs),
    series({ __name__: 'up', job: 'node', instance: 'n2' }, [1, 1], baseMs),
    series({ __name__: 'up', job: 'api', instance: 'a1' }, [1, 1], baseMs),
    series({ __name__: 'other_metric', job: 'api', only_here: 'yes' }, [5, 6], baseMs),
    // Early in the range only: the exact-range calls must leave it out of a later window on the same day.
    series({ __name__: 'early_metric', job: 'api' }, [1, 2], baseMs - 20 * 60_000),
  ];
  const metadata = [
    { type: 1, metricFamilyName: 'http_requests_total', help: 'Requests served.', unit: '' },
    { type: 2, metricFamilyName: 'nan_gauge', help: 'A gauge with NaN.', unit: 'ratio' },
  ];
  await remoteWrite(`${qryn.url}/api/v1/prom/remote/write`, remoteWriteBody(data, metadata), qryn.basic);
});

afterAll(async () => {
  await platform?.stop();
});

describe('the metrics querier', () => {
  it('reads NaN, ±Inf and stale markers back exactly as written', async () => {
    const instance = (await findInstance(platform.db, qryn.instanceId))!;
    const store = createMetricsQuerier(await qryn.backend.storageOf(instance), instance.database_name);
    const hints = { startMs: baseMs - 1, endMs: baseMs + 10 * 60_000, stepMs: 0 };
    const [nan] = await store.querier.select([{ name: '__name__', op: '=', value: 'nan_gauge' }], hints);
    expect(Array.from(nan.values)).toEqual([1, NaN, 3, Infinity, -Infinity, 6]);
    expect(nan.stale).toBeUndefined();
    const [ended] = await store.querier.select([{ name: '__name__', op: '=', value: 'ended' }], hints);
    expect(Array.from(ended.timestampsMs)).toEqual([0, 1, 2, 3].map((i) => baseMs + i * 15_000));
    expect(Array.from(ended.stale ?? [])).toEqual([0, 0, 0, 1]);
  });

  it('selects with RE2 regexes, (?i) included, and reads only the window asked for', async () => {
    const instance = (await findInstance(platform.db, qryn.instanceId))!;
    const store = createMetricsQuerier(await qryn.backend.storageOf(instance), instance.database_name);
    const found = await store.querier.select([{ name: '__name__', op: '=', value: 'up' }, { name: 'job', op: '=~', value: '(?i)node' }], { startMs: baseMs + 10_000, endMs: baseMs + 20_000, stepMs: 0 });
    expect(found.map((s) => s.labels.instance).sort()).toEqual(['n1', 'n2']);
    expect(found.every((s) => s.timestampsMs.length === 1 && s.timestampsMs[0] === baseMs + 15_000)).toBe(true);
  });

  it('with the step-window pushdown (the default), reads only the samples inside some step\'s window', async () => {
    const instance = (await findInstance(platform.db, qryn.instanceId))!;
    const client = await qryn.backend.storageOf(instance);
    const matchers = [{ name: '__name__', op: '=' as const, value: 'nan_gauge' }];
    // A range query with steps at 45 s and 95 s, rate over 20 s: the engine asks for [25 s, 95 s].
    const hints = { startMs: baseMs + 25_000, endMs: baseMs + 95_000, stepMs: 50_000, func: 'rate', rangeMs: 20_000 };
    const on = await createMetricsQuerier(client, instance.database_name).querier.select(matchers, hints);
    const off = await createMetricsQuerier(client, instance.database_name, { stepWindowPushdown: false }).querier.select(matchers, hints);
    // Windows [25 s, 45 s] and [75 s, 95 s]: the sample at 60 s is in neither.
    expect(Array.from(off[0].timestampsMs).map((t) => (t - baseMs) / 1000)).toEqual([30, 45, 60, 75]);
    expect(Array.from(on[0].timestampsMs).map((t) => (t - baseMs) / 1000)).toEqual([30, 45, 75]);
  });
});

describe('query and query_range', () => {
  it('answers NaN and ±Inf as Prometheus writes them, not null', async () => {
    const answer = await get('/api/v1/query_range', { query: 'nan_gauge', start: seconds(baseMs), end: seconds(baseMs + 75_000), step: '15' });
    expect(answer.status).toBe(200);
    expect(answer.body.data.result[0].values.map((v: [number, string]) => v[1])).toEqual(['1', 'NaN', '3', '+Inf', '-Inf', '6']);
  });

  it('ends a series at its stale marker, where a plain NaN would keep it for the lookback', async () => {
    const after = await get('/api/v1/query', { query: 'ended', time: seconds(baseMs + 50_000) });
    expect(after.body).toMatchObject({ status: 'success', data: { resultType: 'vector', result: [] } });
    const before = await get('/api/v1/query', { query: 'ended', time: seconds(baseMs + 40_000) });
    expect(before.body.data.result).toEqual([{ metric: { __name__: 'ended', job: 'x' }, value: [(baseMs + 40_000) / 1000, '3'] }]);
  });

  it('accepts RE2 regexes that JavaScript refuses', async () => {
    const answer = await get('/api/v1/query', { query: 'up{job=~"(?i)NODE"}', time: seconds(baseMs + 20_000) });
    expect(answer.status).toBe(200);
    expect(answer.body.data.result.map((r: { metric: { instance: string } }) => r.metric.instance).sort()).toEqual(['n1', 'n2']);
  });

  it('answers errors as Prometheus: 400 bad_data, 422 execution, 503 timeout; and the points limit', async () => {
    expect((await get('/api/v1/query', { query: 'sum(' })).body).toMatchObject({ status: 'error', errorType: 'bad_data' });
    expect((await get('/api/v1/query', { query: 'sum(' })).status).toBe(400);
    expect((await get('/api/v1/query', { query: 'up', time: 'yesterday' })).status).toBe(400);
    const range = await get('/api/v1/query_range', { query: 'up', start: '100', end: '50', step: '15' });
    expect(range).toMatchObject({ status: 400, body: { errorType: 'bad_data' } });
    const points = await get('/api/v1/query_range', { query: 'up', start: '0', end: '100000', step: '1' });
    expect(points.status).toBe(400);
    expect(points.body.error).toContain('exceeded maximum resolution of 11,000 points per timeseries');
    // Several series on each side of a one-to-one match: an execution error (422).
    const duplicate = await get('/api/v1/query', { query: 'up / on() up', time: seconds(baseMs + 20_000) });
    expect(duplicate).toMatchObject({ status: 422, body: { status: 'error', errorType: 'execution' } });
    const timedOut = await get('/api/v1/query_range', { query: 'sum(rate(up[5m]))', start: seconds(baseMs), end: seconds(baseMs + 600_000), step: '1', timeout: '1ms' });
    expect(timedOut).toMatchObject({ status: 503, body: { status: 'error', errorType: 'timeout' } });
  });

  it('formats a query (format_query)', async () => {
    expect((await get('/api/v1/format_query', { query: 'sum  by(job)(rate(up[5m]))' })).body).toEqual({ status: 'success', data: 'sum by (job) (rate(up[5m]))' });
  });
});

describe('labels, label values and series', () => {
  it('filters label names and values by match[]', async () => {
    const all = await get('/api/v1/labels', range());
    expect(all.body.data).toContain('only_here');
    const names = await get('/api/v1/labels', { ...range(), 'match[]': 'up' });
    expect(names.body.data).toEqual(['__name__', 'instance', 'job']);
    const values = await get('/api/v1/label/job/values', { ...range(), 'match[]': ['up{job=~"(?i)node"}', 'other_metric'] });
    expect(values.body.data).toEqual(['NODE', 'api', 'node']);
  });

  it('answers series with a sample in the exact range (not the whole day), sorted', async () => {
    const later = await get('/api/v1/series', { ...range(), 'match[]': '{job="api"}' });
    expect(later.body.data).toEqual([
      { __name__: 'other_metric', job: 'api', only_here: 'yes' },
      { __name__: 'up', instance: 'a1', job: 'api' },
    ]);
    const earlier = await get('/api/v1/series', { start: seconds(baseMs - 21 * 60_000), end: seconds(baseMs - 19 * 60_000), 'match[]': '{job="api"}' });
    expect(earlier.body.data).toEqual([{ __name__: 'early_metric', job: 'api' }]);
    expect((await get('/api/v1/series', range())).body).toMatchObject({ status: 'error', errorType: 'bad_data', error: 'no match[] parameter provided' });
  });
});

describe('the other calls Grafana makes', () => {
  it('stores metadata from remote write and answers /api/v1/metadata', async () => {
    const answer = await get('/api/v1/metadata');
    expect(answer.body).toEqual({
      status: 'success',
      data: {
        http_requests_total: [{ type: 'counter', help: 'Requests served.', unit: '' }],
        nan_gauge: [{ type: 'gauge', help: 'A gauge with NaN.', unit: 'ratio' }],
      },
    });
    expect((await get('/api/v1/metadata', { metric: 'nan_gauge' })).body.data).toEqual({ nan_gauge: [{ type: 'gauge', help: 'A gauge with NaN.', unit: 'ratio' }] });
    expect(Object.keys((await get('/api/v1/metadata', { limit: '1' })).body.data)).toEqual(['http_requests_total']);
  });

  it('answers buildinfo with the version whose features are implemented, and empty rules, alerts and exemplars', async () => {
    expect((await get('/api/v1/status/buildinfo')).body.data.version).toBe('2.42.0');
    expect((await get('/api/v1/rules')).body).toEqual({ status: 'success', data: { groups: [] } });
    expect((await get('/api/v1/alerts')).body).toEqual({ status: 'success', data: { alerts: [] } });
    expect((await get('/api/v1/query_exemplars', { query: 'up', ...range() })).body).toEqual({ status: 'success', data: [] });
    expect((await get('/api/v1/status/runtimeinfo')).body.data).toMatchObject({ storageRetention: '30d' });
  });
});
