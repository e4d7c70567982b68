import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { eventually } from '../support/qryn';
import { enableTwoTenants, expectLatencyKept, flood, pushFloodLines, pushSmallData, timedGet, type Tenants, type Timed } from '../support/tenant-reads';
import { readScheduler } from '../../server/products/qryn/query/read-scheduler';
import { findInstance, updateReadLimits } from '../../server/products/qryn/instances/qryn-repository';
import type { StorageClient } from '../../server/products/qryn/storage/storage-client';

// The calls around the query languages on one platform and its real ClickHouse: while tenant A floods the label and
// stats calls, tenant B's label-values call keeps its answer time and never fails, and A's excess is refused 429;
// an aborted call leaves ClickHouse's system.processes; a read of an instance over its share carries a lower
// ClickHouse priority than a read in its share.

let platform: TestPlatform;
let tenants: Tenants;
let storage: StorageClient;
let database: string;

/** Rows added to A's lines in ClickHouse itself (in inserts of BULK_STEP), so that a stats call reads for a while. */
const BULK_ROWS = 20_000_000;
const BULK_STEP = 5_000_000;

beforeAll(async () => {
  platform = await startTestPlatform();
  tenants = await enableTwoTenants(platform);
  await pushFloodLines(tenants.a, 20_000, 50 * 60_000);
  await pushSmallData(tenants.b);
  const instance = (await findInstance(platform.db, tenants.a.instanceId))!;
  storage = await tenants.a.backend.storageOf(instance);
  database = instance.database_name;
  const [{ fp }] = await storage.query<{ fp: string }>(`SELECT toString(any(fingerprint)) AS fp FROM ${database}.log_samples`);
  const fromNs = BigInt(Date.now() - 40 * 60_000) * 1_000_000n;
  for (let offset = 0; offset < BULK_ROWS; offset += BULK_STEP) {
    await storage.command(
      `INSERT INTO ${database}.log_samples (date, fingerprint, timestamp_ns, line)
       SELECT toDate(toDateTime(intDiv(ts, 1000000000))), ${fp}, ts, toString(number % 1000)
       FROM (SELECT number, ${fromNs} + (number + ${offset}) * 100000 AS ts FROM system.numbers LIMIT ${BULK_STEP})`,
    );
  }
  // The noisy tenant's reads take one ClickHouse thread each (its own limits, as an operator would set them).
  await updateReadLimits(platform.db, tenants.a.instanceId, { maxThreads: 1 });
  tenants.a.backend.invalidate(tenants.a.instanceId);
  await eventually(async () => {
    const response = await fetch(labelValuesUrl(tenants.b), { headers: { authorization: tenants.b.basic } });
    const body = (await response.json()) as { data: string[] };
    return body.data.includes('shop') ? true : undefined;
  }, 60_000);
}, 400_000);

afterAll(async () => platform?.stop());

function labelValuesUrl(t: { url: string }): string {
  const end = Date.now() + 60_000;
  return `${t.url}/loki/api/v1/label/app/values?${new URLSearchParams({ start: `${end - 3_600_000}000000`, end: `${end}000000` })}`;
}

/** A's stats of every stream over the last hour (it reads every line of the range). */
function statsUrl(): string {
  const end = Date.now() + 60_000;
  return `${tenants.a.url}/loki/api/v1/index/stats?${new URLSearchParams({ query: '{}', start: `${end - 3_600_000}000000`, end: `${end}000000` })}`;
}

/** A's label, series and stats calls, taken in turn by each flooding client. */
const metadataUrls = () => [statsUrl(), `${tenants.a.url}/loki/api/v1/series?${new URLSearchParams({ 'match[]': '{app="flood"}' })}`, labelValuesUrl(tenants.a)];

async function bValues(count: number): Promise<Timed[]> {
  const results: Timed[] = [];
  // Each call a range of its own, so that no answer comes from the lookup cache.
  for (let i = 0; i < count; i++) results.push(await timedGet(`${labelValuesUrl(tenants.b)}&n=${i}`, tenants.b.basic));
  return results;
}

it("keeps tenant B's label values fast and whole while tenant A floods the calls about streams, and refuses A's excess", async () => {
  const { a, b } = tenants;
  await bValues(4);
  const alone = await bValues(20);
  expect(alone.map((r) => r.status)).toEqual(Array(20).fill(200));
  const flooding = flood(a, 24, metadataUrls);
  let under: Timed[];
  let aResults: Timed[];
  try {
    await expect.poll(() => readScheduler().counters(a.instanceId).queued, { timeout: 60_000 }).toBeGreaterThanOrEqual(10);
    under = await bValues(20);
  } finally {
    aResults = await flooding.stop();
  }
  expectLatencyKept('label values', alone, under, aResults.length);
  const refused = aResults.filter((r) => r.status === 429);
  expect(refused.length).toBeGreaterThan(0);
  for (const r of refused) {
    expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(r.error!).error).toBe('too many outstanding requests');
  }
  // A's other calls are answered, or get Loki's timeout when their deadline passed while they waited behind A's own.
  expect(aResults.filter((r) => r.status === 200).length).toBeGreaterThan(0);
  expect(aResults.filter((r) => r.status !== 200 && r.status !== 429 && r.status !== 504)).toEqual([]);
  expect(readScheduler().counters(b.instanceId)).toMatchObject({ running: 0, queued: 0, refused: 0 });
}, 300_000);

interface Process {
  query_id: string;
  names: string[];
  values: string[];
}

/** The ClickHouse queries now reading A's lines, with their settings. */
async function readingA(): Promise<Process[]> {
  return storage.query<Process>(
    `SELECT query_id, Settings.Names AS names, Settings.Values AS values FROM system.processes
     WHERE query LIKE '%${database}.log_samples%' AND query NOT LIKE '%system.processes%'`,
  );
}

const priorityOf = (p: Process) => p.values[p.names.indexOf('priority')];

it('kills an aborted stats call on ClickHouse, and reads a flooding instance at a lower priority', async () => {
  const { a } = tenants;
  // What the flood before left being killed in ClickHouse is gone first.
  await eventually(async () => ((await readingA()).length === 0 ? true : undefined), 30_000);
  // One call alone: in the instance's share, at the normal priority; aborted, it leaves system.processes.
  const controller = new AbortController();
  const call = fetch(statsUrl(), { headers: { authorization: a.basic }, signal: controller.signal }).catch((error: unknown) => error);
  const [alone] = await eventually(async () => {
    const found = await readingA();
    return found.length > 0 ? found : undefined;
  }, 30_000);
  expect(priorityOf(alone)).toBe('1');
  expect(alone.values[alone.names.indexOf('max_threads')]).toBe('1');
  controller.abort();
  await call;
  await eventually(async () => ((await readingA()).length === 0 ? true : undefined), 20_000);

  // Six calls at once: two run, four wait; each read that starts with more of A's reads behind it is background.
  const calls = Array.from({ length: 6 }, () => new AbortController());
  const pending = calls.map((c) => fetch(statsUrl(), { headers: { authorization: a.basic }, signal: c.signal }).catch((error: unknown) => error));
  try {
    const seen = await eventually(async () => {
      const found = await readingA();
      return found.some((p) => priorityOf(p) === '2') ? found : undefined;
    }, 60_000);
    expect(seen.every((p) => ['1', '2'].includes(priorityOf(p)))).toBe(true);
  } finally {
    for (const c of calls) c.abort();
    await Promise.all(pending);
  }
  await eventually(async () => ((await readingA()).length === 0 ? true : undefined), 20_000);
}, 300_000);

it("applies an instance's own read limits to its LogQL and PromQL evaluations in the query workers, and not to other instances", async () => {
  const { a, b } = tenants;
  const end = Date.now() + 60_000;
  const logs = `${b.url}/loki/api/v1/query_range?${new URLSearchParams({ query: '{app="shop"}', limit: '10', start: `${end - 600_000}000000`, end: `${end}000000` })}`;
  const metrics = `${b.url}/api/v1/query?${new URLSearchParams({ query: 'shop_requests_total{job="shop"}' })}`;
  expect((await timedGet(logs, b.basic)).status).toBe(200);
  await updateReadLimits(platform.db, b.instanceId, { maxRowsToRead: 1 });
  b.backend.invalidate(b.instanceId);
  try {
    const refusedLogs = await timedGet(logs, b.basic);
    expect(refusedLogs.status).toBe(400);
    expect(refusedLogs.error).toContain("the query exceeded the storage's limit on rows to read (QRYN_READ_MAX_ROWS_TO_READ: 1)");
    const refusedMetrics = await timedGet(metrics, b.basic);
    expect(refusedMetrics.status).toBe(422);
    expect(JSON.parse(refusedMetrics.error!).error).toContain('QRYN_READ_MAX_ROWS_TO_READ: 1');
    // A's reads keep the platform's bounds.
    expect((await timedGet(labelValuesUrl(a), a.basic)).status).toBe(200);
  } finally {
    await updateReadLimits(platform.db, b.instanceId, {});
    b.backend.invalidate(b.instanceId);
  }
  expect((await timedGet(logs, b.basic)).status).toBe(200);
}, 120_000);
