import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../packages/logql/engine/evaluate';
import { Batch } from '../../server/products/qryn/ingest/batch';
import { createWriter } from '../../server/products/qryn/ingest/writer';
import type { ReadRequest } from '../../server/products/qryn/http/gateway-http';
import { evaluateLogql } from '../../server/products/qryn/query/logql-evaluate';
import type { LogqlJob } from '../../server/products/qryn/query/logql-pool';
import { evaluatePromql } from '../../server/products/qryn/query/promql-evaluate';
import type { PromqlQuery } from '../../server/products/qryn/query/promql-pool';
import { promqlSettings } from '../../server/products/qryn/query/promql-settings';
import { logqlThroughCache, promqlThroughCache, resultsCache } from '../../server/products/qryn/query/range-cache-calls';
import { createInstanceSchema } from '../../server/products/qryn/storage/schema';
import { startScratchStorage, type ScratchStorage } from '../support/scratch-storage';
import { bodyText } from '../../server/products/qryn/http/answer-json';

// A dashboard's refresh through the results cache on real ClickHouse and the real engines: a 6-hour window
// refreshed every 30 s, shifted by 30 s each time, with samples and lines arriving between refreshes (on time, and
// late within the freshness window); every cached answer must equal a fresh evaluation of the whole window, and the
// refreshes must evaluate only their newest part.

const MIN = 60_000;
const STEP = 30_000;
const HOURS6 = 6 * 60 * MIN;
const NOW0 = Date.UTC(2026, 10, 20, 12, 0, 0) + 7_000;
const database = 'qryn_refresh';
let storage: ScratchStorage;
let written = 0;

/** Writes the samples and lines of (fromMs, toMs]: counters with resets, a gauge with NaN, JSON lines; or late ones. */
async function writeSpan(fromMs: number, toMs: number, late = false) {
  const batch = new Batch();
  const counters = [0, 1, 2].map((i) => batch.addSeries('metrics', { __name__: 'req_total', job: 'api', instance: `i${i}` }));
  const gauge = batch.addSeries('metrics', { __name__: 'temp', job: 'node' });
  const lateSeries = batch.addSeries('metrics', { __name__: 'late_total', job: 'api' });
  const lateStream = batch.addSeries('logs', { app: 'late' });
  const logs = ['info', 'error'].map((level) => batch.addSeries('logs', { app: 'x', level }));
  for (let t = Math.floor(fromMs / 10_000) * 10_000 + 10_000; t <= toMs; t += 10_000) {
    const k = (t - NOW0) / 10_000;
    if (late) {
      batch.addMetric(lateSeries, BigInt(t) * 1_000_000n + 123_456n, 1000 + (k % 500));
      batch.addLog(lateStream, BigInt(t) * 1_000_000n + 99n, `late ${k}`);
      continue;
    }
    counters.forEach((fp, i) => batch.addMetric(fp, BigInt(t + i * 1_111) * 1_000_000n, Math.abs(k + i * 7) % (200 + i * 50)));
    batch.addMetric(gauge, BigInt(t + 3_000) * 1_000_000n + 400_000n, k % 37 === 0 ? NaN : 20 + (k % 11));
    logs.forEach((fp, i) => batch.addLog(fp, BigInt(t + 4_000 + i) * 1_000_000n + 17n, `{"level":"${i ? 'error' : 'info'}","msg":"m${k % 5}","n":${k % 13}}`));
    written++;
  }
  await createWriter(() => Date.now()).write({ id: 'refresh', database, client: storage.client, fingerprintLimit: 0 }, batch);
}

beforeAll(async () => {
  storage = await startScratchStorage('range-cache');
  await createInstanceSchema(storage.client, database);
  await writeSpan(NOW0 - HOURS6 - 20 * MIN, NOW0);
  await writeSpan(NOW0 - HOURS6, NOW0 - 40 * MIN, true);
}, 120_000);

afterAll(async () => storage?.close());
beforeEach(() => resultsCache().clear());

const request = (nowMs: number) => ({ access: { instance: { database_name: database } }, nowNs: BigInt(nowMs) * 1_000_000n }) as unknown as ReadRequest;
const settings = promqlSettings({});

type Ask = (nowMs: number, spans: [number, number][]) => Promise<[unknown, unknown]>;

/**
 * Refreshes a window ending at now `refreshes` times, every query at each refresh (so that the samples that arrive
 * between two refreshes are new to each of them): the cached answer must equal the fresh one, and each refresh must
 * evaluate only its newest part.
 */
async function refreshLoop(refreshes: number, asks: [string, Ask][]) {
  let now = NOW0;
  for (let i = 0; i <= refreshes; i++) {
    if (i > 0) {
      await writeSpan(now, now + STEP);
      // Late samples and lines: 3 to 5 minutes old when they arrive, inside the 10-minute freshness window.
      await writeSpan(now - 5 * MIN, now - 3 * MIN, true);
      now += STEP;
    }
    for (const [query, ask] of asks) {
      const spans: [number, number][] = [];
      const [cached, fresh] = await ask(now, spans);
      expect({ query, refresh: i, answer: cached }).toEqual({ query, refresh: i, answer: fresh });
      if (i === 0) expect(spans).toEqual([[now - HOURS6, now]]);
      else {
        expect(spans).toHaveLength(1);
        expect(now - spans[0][0]).toBeLessThanOrEqual(resultsCache().settings.freshnessMs + resultsCache().settings.splitMs);
      }
    }
  }
}

const PROMQL = ['sum by (instance) (rate(req_total[5m]))', 'count_over_time(temp[2m])', 'max_over_time(temp[10m:1m])', 'increase(late_total[5m])', 'temp'];
const LOGQL = ['sum by (level) (count_over_time({app="x"} | json [1m]))', 'sum(rate({app="x"} |= "error" [5m]))', 'avg_over_time({app="x"} | json | unwrap n [2m]) by (level)', 'count_over_time({app="late"}[1m])'];

const promqlAsk = (query: string): Ask => async (now, spans) => {
  const range = { kind: 'range', query, startMs: now - HOURS6, endMs: now, stepMs: STEP } as const;
  const run = (q: PromqlQuery) => {
    if (q.kind === 'range') spans.push([q.startMs, q.endMs]);
    return evaluatePromql({ endpoint: storage.endpoint, database, query: q, timeoutMs: 60_000 }, settings);
  };
  const cached = await promqlThroughCache(request(now), range, run);
  const fresh = await evaluatePromql({ endpoint: storage.endpoint, database, query: range, timeoutMs: 60_000 }, settings);
  expect(cached.status).toBe(200);
  expect(JSON.parse(bodyText(cached.body)).data.result.length).toBeGreaterThan(0);
  return [JSON.parse(bodyText(cached.body)), JSON.parse(bodyText(fresh.body))];
};

const logqlAsk = (query: string): Ask => async (now, spans) => {
  const ns = (ms: number) => BigInt(ms) * 1_000_000n;
  const job: LogqlJob = {
    endpoint: storage.endpoint, database, limits: DEFAULT_LIMITS, timeoutMs: 60_000,
    request: { query, startNs: ns(now - HOURS6), endNs: ns(now), stepNs: ns(STEP), instant: false, limit: 100, direction: 'backward' },
  };
  const run = (j: LogqlJob) => {
    spans.push([Number(j.request.startNs / 1_000_000n), Number(j.request.endNs / 1_000_000n)]);
    return evaluateLogql(j, undefined, storage.client);
  };
  const strip = (a: Awaited<ReturnType<typeof evaluateLogql>>) => {
    if (!('body' in a)) throw new Error(a.error.message);
    const body = JSON.parse(bodyText(a.body));
    expect(body.data.result.length).toBeGreaterThan(0);
    // A joined answer's stats add the kept parts' shares of earlier evaluations' counts: close to, not equal to, a
    // fresh evaluation's (tests/unit/range-cache.test.ts checks the sum); the time figures differ anyway.
    delete body.data.stats;
    return body;
  };
  return [strip(await logqlThroughCache(request(now), job, run)), strip(await evaluateLogql(job, undefined, storage.client))];
};

describe('a dashboard refresh through the results cache equals a fresh evaluation', () => {
  it('PromQL and LogQL metric queries, refreshed 5 times with samples arriving on time and late', async () => {
    await refreshLoop(5, [...PROMQL.map((q): [string, Ask] => [q, promqlAsk(q)]), ...LOGQL.map((q): [string, Ask] => [q, logqlAsk(q)])]);
  }, 300_000);

  it('log queries and instant queries are not cached', async () => {
    const spans: string[] = [];
    const job: LogqlJob = {
      endpoint: storage.endpoint, database, limits: DEFAULT_LIMITS, timeoutMs: 60_000,
      request: { query: '{app="x"}', startNs: BigInt(NOW0 - HOURS6) * 1_000_000n, endNs: BigInt(NOW0) * 1_000_000n, stepNs: BigInt(STEP) * 1_000_000n, instant: false, limit: 10, direction: 'backward' },
    };
    for (let i = 0; i < 2; i++) await logqlThroughCache(request(NOW0), job, (j) => (spans.push('log'), evaluateLogql(j, undefined, storage.client)));
    const instant = { kind: 'instant', query: 'temp', timeMs: NOW0 } as const;
    for (let i = 0; i < 2; i++) await promqlThroughCache(request(NOW0), instant, (q) => (spans.push(q.kind), evaluatePromql({ endpoint: storage.endpoint, database, query: q, timeoutMs: 60_000 }, settings)));
    expect(spans).toEqual(['log', 'log', 'instant', 'instant']);
    expect(resultsCache().size).toBe(0);
    expect(written).toBeGreaterThan(2000);
  });
});
