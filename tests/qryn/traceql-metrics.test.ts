import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { buildTraces, otlpBody, type ModelSpan } from './traceql-corpus.data';

// TraceQL metrics (/api/metrics/query_range, /api/metrics/query) over the corpus data set pushed as OTLP into the
// platform's ClickHouse, each answer checked against numbers computed here from the pushed spans: counts, rates,
// min/max/avg/sum of durations, Tempo's power-of-two quantiles and histograms, by(), second stages and arithmetic;
// counts that ClickHouse aggregates (one exact filter) and counts evaluated from the spans must agree.

let platform: TestPlatform;
let qryn: EnabledQryn;
const run = randomBytes(3).toString('hex');
const startMs = Date.now() - 120_000;
const traces = buildTraces(run, startMs);
const spans = traces.flatMap((t) => t.spans);
const windowStart = Math.floor(startMs / 1000) - 5;
const windowEnd = windowStart + 60;
const seconds = Array.from({ length: windowEnd - windowStart }, (_, i) => windowStart + i);
const svc = (name: string) => `${name}-${run}`;
const secondOf = (s: ModelSpan) => Number(s.startNs / 1_000_000_000n);

type Answer = { series: { labels: { key: string; value: Record<string, unknown> }[]; samples?: { timestampMs: string; value: number }[]; value?: number }[] };

async function get(path: string, params: Record<string, string>): Promise<{ status: number; body: any }> {
  const response = await fetch(`${qryn.url}${path}?${new URLSearchParams(params)}`, { headers: { authorization: qryn.basic } });
  return { status: response.status, body: await response.json() };
}
async function range(q: string): Promise<Answer> {
  const answer = await get('/api/metrics/query_range', { q, start: String(windowStart), end: String(windowEnd), step: '1s' });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}
async function instant(q: string): Promise<Answer> {
  const answer = await get('/api/metrics/query', { q, start: String(windowStart), end: String(windowEnd) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

const labelText = (l: { key: string; value: Record<string, unknown> }) => `${l.key}=${String(Object.values(l.value)[0])}`;
/** Series as {labels → {second → value}} for comparison. */
function points(answer: Answer): Record<string, Record<number, number>> {
  const out: Record<string, Record<number, number>> = {};
  for (const s of answer.series) {
    const key = s.labels.map(labelText).join(',');
    out[key] = {};
    for (const p of s.samples ?? []) out[key][Number(p.timestampMs) / 1000] = p.value;
  }
  return out;
}
/** The model's series: group spans by a key, reduce each second's spans. */
function expected(select: (s: ModelSpan) => boolean, key: (s: ModelSpan) => string, reduce: (list: ModelSpan[]) => number, fillZero: boolean): Record<string, Record<number, number>> {
  const out: Record<string, Record<number, number>> = {};
  const groups = new Map<string, ModelSpan[]>();
  for (const s of spans.filter(select)) groups.set(key(s), [...(groups.get(key(s)) ?? []), s]);
  for (const [k, list] of groups) {
    out[k] = {};
    for (const sec of seconds) {
      const inSec = list.filter((s) => secondOf(s) === sec);
      if (inSec.length || fillZero) out[k][sec] = inSec.length ? reduce(inSec) : 0;
    }
  }
  return out;
}
const count = (list: ModelSpan[]) => list.length;
const secondsOf = (s: ModelSpan) => Number(s.durationNs) / 1e9;
const close = (got: Record<string, Record<number, number>>, want: Record<string, Record<number, number>>) => {
  expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
  for (const k of Object.keys(want)) {
    expect(Object.keys(got[k]).sort(), k).toEqual(Object.keys(want[k]).sort());
    for (const sec of Object.keys(want[k])) expect(got[k][Number(sec)], `${k} @${sec}`).toBeCloseTo(want[k][Number(sec)], 9);
  }
};

/** Tempo's quantile over power-of-two buckets, written out here from its description. */
function log2Quantile(p: number, values: number[]): number {
  const buckets = new Map<number, number>();
  for (const v of values) {
    const b = v < 2 ? 1 : 2 ** Math.ceil(Math.log2(v));
    buckets.set(b, (buckets.get(b) ?? 0) + 1);
  }
  const sorted = [...buckets.entries()].sort((a, b) => a[0] - b[0]);
  const want = Math.max(1, Math.ceil(p * values.length));
  let seen = 0;
  for (let i = 0; i < sorted.length; i++) {
    const [max, n] = sorted[i];
    if (seen + n >= want) {
      if (seen + n === want) return max;
      const lo = i > 0 ? Math.log2(sorted[i - 1][0]) : Math.log2(max) - 1;
      return 2 ** (lo + (Math.log2(max) - lo) * ((want - seen) / n));
    }
    seen += n;
  }
  return NaN;
}

beforeAll(async () => {
  platform = await startTestPlatform();
  qryn = (await enableQrynOnSeededProject(platform, 'Acme Staging')).qryn;
  const push = await fetch(`${qryn.url}/v1/traces`, { method: 'POST', headers: { authorization: qryn.basic, 'content-type': 'application/json' }, body: JSON.stringify(otlpBody(traces)) });
  expect(push.status).toBeLessThan(300);
  for (let i = 0; ; i++) {
    const answer = await get('/api/metrics/query', { q: '{} | count_over_time()', start: String(windowStart), end: String(windowEnd) });
    if (answer.status === 200 && answer.body.series[0]?.value === spans.length) break;
    if (i > 50) throw new Error(`spans not readable: ${JSON.stringify(answer.body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

describe('TraceQL metrics', () => {
  it('counts and rates per step, by a value, in ClickHouse and from the spans alike', async () => {
    close(points(await range('{ } | count_over_time()')), expected(() => true, () => '__name__=count_over_time', count, true));
    const errorsBy = expected((s) => s.status === 'error', (s) => `resource.service.name=${s.service}`, count, true);
    close(points(await range('{ status = error } | count_over_time() by (resource.service.name)')), errorsBy);
    // `1 = 1` keeps the filter from being translated, so the spans are read and counted by the evaluator.
    close(points(await range('{ status = error && 1 = 1 } | count_over_time() by (resource.service.name)')), errorsBy);
    close(points(await range('{ kind = server } | rate() by (name)')), expected((s) => s.kind === 'server', (s) => `name=${s.name}`, count, true));
    close(points(await range('{ .http.method = "GET" } | count_over_time() by (kind)')), expected((s) => s.attrs['http.method'] === 'GET', (s) => `kind=${s.kind}`, count, true));
    const parentOf = (s: ModelSpan) => spans.find((p) => p.spanId === s.parentId);
    close(points(await range('{ status = error } > { kind = client } | count_over_time()')), expected((s) => s.kind === 'client' && parentOf(s)?.status === 'error', () => '__name__=count_over_time', count, true));
  });

  it('counts structural relations in ClickHouse with the answers the evaluator gives over the same spans', async () => {
    const parentOf = (s: ModelSpan) => spans.find((p) => p.spanId === s.parentId);
    const childrenOf = (s: ModelSpan) => spans.filter((c) => c.parentId === s.spanId);
    const name = () => '__name__=count_over_time';
    // Each query next to the same query with `1 = 1` in a filter (not translated, so the spans are read and evaluated
    // in memory) and, for most, the model's count.
    const cases: { q: string; inMemory: string; model?: (s: ModelSpan) => boolean; by?: (s: ModelSpan) => string }[] = [
      { q: '{ kind = server } > { status = error }', inMemory: '{ kind = server } > { status = error && 1 = 1 }', model: (s) => s.status === 'error' && parentOf(s)?.kind === 'server' },
      { q: '{ status = error } < { kind = server }', inMemory: '{ status = error && 1 = 1 } < { kind = server }', model: (s) => s.kind === 'server' && childrenOf(s).some((c) => c.status === 'error') },
      { q: '{ kind = server } !> { kind = client }', inMemory: '{ kind = server && 1 = 1 } !> { kind = client }', model: (s) => s.kind === 'client' && parentOf(s)?.kind !== 'server' },
      { q: '{ kind = client } !< { }', inMemory: '{ kind = client && 1 = 1 } !< { }', model: (s) => !childrenOf(s).some((c) => c.kind === 'client') },
      { q: '{ kind = server } > { kind = client } > { }', inMemory: '{ kind = server } > { kind = client && 1 = 1 } > { }', model: (s) => parentOf(s)?.kind === 'client' && parentOf(parentOf(s)!)?.kind === 'server' },
      { q: '{ status = error } && { kind = server }', inMemory: '{ status = error } && { kind = server && 1 = 1 }' },
      { q: '{ status = error } || { kind = server } > { kind = client }', inMemory: '{ status = error } || { kind = server } > { kind = client && 1 = 1 }' },
      { q: '{ kind = server } > { } | rate() by (resource.service.name)', inMemory: '{ kind = server } > { 1 = 1 } | rate() by (resource.service.name)', model: (s) => parentOf(s)?.kind === 'server', by: (s) => `resource.service.name=${s.service}` },
    ];
    for (const c of cases) {
      const metric = (q: string) => (/\| rate\(/.test(q) ? q : `${q} | count_over_time()`);
      const query = metric(c.q);
      const inMemory = metric(c.inMemory);
      const pushed = await range(query);
      const evaluated = await range(inMemory);
      // ClickHouse counts the pushed query (no trace is read); the other is evaluated over the spans of its traces.
      expect((pushed as unknown as { metrics: { inspectedTraces: number } }).metrics.inspectedTraces, query).toBe(0);
      expect((evaluated as unknown as { metrics: { inspectedTraces: number } }).metrics.inspectedTraces, inMemory).toBeGreaterThan(0);
      expect(points(pushed), query).toEqual(points(evaluated));
      if (c.model) {
        // The step is one second: a rate is the count.
        const want = expected(c.model, c.by ?? name, count, true);
        expect(Object.keys(want).length, query).toBeGreaterThan(0);
        close(points(pushed), want);
      }
    }
  });

  it('min, max, avg and sum of durations in seconds, quantiles and histograms as Tempo buckets them', async () => {
    const byService = (s: ModelSpan) => `resource.service.name=${s.service}`;
    close(points(await range('{ } | max_over_time(duration) by (resource.service.name)')), expected(() => true, byService, (l) => Math.max(...l.map(secondsOf)), false));
    close(points(await range('{ } | min_over_time(duration) by (resource.service.name)')), expected(() => true, byService, (l) => Math.min(...l.map(secondsOf)), false));
    close(points(await range('{ } | sum_over_time(duration)')), expected(() => true, () => '__name__=sum_over_time', (l) => l.reduce((n, s) => n + secondsOf(s), 0), false));
    close(points(await range('{ kind = client } | avg_over_time(span.db.rows)')), expected((s) => s.kind === 'client' && typeof s.attrs['db.rows'] === 'number', () => '__name__=avg_over_time', (l) => l.reduce((n, s) => n + (s.attrs['db.rows'] as number), 0) / l.length, false));
    for (const p of [0.5, 0.9, 1]) {
      const got = points(await range(`{ } | quantile_over_time(duration, ${p})`));
      close(got, expected(() => true, () => `p=${p}`, (l) => log2Quantile(p, l.map((s) => Number(s.durationNs))) / 1e9, false));
    }
    const histogram = points(await range('{ } | histogram_over_time(duration)'));
    const bucketOf = (s: ModelSpan) => 2 ** Math.ceil(Math.log2(Number(s.durationNs))) / 1e9;
    const bounds = [...new Set(spans.map(bucketOf))];
    const want: Record<string, Record<number, number>> = {};
    for (const b of bounds) Object.assign(want, expected((s) => bucketOf(s) === b, () => `__bucket=${b}`, count, true));
    close(histogram, want);
  });

  it('answers instant queries, second stages and arithmetic', async () => {
    const perService = new Map<string, number>();
    for (const s of spans) perService.set(s.service, (perService.get(s.service) ?? 0) + 1);
    const values = (a: Answer) => Object.fromEntries(a.series.map((s) => [s.labels.map(labelText).join(','), s.value]));
    expect(values(await instant('{ } | count_over_time() by (resource.service.name)'))).toEqual(Object.fromEntries([...perService].map(([k, v]) => [`resource.service.name=${k}`, v])));
    const top2 = [...perService].sort((a, b) => b[1] - a[1]).slice(0, 2);
    expect(values(await instant('{ } | count_over_time() by (resource.service.name) | topk(2)'))).toEqual(Object.fromEntries(top2.map(([k, v]) => [`resource.service.name=${k}`, v])));
    const over10 = [...perService].filter(([, v]) => v > 10);
    expect(values(await instant('{ } | count_over_time() by (resource.service.name) > 10'))).toEqual(Object.fromEntries(over10.map(([k, v]) => [`resource.service.name=${k}`, v])));
    const errors = spans.filter((s) => s.status === 'error').length;
    const ratio = await instant('({ status = error } | count_over_time()) / ({ } | count_over_time()) * 100');
    expect(ratio.series).toHaveLength(1);
    expect(ratio.series[0].value).toBeCloseTo((errors / spans.length) * 100, 9);
    expect(values(await instant(`{ resource.service.name = "${svc('db')}" } | rate()`))).toEqual({ '__name__=rate': spans.filter((s) => s.service === svc('db')).length / 60 });
  });

  it('refuses what is not a metrics query, bad parameters and a bad compare() with clear messages', async () => {
    const search = await get('/api/metrics/query_range', { q: '{ status = error }' });
    expect(search.status).toBe(400);
    expect(search.body.error).toMatch(/^invalid TraceQL query: not a metrics query/);
    expect((await get('/api/metrics/query_range', { q: '{} | rate(', start: '10', end: '20' })).body.error).toMatch(/^invalid TraceQL query: parse error/);
    expect((await get('/api/metrics/query_range', { q: '{} | rate()', step: 'soon' })).body.error).toMatch(/cannot parse "soon"/);
    expect((await get('/api/metrics/query_range', { q: '{} | rate()', start: '20', end: '10' })).status).toBe(400);
    expect((await get('/api/metrics/query_range', { q: '{} | rate()', start: '0', end: '100000', step: '1' })).body.error).toMatch(/exceeded maximum resolution/);
    // compare() with Tempo's validation texts (its answers are checked below).
    expect((await get('/api/metrics/query_range', { q: '{} | compare({ status = error }, 0)' })).body.error).toMatch(/compare\(\) top number of values must be integer greater than 0/);
    expect((await get('/api/metrics/query_range', { q: '{} | compare({ status = error }, 5, 20, 10)' })).body.error).toMatch(/compare\(\) end timestamp must be greater than start timestamp/);
    const searchWithMetrics = await get('/api/search', { q: '{} | rate()' });
    expect(searchWithMetrics.status).toBe(400);
  });
});

/** The attributes Tempo's compare() counts a span under, as `label=value` (the test's model of a pushed span). */
function compareAttrs(s: ModelSpan): string[] {
  const root = traces.find((t) => t.traceId === s.traceId)!.spans.find((r) => !r.parentId);
  return [
    ...(root ? [`rootName=${root.name}`, `rootServiceName=${root.service}`] : []),
    `statusMessage=${s.message}`,
    ...Object.entries(s.attrs).map(([k, v]) => `span.${k}=${String(v)}`),
    `resource.service.name=${s.service}`,
    `resource.deployment.environment=${s.env}`,
    `name=${s.name}`,
    `status=${s.status}`,
    `kind=${s.kind}`,
  ];
}
const attrLabel = (pair: string) => pair.slice(0, pair.indexOf('='));

/** The compare() series computed from the model: per group and `label=value`, and per group's label totals. */
function expectedCompare(matches: (s: ModelSpan) => boolean, selected: (s: ModelSpan) => boolean) {
  const values = { baseline: new Map<string, ModelSpan[]>(), selection: new Map<string, ModelSpan[]>() };
  const totals = { baseline: new Map<string, ModelSpan[]>(), selection: new Map<string, ModelSpan[]>() };
  for (const s of spans.filter(matches)) {
    const group = selected(s) ? 'selection' : 'baseline';
    for (const pair of compareAttrs(s)) {
      values[group].set(pair, [...(values[group].get(pair) ?? []), s]);
      totals[group].set(attrLabel(pair), [...(totals[group].get(attrLabel(pair)) ?? []), s]);
    }
  }
  const perSecond = (list: ModelSpan[]) => Object.fromEntries(seconds.map((sec) => [sec, list.filter((s) => secondOf(s) === sec).length]));
  const series: Record<string, Record<number, number>> = {};
  for (const group of ['baseline', 'selection'] as const) {
    for (const [pair, list] of values[group]) series[`__meta_type=${group},${pair}`] = perSecond(list);
    for (const [label, list] of totals[group]) series[`__meta_type=${group}_total,${label}=nil`] = perSecond(list);
  }
  return { series, values };
}

describe('TraceQL metrics compare()', () => {
  it('counts every attribute value of the selection and the baseline per step, with totals', async () => {
    const isError = (s: ModelSpan) => s.status === 'error';
    close(points(await range('{ } | compare({ status = error }, 1000)')), expectedCompare(() => true, isError).series);
    // The query's own filter narrows both groups; a filter the pushdown cannot translate gives the same answer.
    const server = (s: ModelSpan) => s.kind === 'server';
    const get200 = (s: ModelSpan) => s.attrs['http.status_code'] === 200;
    close(points(await range('{ kind = server } | compare({ span.http.status_code = 200 }, 1000)')), expectedCompare(server, get200).series);
    close(points(await range('{ kind = server && 1 = 1 } | compare({ span.http.status_code = 200 }, 1000)')), expectedCompare(server, get200).series);
  });

  it('selects by time when given start and end (unix nanoseconds), the rest is baseline', async () => {
    const starts = [...new Set(spans.map((s) => s.startNs))].sort((a, b) => (a < b ? -1 : 1));
    const from = starts[Math.floor(starts.length / 3)];
    const to = starts[Math.floor((2 * starts.length) / 3)];
    const selected = (s: ModelSpan) => s.startNs >= from && s.startNs < to && s.kind === 'client';
    const want = expectedCompare(() => true, selected);
    expect(want.values.selection.size).toBeGreaterThan(0);
    close(points(await range(`{ } | compare({ kind = client }, 1000, ${from}, ${to})`)), want.series);
  });

  it('keeps the topN values per attribute by count and marks the attributes that had more', async () => {
    const topN = 2;
    const answer = await instant(`{ } | compare({ status = error }, ${topN})`);
    const { values } = expectedCompare(() => true, (s) => s.status === 'error');
    const byLabel = (labels: { key: string; value: Record<string, unknown> }[]) => labels.map(labelText);
    for (const group of ['baseline', 'selection'] as const) {
      const perAttribute = new Map<string, [string, number][]>();
      for (const [pair, list] of values[group]) perAttribute.set(attrLabel(pair), [...(perAttribute.get(attrLabel(pair)) ?? []), [pair, list.length]]);
      for (const [label, list] of perAttribute) {
        const got = answer.series.filter((s) => byLabel(s.labels)[0] === `__meta_type=${group}` && attrLabel(byLabel(s.labels)[1]) === label);
        expect(got.length, `${group} ${label}`).toBe(Math.min(topN, list.length));
        // Each answered value has its count, and no value left out has a larger count than one answered.
        const counts = new Map(list);
        for (const s of got) expect(s.value, byLabel(s.labels)[1]).toBe(counts.get(byLabel(s.labels)[1]));
        const answered = new Set(got.map((s) => byLabel(s.labels)[1]));
        const lowest = Math.min(...got.map((s) => s.value as number));
        for (const [pair, n] of list) if (!answered.has(pair)) expect(n, pair).toBeLessThanOrEqual(lowest);
      }
    }
    const marked = answer.series.filter((s) => byLabel(s.labels)[0] === '__meta_error=__too_many_values__').map((s) => attrLabel(byLabel(s.labels)[1]));
    const tooMany = new Set<string>();
    for (const group of ['baseline', 'selection'] as const) {
      const distinct = new Map<string, number>();
      for (const pair of values[group].keys()) distinct.set(attrLabel(pair), (distinct.get(attrLabel(pair)) ?? 0) + 1);
      for (const [label, n] of distinct) if (n > topN) tooMany.add(label);
    }
    expect(tooMany.size).toBeGreaterThan(0);
    // An instant answer leaves out series without a value, as the error series are in a range answer (no samples).
    const ranged = await get('/api/metrics/query_range', { q: `{ } | compare({ status = error }, ${topN})`, start: String(windowStart), end: String(windowEnd), step: '1s' });
    const errors = (ranged.body as Answer).series.filter((s) => labelText(s.labels[0]) === '__meta_error=__too_many_values__');
    expect(errors.map((s) => attrLabel(labelText(s.labels[1]))).sort()).toEqual([...tooMany].sort());
    expect(errors.every((s) => s.samples?.length === 0)).toBe(true);
    expect(marked).toEqual([]);
  });
});
