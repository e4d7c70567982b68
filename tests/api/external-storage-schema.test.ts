import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_SETTINGS } from '../../server/products/qryn/storage/external-storage';
import { createInstanceSchema } from '../../server/products/qryn/storage/schema';
import { storageUnavailable } from '../../server/products/qryn/storage/storage-availability';
import { storageClient } from '../../server/products/qryn/storage/storage-client';
import type { StorageEndpoint } from '../../server/products/qryn/storage/storage-server';
import { clusterForFile, queryNode, type LocalClickhouseCluster } from '../support/clickhouse-cluster';
import { startPlatformOnCluster } from '../support/platform-on-cluster';
import { enableQrynOnSeededProject } from '../support/qryn';

// qryn's schema on an existing two-node ClickHouse 18.16 cluster whose users have a stock profile (no
// allow_experimental_low_cardinality_type): the DDL carries what it needs, a failed create leaves nothing on any node,
// and a refusal is told apart from an unavailable storage.

// The nodes run docs/qryn.md's worked example files (tests/fixtures/clickhouse-two-nodes).
const clusterOfFile = clusterForFile({ documented: true });
let cluster: LocalClickhouseCluster;
beforeAll(() => {
  cluster = clusterOfFile();
});

const qrynDatabases = async (node: number, name: string) => queryNode(cluster, node, `SELECT name FROM system.databases WHERE name = '${name}' FORMAT TSV`);

/** A client of the cluster whose node list is given (a node may be wrong on purpose). */
function clusterClient(nodes: StorageEndpoint[]) {
  const entry = { url: `${cluster.url}/?${CLUSTER_SETTINGS}`, user: cluster.user, password: cluster.password };
  return storageClient({ ...entry, cluster: { name: cluster.name, replicated: false, nodes: async () => nodes } });
}

describe('qryn schema on a stock-profile ClickHouse cluster', () => {
  it("docs/qryn.md shows the example's files as the fixture has them", async () => {
    const docs = await readFile(path.resolve(__dirname, '../../docs/qryn.md'), 'utf8');
    for (const file of ['config.d/qryn-cluster.xml', 'users.d/qryn.xml']) {
      const text = await readFile(path.resolve(__dirname, '../fixtures/clickhouse-two-nodes', file), 'utf8');
      expect(docs).toContain(`\`\`\`xml\n${text}\`\`\``);
    }
  });

  it('the stock profile refuses LowCardinality without the per-statement setting (the case the DDL handles)', async () => {
    await expect(queryNode(cluster, 0, 'CREATE TABLE default.lc_probe (x LowCardinality(String)) ENGINE = Memory')).rejects.toThrow(/LowCardinality|experimental/i);
  });

  it('enables, pushes and reads with a stock profile', async () => {
    const platform = await startPlatformOnCluster(cluster);
    try {
      const { qryn } = await enableQrynOnSeededProject(platform, 'Acme Production');
      const database = `qryn_${qryn.instanceId}`;
      for (const node of [0, 1]) expect(await queryNode(cluster, node, `SELECT type FROM system.columns WHERE database = '${database}' AND table = 'time_series_local' AND name = 'type' FORMAT TSV`)).toBe('LowCardinality(String)');
      const now = BigInt(Date.now()) * 1_000_000n;
      const streams = Array.from({ length: 6 }, (_, i) => ({ stream: { job: 'stock', n: String(i) }, values: [[String(now + BigInt(i)), `stock line ${i}`]] }));
      const pushed = await fetch(`${qryn.url}/loki/api/v1/push`, { method: 'POST', headers: { authorization: qryn.basic, 'content-type': 'application/json' }, body: JSON.stringify({ streams }) });
      expect(pushed.status).toBe(204);
      const params = new URLSearchParams({ query: '{job="stock"}', start: String(now - 3_600_000_000_000n), end: String(now + 60_000_000_000n), limit: '100' });
      const read = await fetch(`${qryn.url}/loki/api/v1/query_range?${params}`, { headers: { authorization: qryn.basic } });
      expect(read.status).toBe(200);
      const body = (await read.json()) as { data: { result: { values: [string, string][] }[] } };
      expect(body.data.result.flatMap((r) => r.values.map(([, line]) => line)).sort()).toEqual(streams.map((s) => s.values[0][1]).sort());
    } finally {
      await platform.stop();
    }
  }, 120_000);

  it('a node that refuses (wrong password) fails the create as a refusal, and the other node keeps nothing', async () => {
    const database = `qryn_refused${Date.now()}`;
    const client = clusterClient([
      { url: cluster.nodes[0].url, user: cluster.user, password: cluster.password },
      { url: cluster.nodes[1].url, user: cluster.user, password: 'not-the-password' },
    ]);
    const failure = await createInstanceSchema(client, database).then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toMatch(/193|password/i);
    expect(storageUnavailable(failure)).toBe(false);
    expect(await qrynDatabases(0, database)).toBe('');
    expect(await qrynDatabases(1, database)).toBe('');
  }, 60_000);

  it('a node that cannot be reached fails the create as unavailable, and the other node keeps nothing', async () => {
    const database = `qryn_unreached${Date.now()}`;
    const client = clusterClient([
      { url: cluster.nodes[0].url, user: cluster.user, password: cluster.password },
      // A loopback address where nothing listens: connection refused at once.
      { url: 'http://127.0.0.9:9', user: cluster.user, password: cluster.password },
    ]);
    const failure = await createInstanceSchema(client, database).then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(storageUnavailable(failure)).toBe(true);
    expect(await qrynDatabases(0, database)).toBe('');
  }, 60_000);
});
