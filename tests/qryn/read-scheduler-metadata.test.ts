import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { eventually } from '../support/qryn';
import { enableTwoTenants, flood, percentile, pushFloodLines, pushSmallData, timedGet, type Tenants, type Timed } from '../support/tenant-reads';
import { readScheduler } from '../../server/products/qryn/read-scheduler';
import { findInstance, updateReadLimits } from '../../server/products/qryn/qryn-repository';
import type { StorageClient } from '../../server/products/qryn/storage-client';

// The calls around the query languages on one platform and its real ClickHouse: while tenant A floods the label and
// stats calls, tenant B's label-values call keeps its answer time and never fails, and A's excess is refused 429;
// an aborted call leaves ClickHouse's system.processes; a read of an instance over its share carries a lower
// ClickHouse priority than a read in its share.

let platform: TestPlatform;
let tenants: Tenants;
let storage: StorageClient;
let database: string;

/** Rows added to A's lines in ClickHouse itself, so that a stats call reads for seconds. */
const BULK_ROWS = 60_000_000;

beforeAll(async () => {
  platform = await startTestPlatform();
  tenants = await enableTwoTenants(platform);
  await pushFloodLines(tenants.a, 20_000, 50 * 60_000);
  await pushSmallData(tenants.b);
  const instance = (await findInstance(platform.db, tenants.a.instanceId))!;
  storage = await tenants.a.backend.storageOf(instance);
  database = instance.database_name;
  await eventually(async () => {
    const response = await fetch(labelValuesUrl(tenants.b), { headers: { authorization: tenants.b.basic } });
    const body = (await response.json()) as { data: string[] };
    return body.data.includes('shop') ? true : undefined;
  }, 60_000);
}, 240_000);

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
  const p50Alone = percentile(alone.map((r) => r.ms), 50);
  const p50Under = percentile(under.map((r) => r.ms), 50);
  console.log(`tenant B label values p50 alone ${p50Alone.toFixed(0)} ms, under A's flood ${p50Under.toFixed(0)} ms; A: ${aResults.length} answers`);
  expect(under.map((r) => r.status)).toEqual(Array(20).fill(200));
  expect(p50Under).toBeLessThanOrEqual(Math.max(5 * p50Alone, p50Alone + 150));
  const refused = aResults.filter((r) => r.status === 429);
  expect(refused.length).toBeGreaterThan(0);
  for (const r of refused) {
    expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(r.error!).error).toBe('too many outstanding requests');
  }
  expect(aResults.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
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
  // Many rows of one of A's streams, in ClickHouse directly: a stats call then reads for seconds on one thread.
  const [{ fp }] = await storage.query<{ fp: string }>(`SELECT toString(any(fingerprint)) AS fp FROM ${database}.log_samples`);
  const fromNs = BigInt(Date.now() - 40 * 60_000) * 1_000_000n;
  await storage.command(
    `INSERT INTO ${database}.log_samples (date, fingerprint, timestamp_ns, line)
     SELECT toDate(toDateTime(intDiv(${fromNs} + number * 10000, 1000000000))), ${fp}, ${fromNs} + number * 10000, toString(number % 1000) FROM system.numbers LIMIT ${BULK_ROWS}`,
  );
  await updateReadLimits(platform.db, a.instanceId, { maxThreads: 1 });
  a.backend.invalidate(a.instanceId);

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
  await updateReadLimits(platform.db, a.instanceId, {});
  a.backend.invalidate(a.instanceId);
}, 300_000);
