import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { eventually } from '../support/qryn';
import { enableTwoTenants, expectLatencyKept, flood, pushFloodLines, pushSmallData, smallReads, smallReadUrls, timedGet, type Tenants, type Timed } from '../support/tenant-reads';
import { readScheduler } from '../../server/products/qryn/query/read-scheduler';

// Two tenants on one platform and its real ClickHouse, with the read scheduler's default settings: while tenant A
// (Acme) floods the read side with 20 clients of an expensive LogQL query, tenant B (another organization) keeps the
// answer times of its small Loki and Prometheus reads, none of them fails, and what A sends past its share is
// refused 429 with Retry-After and counted on A's metrics.

let platform: TestPlatform;
let tenants: Tenants;

beforeAll(async () => {
  platform = await startTestPlatform();
  tenants = await enableTwoTenants(platform);
  await pushFloodLines(tenants.a, 60_000, 55 * 60_000);
  await pushSmallData(tenants.b);
  // Both tenants' data is readable before anything is timed.
  const [logs, metrics] = smallReadUrls(tenants.b);
  await eventually(async () => {
    const response = await fetch(logs, { headers: { authorization: tenants.b.basic } });
    const body = (await response.json()) as { data: { result: unknown[] } };
    return body.data.result.length > 0 ? true : undefined;
  }, 60_000);
  await eventually(async () => {
    const response = await fetch(metrics, { headers: { authorization: tenants.b.basic } });
    const body = (await response.json()) as { data: { result: unknown[] } };
    return body.data.result.length > 0 ? true : undefined;
  }, 60_000);
}, 240_000);

afterAll(async () => platform?.stop());

it("keeps tenant B's reads fast and whole while tenant A floods, and refuses A's excess with 429 and Retry-After", async () => {
  const { a, b } = tenants;
  // The query workers start on first use: not part of what is timed.
  await smallReads(b, 4);
  const alone = await smallReads(b, 20);
  expect(alone.map((r) => r.status)).toEqual(Array(20).fill(200));

  const flooding = flood(a, 20);
  let aResults;
  let under;
  let promRefusal: Timed | undefined;
  try {
    // The flood is on: A holds its share of running reads and more wait behind them.
    await expect.poll(() => readScheduler().counters(a.instanceId).queued, { timeout: 60_000 }).toBeGreaterThanOrEqual(10);
    under = await smallReads(b, 20);
    // The Prometheus API refuses in Prometheus' error shape (a probe that got in waits its turn; the next one tries).
    for (let probe = 0; probe < 10 && !promRefusal; probe++) {
      const answer = await timedGet(`${a.url}/api/v1/query?query=up`, a.basic);
      if (answer.status === 429) promRefusal = answer;
    }
  } finally {
    aResults = await flooding.stop();
  }

  // None of B's reads fails or is refused, and their p50 stays within 5× of alone.
  expectLatencyKept('reads', alone, under, aResults.length);

  // A's excess is refused with a Retry-After of whole seconds; the rest of A's queries are answered.
  const refused = aResults.filter((r) => r.status === 429);
  expect(refused.length).toBeGreaterThan(0);
  for (const r of refused) {
    expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(r.error).toBe('too many outstanding requests');
  }
  expect(promRefusal).toBeDefined();
  expect(Number(promRefusal!.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(JSON.parse(promRefusal!.error!)).toEqual({ status: 'error', errorType: 'too_many_requests', error: 'too many outstanding requests' });
  expect(aResults.filter((r) => r.status === 200).length).toBeGreaterThan(0);
  expect(aResults.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);

  // The counters of both instances, A's through the platform API as the Overview reads them.
  const end = Math.floor(Date.now() / 1000) + 60;
  const response = await fetch(`${platform.url}/api/integrations/qryn/metrics?project_id=${a.projectId}&start=0&end=${end}`, { headers: { authorization: `Bearer ${tenants.aToken}` } });
  expect(response.status).toBe(200);
  const metrics = (await response.json()) as Record<string, number>;
  expect(metrics.reads_refused).toBe(refused.length + 1);
  expect(metrics.reads_bytes_answered).toBeGreaterThan(0);
  expect(metrics).toMatchObject({ reads_running: 0, reads_queued: 0, reads_timed_out: 0, reads_running_limit: 2, reads_queued_limit: 16 });
  expect(readScheduler().counters(b.instanceId)).toMatchObject({ running: 0, queued: 0, refused: 0, timedOut: 0 });
}, 300_000);

it('answers a read whose deadline passes while it waits with the reference timeout, and counts it', async () => {
  const { a } = tenants;
  // Six of A's expensive reads: two hold its share, four wait; a read with a 50 ms timeout waits behind them.
  const flooding = flood(a, 6);
  try {
    await expect.poll(() => readScheduler().counters(a.instanceId).queued, { timeout: 60_000 }).toBe(4);
    const before = readScheduler().counters(a.instanceId).timedOut;
    const response = await fetch(`${a.url}/api/v1/query?query=up&timeout=50ms`, { headers: { authorization: a.basic } });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'error', errorType: 'timeout', error: 'query timed out in query execution' });
    expect(readScheduler().counters(a.instanceId).timedOut).toBe(before + 1);
  } finally {
    await flooding.stop();
  }
}, 120_000);
