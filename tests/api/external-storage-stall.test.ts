import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterForFile, queryNode, type LocalClickhouseCluster } from '../support/clickhouse-cluster';
import { startPlatformOnCluster } from '../support/platform-on-cluster';
import { enableQrynOnSeededProject, eventually, type EnabledQryn } from '../support/qryn';
import type { TestPlatform } from '../support/start-platform';

// One node of a two-shard ClickHouse 18.16 cluster hangs (SIGSTOP): pushes and reads are answered 503 with
// Retry-After within the configured timeouts (not the client's minute), the instance's /ready fails and the status
// page's Storage is down while it hangs; after SIGCONT everything is served again. Bounds are generous: the machine
// runs many test processes.

const READ_TIMEOUT_S = 4;
const INSERT_TIMEOUT_S = 4;

const clusterOfFile = clusterForFile({ shards: 2 });
let cluster: LocalClickhouseCluster;
let platform: TestPlatform;
let qryn: EnabledQryn;
let ownerToken: string;
beforeAll(async () => {
  cluster = clusterOfFile();
  platform = await startPlatformOnCluster(cluster, { QRYN_CLICKHOUSE_READ_TIMEOUT_S: String(READ_TIMEOUT_S), QRYN_CLICKHOUSE_INSERT_TIMEOUT_S: String(INSERT_TIMEOUT_S) });
  ({ qryn, ownerToken } = await enableQrynOnSeededProject(platform, 'Acme Production'));
}, 120_000);
afterAll(async () => {
  await platform?.stop();
});

interface Answer {
  status: number;
  retryAfter: string | null;
  ms: number;
}
async function timed(url: string, init: RequestInit = {}): Promise<Answer> {
  const started = Date.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(120_000) });
  await response.body?.cancel();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), ms: Date.now() - started };
}
let sequence = 0;
function push(): Promise<Answer> {
  const now = BigInt(Date.now()) * 1_000_000n + BigInt(sequence++);
  // Several streams, so the lines go to both shards.
  const streams = Array.from({ length: 8 }, (_, i) => ({ stream: { job: 'stall', n: String(i) }, values: [[String(now), `line ${sequence}`]] }));
  return timed(`${qryn.url}/loki/api/v1/push`, { method: 'POST', headers: { authorization: qryn.basic, 'content-type': 'application/json' }, body: JSON.stringify({ streams }) });
}
function read(): Promise<Answer> {
  const params = new URLSearchParams({ query: '{job="stall"}', start: String((Date.now() - 3_600_000) * 1_000_000), end: String((Date.now() + 60_000) * 1_000_000), limit: '10' });
  return timed(`${qryn.url}/loki/api/v1/query_range?${params}`, { headers: { authorization: qryn.basic } });
}
const ready = () => timed(`${platform.url}/qryn/${qryn.instanceId}/ready`);
async function storageRunning(): Promise<boolean | undefined> {
  const response = await fetch(`${platform.url}/api/integrations/status`, { headers: { authorization: `Bearer ${ownerToken}` } });
  const products = (await response.json()) as { slug: string; services: { name: string; running: boolean }[] }[];
  return products.find((p) => p.slug === 'qryn')?.services.find((s) => s.name === 'Storage')?.running;
}
/** Polls `read` until `done` holds (bounded: a minute on a loaded machine). */
const until = <T>(read: () => Promise<T>, done: (value: T) => boolean) =>
  eventually(async () => {
    const value = await read();
    return done(value) ? value : undefined;
  }, 60_000);

describe('a stalled shard of an existing ClickHouse cluster', () => {
  it('is answered 503 with Retry-After within the timeouts, fails /ready and Storage, and is served again after it resumes', async () => {
    expect((await push()).status).toBe(204);
    expect((await read()).status).toBe(200);
    expect((await ready()).status).toBe(200);
    expect(await until(storageRunning, (running) => running === true)).toBe(true);

    cluster.pause(1);
    try {
      const notReady = await until(ready, (r) => r.status === 503);
      expect(notReady.retryAfter).toMatch(/^\d+$/);
      expect(await until(storageRunning, (running) => running === false)).toBe(false);

      const pushed = await push();
      expect(pushed.status).toBe(503);
      expect(pushed.retryAfter).toMatch(/^\d+$/);
      // Within the read (stored-bytes measure) and insert timeouts plus slack for a loaded machine; well under 60 s.
      expect(pushed.ms).toBeLessThan((READ_TIMEOUT_S + INSERT_TIMEOUT_S) * 1000 + 20_000);
      const answered = await read();
      expect(answered.status).toBe(503);
      expect(answered.retryAfter).toMatch(/^\d+$/);
      expect(answered.ms).toBeLessThan(READ_TIMEOUT_S * 1000 + 20_000);
      // An enable meanwhile is refused as unavailable before any DDL is sent (a statement queued on the hung node
      // would run when it resumes): 503 with Retry-After, no database on either node afterwards.
      const staging = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
      const enable = await fetch(`${platform.url}/api/integrations/qryn?project_id=${staging}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ cluster_id: 'shared-local', writer_region_code: 'local' }),
        signal: AbortSignal.timeout(120_000),
      });
      const enableBody = await enable.text();
      expect(enable.status, enableBody).toBe(503);
      expect(enable.headers.get('retry-after')).toMatch(/^\d+$/);
      // The node that does not answer is named in the operator's log, never to the customer (an internal address).
      expect(enableBody).not.toContain(cluster.nodes[1].url);
      expect(enableBody).toContain('The storage did not answer; nothing was enabled.');
      console.log(`stalled shard: push answered ${pushed.status} in ${pushed.ms} ms, read ${answered.status} in ${answered.ms} ms`);
    } finally {
      cluster.resume(1);
    }

    expect((await until(ready, (r) => r.status === 200)).status).toBe(200);
    expect(await until(storageRunning, (running) => running === true)).toBe(true);
    expect((await until(push, (p) => p.status === 204)).status).toBe(204);
    expect((await until(read, (r) => r.status === 200)).status).toBe(200);
    for (const node of [0, 1]) {
      const databases = await queryNode(cluster, node, "SELECT name FROM system.databases WHERE name LIKE 'qryn_%' FORMAT TSV");
      expect(databases.split('\n').filter(Boolean)).toEqual([`qryn_${qryn.instanceId}`]);
    }
  }, 240_000);
});
