import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runQuery } from '../../packages/logql/engine/evaluate';
import { createMemoryLogQuerier, type MemoryStream } from '../../packages/logql/storage/memory-querier';
import type { LogQuerier } from '../../packages/logql/storage/querier';
import { createEngine } from '../../packages/promql/engine/engine';
import { MemoryQuerier, type MemorySeries } from '../../packages/promql/storage/memory-querier';
import type { Querier } from '../../packages/promql/storage/querier';
import { Batch } from '../../server/products/qryn/ingest/batch';
import { createWriter } from '../../server/products/qryn/ingest/writer';
import { createLogsQuerier } from '../../server/products/qryn/query/logs-querier';
import { createMetricsQuerier } from '../../server/products/qryn/query/metrics-querier';
import { createInstanceSchema } from '../../server/products/qryn/storage/schema';
import type { StorageClient } from '../../server/products/qryn/storage/storage-client';
import { comparableValue as plain, startScratchStorage, type ScratchStorage } from '../support/scratch-storage';
import { readdirSync, readFileSync } from 'node:fs';
import { parseTestFile, type EvalCase } from '../promql/promql-test-runner';
import { CASES, generate } from './logql-corpus.data';
import { generateSamples } from './promql-samples';

// Pushdown proven equal to the engine: every query of the PromQL corpus, of the PromQL case files and of the LogQL
// corpus (and the `| json` counting shapes) runs twice on real ClickHouse data — through the stores that push
// selection, regexes, line filters, step windows and bucket counts down to ClickHouse, and in the engine alone over
// the same raw rows held in memory (the in-memory stores push nothing down) — and the answers must be equal. The
// data holds what pushdown has got wrong before: label values and lines with newlines (ClickHouse's `.` matches one,
// RE2's does not), NaN, stale markers, counter resets, samples and lines a fraction of a millisecond off the step
// grid, and JSON lines with a raw newline in a string.

const S = 1_000_000_000n;
const MS = 1_000_000n;
const MIN = 60_000;
const BASE_MS = Date.UTC(2026, 10, 20, 0, 0, 0);
const LOG_T0 = BigInt(BASE_MS) * MS;
const CASE_DIR = new URL('../promql/testdata/', import.meta.url);
const promCases: (EvalCase & { file: string })[] = readdirSync(CASE_DIR).flatMap((file) =>
  parseTestFile(readFileSync(new URL(file, CASE_DIR), 'utf8')).map((c) => ({ ...c, file })),
);
const promCorpus = (parse(readFileSync(new URL('./promql-corpus.yaml', import.meta.url), 'utf8')) as { queries: string[] }).queries;

let storage: ScratchStorage;
let client: StorageClient;
const database = 'qryn_differential';
const memorySeries: MemorySeries[] = [];
const memoryStreams: MemoryStream[] = [];
const caseDatabases = new Map<MemorySeries[], { db: string; moved: MemorySeries[] }>();

const isStaleMarker = (v: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(v);
  return b.readUInt32LE(4) === 0x7ff00000 && b.readUInt32LE(0) === 2;
};

/** Metric series beyond the corpus' own: newlines in label values, and samples 0.4 ms after a 20 s grid. */
function extraSeries(): { labels: Record<string, string>; samples: { ns: bigint; v: number; stale?: boolean }[] }[] {
  const grid = (n: number, offsetNs: bigint, value: (k: number) => number) =>
    Array.from({ length: n }, (_, k) => ({ ns: BigInt(BASE_MS + k * 20_000) * MS + offsetNs, v: value(k) }));
  return [
    { labels: { __name__: 'nl', path: 'a\nb' }, samples: grid(150, 5n * MS, (k) => k) },
    { labels: { __name__: 'nl', path: 'a-b' }, samples: grid(150, 5n * MS, (k) => 2 * k) },
    { labels: { __name__: 'nl', path: 'a\n' }, samples: grid(150, 5n * MS, (k) => 3 * k) },
    { labels: { __name__: 'sub_ms', src: 'influx' }, samples: grid(170, 400_000n, (k) => (k % 40 === 39 ? NaN : k % 7)) },
    // A counter with a reset and a stale marker, sub-millisecond too.
    {
      labels: { __name__: 'sub_ms_total', src: 'otlp' },
      samples: [...grid(120, 999_999n, (k) => (k < 70 ? k * 3 : k - 70)), { ns: BigInt(BASE_MS + 120 * 20_000) * MS + 999_999n, v: NaN, stale: true }],
    },
  ];
}

const EXTRA_PROMQL = [
  'count(nl{path=~"a.b"})',
  'nl{path=~"a.*"}',
  'nl{path!~"a.b"}',
  'nl{path=~"(?s)a.b"}',
  'count(nl{path=~"(?i)A.B"})',
  'count_over_time(sub_ms[1m])',
  'count_over_time(sub_ms[40s])',
  'sum_over_time(sub_ms[2m])',
  'rate(sub_ms_total[1m])',
  'increase(sub_ms_total[2m])',
  'resets(sub_ms_total[5m])',
  'last_over_time(sub_ms_total[1m])',
];

/** LogQL lines beyond the corpus' own: newlines in lines and in a label value, JSON, lines on the step grid. */
function extraStreams(t0: bigint): MemoryStream[] {
  const at = (k: number, plus = 0n) => t0 + BigInt(k) * 20n * S + plus;
  const NL_LINES = ['foo\nbar', 'foo-bar', 'foo\n', 'x foo.bar y', 'FOO\nBAR'];
  const JSON_LINES = [
    '{"level":"info","msg":"ok","n":12}',
    '{"level":"warn","msg":"a\nb"}',
    '{"level":"error","ok":true,"x":null}',
    '{"level":"info","level":"error"}',
    '{"msg":"no level"}',
    '{"level":"debug","nested":{"level":"x"}}',
  ];
  return [
    { labels: { app: 'nl', path: 'a\nb' }, entries: Array.from({ length: 90 }, (_, k) => ({ ts: at(k, 1n), line: NL_LINES[k % NL_LINES.length] })) },
    { labels: { app: 'nl', path: 'a-b' }, entries: Array.from({ length: 90 }, (_, k) => ({ ts: at(k, 7n * S), line: NL_LINES[(k + 2) % NL_LINES.length] })) },
    { labels: { app: 'js' }, entries: Array.from({ length: 90 }, (_, k) => ({ ts: at(k, 3n * S + 11n), line: JSON_LINES[k % JSON_LINES.length] })) },
    // Exactly on the grid and a nanosecond either side of it.
    { labels: { app: 'grid' }, entries: Array.from({ length: 270 }, (_, k) => ({ ts: at(Math.floor(k / 3), BigInt((k % 3) - 1) + 20n * S), line: `tick ${k}` })) },
  ];
}

const EXTRA_LOGQL = [
  '{app="nl"} |~ "foo.bar"',
  '{app="nl"} !~ "foo.bar"',
  '{app="nl"} |~ "(?i)foo.bar" | keep app',
  '{app="nl", path=~"a.b"}',
  '{app="nl", path!~"a.b"}',
  'count_over_time({app="nl"} |~ "foo.bar" [1m])',
  'sum by (path) (count_over_time({app="nl", path=~"a.b"} |~ "(?s)foo.bar" [2m]))',
  'sum(rate({app="nl"} |~ "o$" [1m]))',
  'sum by (level) (count_over_time({app="js"} | json [1m]))',
  'sum by (level, msg) (count_over_time({app="js"} | json [5m]))',
  'sum by (level) (bytes_over_time({app="js"} | json [2m]))',
  'count_over_time({app="grid"}[1m])',
  'sum(bytes_rate({app="grid"}[20s]))',
  'count_over_time({app="grid"} |= "tick" [1m] offset 20s)',
];

beforeAll(async () => {
  storage = await startScratchStorage('pushdown-differential');
  client = storage.client;
  await createInstanceSchema(client, database);
  const batch = new Batch();
  const metrics = [
    ...generateSamples(BASE_MS).map((s) => ({ labels: s.labels, samples: s.samples.map((p) => ({ ns: BigInt(p.timestamp) * MS, v: p.value, stale: isStaleMarker(p.value) })) })),
    ...extraSeries(),
  ];
  for (const s of metrics) {
    const fp = batch.addSeries('metrics', s.labels);
    for (const p of s.samples) batch.addMetric(fp, p.ns, p.v, p.stale ?? false);
    // The engine sees a stored sample at its whole millisecond.
    memorySeries.push({ labels: s.labels, samples: s.samples.map((p) => ({ t: Number(p.ns / MS), v: p.v, ...(p.stale ? { stale: true } : {}) })) });
  }
  const byStream = new Map<string, MemoryStream>();
  for (const g of generate(LOG_T0)) {
    const key = JSON.stringify(g.stream);
    const s = byStream.get(key) ?? { labels: g.stream, entries: [] };
    s.entries.push({ ts: g.ts, line: g.line });
    byStream.set(key, s);
  }
  memoryStreams.push(...byStream.values(), ...extraStreams(LOG_T0));
  for (const s of memoryStreams) {
    const fp = batch.addSeries('logs', s.labels);
    for (const e of s.entries) batch.addLog(fp, e.ts, e.line);
  }
  await createWriter(() => Date.now()).write({ id: 'differential', database, client, fingerprintLimit: 0 }, batch);
  // The series of each `load` of the PromQL case files (tests/promql/testdata) in a database of their own, moved
  // from 1970 (which the store refuses) to BASE_MS, queries and all.
  for (const data of new Set(promCases.map((c) => c.data))) {
    const db = `qryn_cases_${caseDatabases.size}`;
    const moved = data.map((s) => ({ labels: s.labels, samples: s.samples.map((p) => ({ ...p, t: p.t + BASE_MS })) }));
    caseDatabases.set(data, { db, moved });
    await createInstanceSchema(client, db);
    const cases = new Batch();
    for (const s of moved) {
      const fp = cases.addSeries('metrics', s.labels);
      for (const p of s.samples) cases.addMetric(fp, BigInt(p.t) * MS, p.v, p.stale ?? false);
    }
    await createWriter(() => Date.now()).write({ id: db, database: db, client, fingerprintLimit: 0 }, cases);
  }
}, 240_000);

afterAll(async () => storage?.close());

/** An answer or its error, as comparable data (errors by their message). */
const outcome = <T>(p: Promise<T>, shape: (v: T) => unknown) => p.then(shape, (e: Error) => ({ error: e.message }));

describe('PromQL: pushed down to ClickHouse and in the engine over the same rows answer alike', () => {
  const engine = createEngine();
  const pushed = (): Querier => createMetricsQuerier(client, database).querier;
  const inEngine = (): Querier => new MemoryQuerier(memorySeries);
  // A 60 s step (no step windows) and a 7 m step (windows for every range below 7 m), and two instants; starts on a
  // whole minute so that window edges fall on the samples of the 20 s grids.
  const shapes: [string, (q: Querier, query: string) => Promise<unknown>][] = [
    ['range 60s', (q, query) => outcome(engine.rangeQuery(q, query, BASE_MS + 10 * MIN, BASE_MS + 55 * MIN, MIN), (r) => plain(r.value))],
    ['range 7m', (q, query) => outcome(engine.rangeQuery(q, query, BASE_MS + 6 * MIN, BASE_MS + 55 * MIN, 7 * MIN), (r) => plain(r.value))],
    ['instant', (q, query) => outcome(engine.instantQuery(q, query, BASE_MS + 30 * MIN), (r) => plain(r.value))],
    ['instant off-grid', (q, query) => outcome(engine.instantQuery(q, query, BASE_MS + 41 * MIN + 1_234), (r) => plain(r.value))],
  ];

  it('runs the whole corpus', () => expect(promCorpus.length).toBeGreaterThan(150));

  it.each([...promCorpus, ...EXTRA_PROMQL])('%s', async (query) => {
    for (const [shape, run] of shapes) {
      const [a, b] = await Promise.all([run(pushed(), query), run(inEngine(), query)]);
      expect({ shape, query, answer: a }).toEqual({ shape, query, answer: b });
    }
  });
});

describe('PromQL case files: pushed down to ClickHouse and in the engine over the same rows answer alike', () => {
  const engine = createEngine();
  it('runs every case', () => expect(promCases.length).toBeGreaterThan(200));

  it.each(promCases.map((c) => [`${c.file}:${c.line} ${c.query}`, c] as const))('%s', async (_, c) => {
    const run = (q: Querier) =>
      c.kind === 'instant'
        ? outcome(engine.instantQuery(q, c.query, c.timeMs + BASE_MS), (r) => plain(r.value))
        : outcome(engine.rangeQuery(q, c.query, c.timeMs + BASE_MS, c.endMs + BASE_MS, c.stepMs), (r) => plain(r.value));
    const { db, moved } = caseDatabases.get(c.data)!;
    const [a, b] = await Promise.all([run(createMetricsQuerier(client, db).querier), run(new MemoryQuerier(moved))]);
    expect(a).toEqual(b);
  });
});

describe('LogQL: pushed down to ClickHouse and in the engine over the same rows answer alike', () => {
  const start = LOG_T0 - 2n * 60n * S;
  const end = LOG_T0 + 28n * 60n * S;
  const pushed = (): LogQuerier => createLogsQuerier(client, database);
  const inEngine = (): LogQuerier => createMemoryLogQuerier(memoryStreams);
  const run = (q: LogQuerier, query: string, shape: string) => {
    const req =
      shape === 'instant'
        ? { query, startNs: LOG_T0 + 20n * 60n * S + 500_000_000n, endNs: LOG_T0 + 20n * 60n * S + 500_000_000n, stepNs: 0n, instant: true }
        : { query, startNs: start, endNs: end, stepNs: shape === 'range 20s' ? 20n * S : 60n * S, instant: false };
    return outcome(runQuery(q, { ...req, limit: 100, direction: shape === 'forward' ? 'forward' : 'backward' }), (r) => r.data);
  };

  it('runs the whole corpus', () => expect(CASES.length).toBeGreaterThan(100));

  it.each([...CASES.map((c) => c.query), ...EXTRA_LOGQL])('%s', async (query) => {
    for (const shape of ['range 60s', 'range 20s', 'forward', 'instant']) {
      const [a, b] = await Promise.all([run(pushed(), query, shape), run(inEngine(), query, shape)]);
      expect({ shape, query, answer: a }).toEqual({ shape, query, answer: b });
    }
  });
});
