import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { CASES, generate, type Entry, type GenLine, type Labels, type Sample } from './logql-corpus.data';

// The LogQL corpus against a qryn instance: known lines pushed through Loki's push API, every query asked through
// query_range and query, each answer compared exactly with the one computed from the lines' known fields.

const S = 1_000_000_000n;
let platform: TestPlatform;
let qryn: EnabledQryn;
let lines: GenLine[];
let t0: bigint;
let start: bigint;
let end: bigint;
let instantAt: bigint;

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ qryn } = await enableQrynOnSeededProject(platform, 'Acme Staging'));
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  t0 = (nowNs / (60n * S)) * 60n * S - 40n * 60n * S;
  start = t0 - 2n * 60n * S;
  end = t0 + 28n * 60n * S;
  instantAt = t0 + 20n * 60n * S + 500_000_000n;
  lines = generate(t0);
  const byStream = new Map<string, { stream: Labels; values: [string, string][] }>();
  for (const g of lines) {
    const k = JSON.stringify(g.stream);
    const s = byStream.get(k) ?? { stream: g.stream, values: [] };
    s.values.push([g.ts.toString(), g.line]);
    byStream.set(k, s);
  }
  const response = await fetch(`${qryn.url}/loki/api/v1/push`, {
    method: 'POST',
    headers: { authorization: qryn.basic, 'content-type': 'application/json' },
    body: JSON.stringify({ streams: [...byStream.values()] }),
  });
  expect(response.status).toBe(204);
}, 60_000);
afterAll(async () => platform?.stop());

async function ask(path: string, params: Record<string, string>) {
  const response = await fetch(`${qryn.url}${path}?${new URLSearchParams(params)}`, { headers: { authorization: qryn.basic } });
  const text = await response.text();
  return { status: response.status, text, body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
}

/** Prometheus' order of label sets: name by name, value by value, the shorter first. */
function compareLabels(a: Labels, b: Labels): number {
  const x = Object.entries(a).sort(([p], [q]) => (p < q ? -1 : 1));
  const y = Object.entries(b).sort(([p], [q]) => (p < q ? -1 : 1));
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i][0] !== y[i][0]) return x[i][0] < y[i][0] ? -1 : 1;
    if (x[i][1] !== y[i][1]) return x[i][1] < y[i][1] ? -1 : 1;
  }
  return x.length - y.length;
}
const sortKeys = (l: Labels) => Object.fromEntries(Object.entries(l).sort(([p], [q]) => (p < q ? -1 : 1)));
const streamName = (l: Labels) => `{${Object.entries(sortKeys(l)).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}}`;
const seconds = (ns: bigint) => Number(ns / 1_000_000n) / 1000;
function fmt(v: number): string {
  const s = String(v);
  if (s.includes('e')) throw new Error(`a corpus value needs exponent formatting: ${s}`);
  return s;
}

function expectedStreams(entries: Entry[], limit: number, direction: 'forward' | 'backward') {
  const inRange = entries.filter((e) => e.ts >= start && e.ts < end);
  inRange.sort((a, b) => (a.ts === b.ts ? 0 : (a.ts < b.ts ? -1 : 1) * (direction === 'forward' ? 1 : -1)));
  const streams = new Map<string, { stream: Labels; values: [string, string][] }>();
  for (const e of inRange.slice(0, limit)) {
    const name = streamName(e.labels);
    const s = streams.get(name) ?? { stream: sortKeys(e.labels), values: [] };
    s.values.push([e.ts.toString(), e.line]);
    streams.set(name, s);
  }
  return [...streams.keys()].sort().map((k) => streams.get(k)!);
}

function expectedMatrix(at: (t: bigint) => Sample[], step: bigint) {
  const series = new Map<string, { metric: Labels; values: [number, string][] }>();
  for (let t = start; t <= end; t += step) {
    for (const s of at(t)) {
      const name = streamName(s.labels);
      const entry = series.get(name) ?? { metric: sortKeys(s.labels), values: [] };
      entry.values.push([seconds(t), fmt(s.value)]);
      series.set(name, entry);
    }
  }
  return [...series.values()].sort((a, b) => compareLabels(a.metric, b.metric));
}

describe('LogQL corpus (query_range and query against known lines)', () => {
  it('has at least 100 queries', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(100);
  });

  for (const c of CASES) {
    it(`${c.kind}: ${c.query}`, async () => {
      if (c.kind === 'error') {
        const range = await ask('/loki/api/v1/query_range', { query: c.query, start: start.toString(), end: end.toString(), step: '60s' });
        expect(range.status, range.text).toBe(c.status);
        expect(range.text).toMatch(c.error);
        const instant = await ask('/loki/api/v1/query', { query: c.query, time: instantAt.toString() });
        expect(instant.status).toBe(c.status);
        expect(instant.text).toMatch(c.error);
        return;
      }
      if (c.kind === 'log') {
        const limit = c.limit ?? 100;
        const direction = c.direction ?? 'backward';
        const range = await ask('/loki/api/v1/query_range', { query: c.query, start: start.toString(), end: end.toString(), limit: String(limit), direction });
        expect(range.status, range.text).toBe(200);
        expect(range.body.data.resultType).toBe('streams');
        const actual = range.body.data.result.map((s: { stream: Labels; values: [string, string][] }) => ({ stream: sortKeys(s.stream), values: s.values }));
        expect(actual).toEqual(expectedStreams(c.entries(lines), limit, direction));
        // Loki answers a log query at /query with its error.
        const instant = await ask('/loki/api/v1/query', { query: c.query, time: instantAt.toString() });
        expect(instant.status).toBe(400);
        expect(instant.text).toBe('log queries are not supported as an instant query type, please change your query to a range query type');
        return;
      }
      const step = c.step ?? 60n * S;
      const range = await ask('/loki/api/v1/query_range', { query: c.query, start: start.toString(), end: end.toString(), step: `${step / S}s` });
      expect(range.status, range.text).toBe(200);
      expect(range.body.data.resultType).toBe('matrix');
      expect(range.body.data.result).toEqual(expectedMatrix((t) => c.at(lines, t), step));
      const instant = await ask('/loki/api/v1/query', { query: c.query, time: instantAt.toString() });
      expect(instant.status, instant.text).toBe(200);
      expect(instant.body.data.resultType).toBe('vector');
      let vec = c.at(lines, instantAt);
      if (!c.ordered) vec = [...vec].sort((a, b) => compareLabels(a.labels, b.labels));
      expect(instant.body.data.result).toEqual(vec.map((s) => ({ metric: sortKeys(s.labels), value: [seconds(instantAt), fmt(s.value)] })));
    });
  }

  it('answers Loki times in every form: RFC 3339, seconds with fraction, since, and the stats object', async () => {
    const rfc = await ask('/loki/api/v1/query_range', {
      query: 'count_over_time({app="api"}[1m])',
      start: new Date(Number(start / 1_000_000n)).toISOString(),
      end: (Number(end / 1_000_000n) / 1000).toFixed(3),
      step: '60',
    });
    expect(rfc.status, rfc.text).toBe(200);
    const ns = await ask('/loki/api/v1/query_range', { query: 'count_over_time({app="api"}[1m])', start: start.toString(), end: end.toString(), step: '1m' });
    expect(rfc.body.data.result).toEqual(ns.body.data.result);
    expect(ns.body.data.stats.summary.totalLinesProcessed).toBeGreaterThan(0);
    const since = await ask('/loki/api/v1/query_range', { query: '{app="api"}', since: '2h', limit: '5' });
    expect(since.status).toBe(200);
    expect(since.body.data.stats.summary.totalEntriesReturned).toBe(5);
    const bad = await ask('/loki/api/v1/query_range', { query: '{app="api"}', start: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/invalid start parameter/);
  });

  it('thins a log query by the interval parameter as Loki does (each entry at least that far from the last returned)', async () => {
    for (const direction of ['forward', 'backward']) {
      const all = await ask('/loki/api/v1/query_range', { query: '{app="api"}', start: start.toString(), end: end.toString(), limit: '5000', direction });
      const thinned = await ask('/loki/api/v1/query_range', { query: '{app="api"}', start: start.toString(), end: end.toString(), limit: '5000', direction, interval: '10m' });
      expect(thinned.status, thinned.text).toBe(200);
      const times = (body: { data: { result: { values: [string, string][] }[] } }) => body.data.result.flatMap((r) => r.values.map(([t]) => BigInt(t))).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const every = times(all.body);
      const kept = times(thinned.body);
      // Expected from the unthinned answer: walk it in the query's direction, keep what is 10 minutes from the last kept.
      const walk = direction === 'forward' ? every : [...every].reverse();
      const expected: bigint[] = [];
      for (const t of walk) {
        const last = expected[expected.length - 1];
        if (last === undefined || (direction === 'forward' ? t >= last + 600n * S : t <= last - 600n * S)) expected.push(t);
      }
      expect(kept.length).toBeGreaterThan(1);
      expect(kept.length).toBeLessThan(every.length);
      expect(kept).toEqual([...expected].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
  });

  it('refuses what Loki limits: entries per query, the query length, points per series', async () => {
    const entries = await ask('/loki/api/v1/query_range', { query: '{app="api"}', limit: '5001' });
    expect(entries.status).toBe(400);
    expect(entries.text).toBe('max entries limit per query exceeded, limit > max_entries_limit_per_query (5001 > 5000)');
    const length = await ask('/loki/api/v1/query_range', { query: '{app="api"}', start: '1', end: `${Date.now()}000000` });
    expect(length.status).toBe(400);
    expect(length.text).toMatch(/^the query time range exceeds the limit \(query length: /);
    const points = await ask('/loki/api/v1/query_range', { query: 'count_over_time({app="api"}[1m])', start: start.toString(), end: end.toString(), step: '0.1' });
    expect(points.status).toBe(400);
    expect(points.text).toMatch(/exceeded maximum resolution of 11,000 points per timeseries/);
  });
});
