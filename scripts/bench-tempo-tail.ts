import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { SPAN_COLUMNS } from '../server/products/qryn/read/trace-reader';

// `npm run bench:tempo`: Tempo search and Loki's live tail on a qryn instance of a platform started here.
// - search: TRACES traces of SPANS spans each pushed as OTLP JSON, then each TraceQL query RUNS times over the last
//   hour; the median and the slowest answer time are printed, for the structural search next to one ClickHouse query
//   that reads the same rows directly (the spans of the 20 traces
//   the relation finds, with the columns a search reads).
// - metrics: each TraceQL metrics query RUNS times over the same hour, next to one ClickHouse query that reads the
//   same rows directly (what the storage alone costs).
// - tail: a live tail is opened, LINES lines are pushed one at a time; the time from the push's answer to the line's
//   frame is printed (it is bounded by the one-second poll).

// BENCH_SMOKE=1: 100 traces, one run per query, 2 tail lines (tests/bench/bench-smoke.test.ts keeps it working).
const SMOKE = process.env.BENCH_SMOKE === '1';
const TRACES = Number(process.env.BENCH_TRACES ?? (SMOKE ? 100 : 2_000));
const SPANS = Number(process.env.BENCH_SPANS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? (SMOKE ? 1 : 10));
const LINES = Number(process.env.BENCH_LINES ?? (SMOKE ? 2 : 10));

const QUERIES = [
  '{ resource.service.name = "svc-3" }',
  '{ span.http.status_code >= 500 && duration > 50ms }',
  '{ status = error } && { name = "db query" }',
  '{ .http.route =~ "/api/v1/items/.*" || kind = client }',
  '{}',
  '{ kind = server } > { status = error }',
  '{ name = "db query" } | count() > 2',
];

// The 20 newest traces of a search found by one ClickHouse query (what the storage alone costs).
const SEARCH_DIRECT: Record<string, (spans: string, where: string) => string> = {
  // The rows the answer is made of: the spans of the 20 traces the relation finds, with the columns a search reads.
  '{ kind = server } > { status = error }': (t, w) =>
    `SELECT ${SPAN_COLUMNS} FROM ${t} WHERE ${w} AND trace_id IN (SELECT trace_id FROM ${t} WHERE ${w} AND status_code = 2 AND (trace_id, parent_id) IN (SELECT trace_id, span_id FROM ${t} WHERE ${w} AND kind = 'SERVER') GROUP BY trace_id ORDER BY min(timestamp_ns) DESC LIMIT 20)`,
};

// TraceQL metrics over the last hour (step 60s), each next to one ClickHouse query over the same rows.
const METRICS: { q: string; sql: (spans: string, where: string) => string }[] = [
  { q: '{ } | rate() by (resource.service.name)', sql: (t, w) => `SELECT service_name, count() FROM ${t} WHERE ${w} GROUP BY service_name` },
  {
    q: '{ kind = server } > { status = error } | count_over_time()',
    sql: (t, w) => `SELECT count() FROM ${t} WHERE ${w} AND status_code = 2 AND (trace_id, parent_id) IN (SELECT trace_id, span_id FROM ${t} WHERE ${w} AND kind = 'SERVER')`,
  },
];

async function main() {
  const { loadConfig } = await import('../server/config');
  const { startPlatform } = await import('../server/platform');
  const { enableQrynOnSeededProject } = await import('../tests/support/qryn');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-tempo-'));
  const platform = await startPlatform(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'test', DEV_PAGES: 'false' }), { quiet: true, seed: true });
  try {
    const { qryn } = await enableQrynOnSeededProject(platform, 'Acme Production');
    const headers = { authorization: qryn.basic, 'content-type': 'application/json' };

    const now = BigInt(Date.now() - 30 * 60_000) * 1_000_000n;
    const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
    for (let t = 0; t < TRACES; t += 100) {
      const resourceSpans = [];
      for (let i = t; i < Math.min(t + 100, TRACES); i++) {
        const traceId = randomBytes(16).toString('hex');
        const root = randomBytes(8).toString('hex');
        const start = now + BigInt(i) * 1_000_000n;
        resourceSpans.push({
          resource: { attributes: [str('service.name', `svc-${i % 10}`)] },
          scopeSpans: [{
            spans: Array.from({ length: SPANS }, (_, s) => ({
              traceId,
              spanId: s === 0 ? root : randomBytes(8).toString('hex'),
              ...(s === 0 ? {} : { parentSpanId: root }),
              name: s === 0 ? 'GET /api/v1/items' : s % 2 ? 'db query' : 'cache get',
              kind: s === 0 ? 2 : 3,
              startTimeUnixNano: String(start + BigInt(s) * 1_000_000n),
              endTimeUnixNano: String(start + BigInt(s) * 1_000_000n + BigInt((i % 100) + 1) * 1_000_000n),
              attributes: [str('http.route', `/api/v1/items/${i % 50}`), { key: 'http.status_code', value: { intValue: i % 13 === 0 ? 503 : 200 } }],
              status: { code: i % 13 === 0 && s === 1 ? 2 : 0 },
            })),
          }],
        });
      }
      const response = await fetch(`${qryn.url}/v1/traces`, { method: 'POST', headers, body: JSON.stringify({ resourceSpans }) });
      if (!response.ok) throw new Error(`push answered ${response.status}`);
    }
    const { findInstance } = await import('../server/products/qryn/instances/qryn-repository');
    const instance = (await findInstance(platform.db, qryn.instanceId))!;
    const client = await qryn.backend.storageOf(instance);
    const spansTable = `\`${instance.database_name}\`.spans`;
    const endS = Math.ceil(Date.now() / 1000);
    const startS = endS - 3600;
    const where = `timestamp_ns >= ${startS}000000000 AND timestamp_ns < ${endS}000000000`;
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

    console.log(`search over ${TRACES} traces × ${SPANS} spans (${TRACES * SPANS} spans), ${RUNS} runs each, limit 20:`);
    console.log('| query | traces | median ms | max ms | ClickHouse alone, median ms |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const q of QUERIES) {
      const times: number[] = [];
      const direct: number[] = [];
      let found = 0;
      for (let r = 0; r < RUNS; r++) {
        const started = performance.now();
        const response = await fetch(`${qryn.url}/api/search?${new URLSearchParams({ q, limit: '20', start: String(startS), end: String(endS) })}`, { headers });
        const body = (await response.json()) as { traces: unknown[] };
        times.push(performance.now() - started);
        found = body.traces.length;
        const sql = SEARCH_DIRECT[q];
        if (sql) {
          const scan = performance.now();
          await client.query(sql(spansTable, where));
          direct.push(performance.now() - scan);
        }
      }
      times.sort((a, b) => a - b);
      console.log(`| \`${q}\` | ${found} | ${median(times).toFixed(0)} | ${times[times.length - 1].toFixed(0)} | ${direct.length ? median(direct).toFixed(0) : '–'} |`);
    }
    console.log(`\nmetrics over ${TRACES * SPANS} spans, ${RUNS} runs each, step 60s, next to a direct ClickHouse query of the same rows:`);
    console.log('| query | series | median ms | max ms | ClickHouse alone, median ms |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const m of METRICS) {
      const times: number[] = [];
      const direct: number[] = [];
      let series = 0;
      for (let r = 0; r < RUNS; r++) {
        const started = performance.now();
        const response = await fetch(`${qryn.url}/api/metrics/query_range?${new URLSearchParams({ q: m.q, start: String(startS), end: String(endS), step: '60s' })}`, { headers });
        const body = (await response.json()) as { series: unknown[] };
        if (!response.ok) throw new Error(`${m.q}: ${response.status} ${JSON.stringify(body)}`);
        times.push(performance.now() - started);
        series = body.series.length;
        const scan = performance.now();
        await client.query(m.sql(spansTable, where));
        direct.push(performance.now() - scan);
      }
      times.sort((a, b) => a - b);
      direct.sort((a, b) => a - b);
      console.log(`| \`${m.q}\` | ${series} | ${times[Math.floor(times.length / 2)].toFixed(0)} | ${times[times.length - 1].toFixed(0)} | ${direct[Math.floor(direct.length / 2)].toFixed(0)} |`);
    }

    const ws = new WebSocket(`${qryn.url.replace(/^http/, 'ws')}/loki/api/v1/tail?${new URLSearchParams({ query: '{job="bench-tail"}' })}`, { headers: { authorization: qryn.basic } });
    const arrivals = new Map<string, number>();
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { streams: { values: [string, string][] }[] };
      for (const s of frame.streams) for (const [, line] of s.values) arrivals.set(line, performance.now());
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const delays: number[] = [];
    for (let i = 0; i < LINES; i++) {
      const line = `line ${i}`;
      const body = JSON.stringify({ streams: [{ stream: { job: 'bench-tail' }, values: [[`${Date.now()}000000`, line]] }] });
      const response = await fetch(`${qryn.url}/loki/api/v1/push`, { method: 'POST', headers, body });
      if (response.status !== 204) throw new Error(`push answered ${response.status}`);
      const pushed = performance.now();
      const until = pushed + 5_000;
      while (!arrivals.has(line) && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
      delays.push((arrivals.get(line) ?? Infinity) - pushed);
      await new Promise((r) => setTimeout(r, 137 * (i % 7)));
    }
    ws.close();
    delays.sort((a, b) => a - b);
    console.log(`\nlive tail, ${LINES} lines pushed one at a time: push answered → line received, median ${delays[Math.floor(delays.length / 2)].toFixed(0)} ms, max ${delays[delays.length - 1].toFixed(0)} ms`);
  } finally {
    await platform.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
