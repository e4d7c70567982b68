import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { startPrometheus, type RunningPrometheus } from '../support/prometheus';
import { generateSamples, remoteWrite, remoteWriteBody } from './promql-samples';

// qryn's PromQL against a real Prometheus 2.42: one generated set of samples is remote-written into both, then every
// query of tests/qryn/promql-corpus.yaml runs as a range query and as instant queries at two times against both.
// The answers must agree: the same result type, the same series (labels), the same timestamps, values within 1e-9
// relative (NaN equals NaN), in the same order where Prometheus orders (sort, sort_desc), as sets otherwise; and
// where Prometheus refuses a query, qryn must refuse it with the same error type.

const corpus = (parse(readFileSync(new URL('./promql-corpus.yaml', import.meta.url), 'utf8')) as { queries: string[] }).queries;

let prometheus: RunningPrometheus;
let platform: TestPlatform;
let qryn: EnabledQryn;
let baseMs: number;

beforeAll(async () => {
  [prometheus, platform] = await Promise.all([startPrometheus(), startTestPlatform()]);
  qryn = (await enableQrynOnSeededProject(platform, 'Acme Staging')).qryn;
  // An hour back from now (Prometheus accepts samples within about an hour of the newest it holds), on a minute.
  baseMs = Math.floor((Date.now() - 3_600_000) / 60_000) * 60_000;
  const body = remoteWriteBody(generateSamples(baseMs));
  await Promise.all([remoteWrite(`${prometheus.url}/api/v1/write`, body), remoteWrite(`${qryn.url}/api/v1/prom/remote/write`, body, qryn.basic)]);
}, 60_000);

afterAll(async () => {
  await prometheus?.stop();
  await platform?.stop();
});

interface Answer {
  status: number;
  body: { status: string; data?: { resultType: string; result: unknown }; errorType?: string; error?: string };
}

async function ask(base: string, path: string, params: Record<string, string>, authorization?: string): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
    body: new URLSearchParams(params).toString(),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const number = (text: string) => (text === 'NaN' ? NaN : text === '+Inf' ? Infinity : text === '-Inf' ? -Infinity : Number(text));

function close(expected: string, actual: string): boolean {
  const a = number(expected);
  const b = number(actual);
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (a === b) return true;
  // 1e-9 relative; values that are zero up to float rounding (a sum of terms that cancel) compare absolutely.
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) || Math.abs(a - b) < 1e-12;
}

type Sample = [number, string];
interface SeriesResult {
  metric: Record<string, string>;
  value?: Sample;
  values?: Sample[];
}

const key = (metric: Record<string, string>) => JSON.stringify(Object.entries(metric).sort(([x], [y]) => (x < y ? -1 : 1)));

function compareSamples(where: string, expected: Sample[], actual: Sample[]): string[] {
  if (expected.length !== actual.length) return [`${where}: ${expected.length} points expected, ${actual.length} answered (${JSON.stringify(expected.slice(0, 3))}… vs ${JSON.stringify(actual.slice(0, 3))}…)`];
  for (let i = 0; i < expected.length; i++) {
    if (expected[i][0] !== actual[i][0]) return [`${where}: point ${i} at ${expected[i][0]} expected, at ${actual[i][0]} answered`];
    if (!close(expected[i][1], actual[i][1])) return [`${where}: at ${expected[i][0]} ${expected[i][1]} expected, ${actual[i][1]} answered`];
  }
  return [];
}

/** The differences between Prometheus' answer and qryn's (empty when they agree). */
function differences(query: string, expected: Answer, actual: Answer): string[] {
  if (expected.body.status !== 'success') {
    if (actual.body.status === 'success') return [`Prometheus refused (${expected.body.errorType}: ${expected.body.error}), qryn answered`];
    if (actual.body.errorType !== expected.body.errorType || actual.status !== expected.status) {
      return [`error ${expected.status} ${expected.body.errorType} expected (${expected.body.error}), ${actual.status} ${actual.body.errorType} answered (${actual.body.error})`];
    }
    return [];
  }
  if (actual.body.status !== 'success') return [`qryn refused: ${actual.status} ${actual.body.errorType}: ${actual.body.error}`];
  const e = expected.body.data!;
  const a = actual.body.data!;
  if (e.resultType !== a.resultType) return [`result type ${e.resultType} expected, ${a.resultType} answered`];
  if (e.resultType === 'scalar' || e.resultType === 'string') {
    const [et, ev] = e.result as Sample;
    const [at, av] = a.result as Sample;
    if (et !== at) return [`time ${et} expected, ${at} answered`];
    return e.resultType === 'string' ? (ev === av ? [] : [`"${ev}" expected, "${av}" answered`]) : close(ev, av) ? [] : [`${ev} expected, ${av} answered`];
  }
  const es = e.result as SeriesResult[];
  const as = a.result as SeriesResult[];
  const problems: string[] = [];
  if (es.length !== as.length) problems.push(`${es.length} series expected, ${as.length} answered`);
  const ordered = e.resultType === 'vector' && /^\s*sort(_desc)?\(/.test(query);
  if (ordered) {
    es.forEach((s, i) => {
      if (!as[i] || key(s.metric) !== key(as[i].metric)) problems.push(`position ${i}: ${key(s.metric)} expected, ${as[i] ? key(as[i].metric) : 'nothing'} answered`);
      else problems.push(...compareSamples(key(s.metric), [s.value!], [as[i].value!]));
    });
    return problems;
  }
  const byKey = new Map(as.map((s) => [key(s.metric), s]));
  for (const s of es) {
    const other = byKey.get(key(s.metric));
    if (!other) {
      problems.push(`series ${key(s.metric)} missing`);
      continue;
    }
    byKey.delete(key(s.metric));
    problems.push(...compareSamples(key(s.metric), s.values ?? [s.value!], other.values ?? [other.value!]));
  }
  for (const k of byKey.keys()) problems.push(`series ${k} not expected`);
  return problems;
}

describe.concurrent('PromQL answers as Prometheus 2.42', () => {
  it('has a corpus of at least 150 queries', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150);
  });

  it.each(corpus)('%s', async (query) => {
    const s = (ms: number) => (ms / 1000).toFixed(3);
    const runs: [string, string, Record<string, string>][] = [
      ['range', '/api/v1/query_range', { query, start: s(baseMs + 6 * 60_000), end: s(baseMs + 58 * 60_000), step: '30' }],
      // Right after batch_progress{instance="stale"} ended with a stale marker (30 min) and within the lookback of
      // the one that simply stopped; and near the end of the data.
      ['instant at 31m', '/api/v1/query', { query, time: s(baseMs + 31 * 60_000) }],
      ['instant at 57m', '/api/v1/query', { query, time: s(baseMs + 57 * 60_000 + 500) }],
    ];
    const answers = await Promise.all(runs.map(([, path, params]) => Promise.all([ask(prometheus.url, path, params), ask(qryn.url, path, params, qryn.basic)])));
    const problems = runs.flatMap(([name], i) => differences(query, answers[i][0], answers[i][1]).map((problem) => `${name}: ${problem}`));
    expect(problems.slice(0, 10)).toEqual([]);
  });
});
