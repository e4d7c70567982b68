import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { logqlWorkerThreads } from '../../server/products/qryn/read/loki-api';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';

// LogQL is evaluated off the gateway's event loop: a pipeline over many lines keeps the gateway's thread busy only
// when the workers are turned off (QRYN_LOKI_WORKERS=0), and the query's deadline stops the evaluation in the worker.

const S = 1_000_000_000n;
const LINES = 30_000;
const HEAVY =
  'sum by (level) (count_over_time({app="heavy"} | json | line_format "{{.msg}} {{.level}} {{.path}}" | label_format shout="{{ ToUpper .msg }}" | line_format "{{.shout}} {{ .path | replace \\"/\\" \\"-\\" }}" [1m]))';
let platform: TestPlatform;
let qryn: EnabledQryn;
let start: bigint;
let end: bigint;

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ qryn } = await enableQrynOnSeededProject(platform, 'Acme Staging'));
  end = (BigInt(Date.now()) * 1_000_000n / (60n * S)) * 60n * S;
  start = end - 30n * 60n * S;
  const spacing = (end - start) / BigInt(LINES);
  const levels = ['info', 'warn', 'error', 'debug'];
  for (let batch = 0; batch < LINES; batch += 15_000) {
    const values: [string, string][] = [];
    for (let i = batch; i < batch + 15_000; i++) {
      values.push([String(start + BigInt(i) * spacing + 1n), JSON.stringify({ level: levels[i % 4], msg: `request ${i}`, path: `/api/${i % 13}`, latency_ms: i % 977 })]);
    }
    const response = await fetch(`${qryn.url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { authorization: qryn.basic, 'content-type': 'application/json' },
      body: JSON.stringify({ streams: [{ stream: { app: 'heavy' }, values }] }),
    });
    expect(response.status).toBe(204);
  }
}, 120_000);

afterAll(async () => {
  delete process.env.QRYN_LOKI_WORKERS;
  delete process.env.QRYN_LOKI_QUERY_TIMEOUT_MS;
  await platform?.stop();
});

async function heavyQuery() {
  const params = new URLSearchParams({ query: HEAVY, start: String(start), end: String(end), step: '60' });
  const response = await fetch(`${qryn.url}/loki/api/v1/query_range?${params}`, { headers: { authorization: qryn.basic } });
  return { status: response.status, text: await response.text() };
}

/** The time this thread's event loop was busy (not waiting) while `run` ran, in ms. */
async function busyMs<T>(run: () => Promise<T>): Promise<{ busy: number; result: T }> {
  const before = performance.eventLoopUtilization();
  const result = await run();
  return { busy: performance.eventLoopUtilization(before).active, result };
}

async function leastBusy() {
  let least = Infinity;
  for (let i = 0; i < 2; i++) {
    const { busy, result } = await busyMs(heavyQuery);
    expect(result.status).toBe(200);
    least = Math.min(least, busy);
  }
  return { busy: least };
}

it('evaluates a heavy pipeline in a worker thread, not on the gateway event loop', async () => {
  // Warm up both paths (the worker's start and module loading, the engine's first compilation) before measuring.
  process.env.QRYN_LOKI_WORKERS = '0';
  const inThread = await heavyQuery();
  delete process.env.QRYN_LOKI_WORKERS;
  const inWorker = await heavyQuery();
  expect(inWorker.status).toBe(200);
  expect(logqlWorkerThreads().length).toBeGreaterThan(0);
  // The same answer either way (stats aside: they carry timings).
  const data = (text: string) => {
    const { data: { stats: _stats, ...rest } } = JSON.parse(text) as { data: { stats: unknown } };
    return rest;
  };
  expect(data(inWorker.text)).toEqual(data(inThread.text));
  const sums = (JSON.parse(inWorker.text) as { data: { result: { values: [number, string][] }[] } }).data.result
    .flatMap((s) => s.values.map(([, v]) => Number(v)))
    .reduce((a, b) => a + b, 0);
  expect(sums).toBe(LINES);

  // The less busy of two runs each: other work of this process (or a loaded machine) only adds to the figure.
  const worker = await leastBusy();
  process.env.QRYN_LOKI_WORKERS = '0';
  const gateway = await leastBusy();
  delete process.env.QRYN_LOKI_WORKERS;
  // In this thread the engine over 30,000 lines keeps the event loop busy; with the workers it only parses the
  // parameters and writes the answer.
  expect(worker.busy).toBeLessThan(gateway.busy / 2);
}, 120_000);

it('stops the evaluation in the worker at the query timeout and answers Loki timeout error', async () => {
  process.env.QRYN_LOKI_QUERY_TIMEOUT_MS = '1';
  const timedOut = await heavyQuery();
  delete process.env.QRYN_LOKI_QUERY_TIMEOUT_MS;
  expect(timedOut).toEqual({ status: 504, text: 'Request timed out, decrease the duration of the request or add more label matchers to your query.' });
  // The worker stopped the evaluation itself and answered: a stuck worker would have been terminated and replaced
  // by one with a new thread id before the next query is done.
  const threads = logqlWorkerThreads();
  const after = await heavyQuery();
  expect(after.text.slice(0, 300)).toMatch(/"status":"success"/);
  expect(threads.length).toBeGreaterThan(0);
  expect(logqlWorkerThreads()).toEqual(expect.arrayContaining(threads));
}, 60_000);
