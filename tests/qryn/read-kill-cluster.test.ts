import { eventually } from '../support/qryn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectExternalStorage } from '../../server/products/qryn/storage/external-storage';
import { storageClient, type StorageClient } from '../../server/products/qryn/storage/storage-client';
import type { StorageEndpoint } from '../../server/products/qryn/storage/storage-server';
import { startLocalClickhouseCluster, type LocalClickhouseCluster } from '../support/clickhouse-cluster';

// A read stopped early on a ClickHouse cluster (two local 18.16 servers, one shard each): the distributed query's
// parts run on every node (the other node's under its own id, with the entry's as initial_query_id), and once the
// reader aborts none of them is left in any node's system.processes, whether the endpoint knows the cluster (the
// gateway's) or only its node URLs (a query worker's copy).

let cluster: LocalClickhouseCluster;
const nodeClients: StorageClient[] = [];

beforeAll(async () => {
  cluster = await startLocalClickhouseCluster();
  for (const node of cluster.nodes) {
    const client = storageClient({ url: node.url, user: cluster.user, password: cluster.password });
    nodeClients.push(client);
    // A Distributed table over each node's endless numbers: a query over it runs on both nodes until stopped.
    await client.command(`CREATE TABLE IF NOT EXISTS default.numbers_everywhere AS system.numbers ENGINE = Distributed(${cluster.name}, system, numbers)`);
  }
}, 120_000);

afterAll(async () => {
  await cluster?.close();
});

/** Polls until `check` holds, failing past `boundMs`. */
const until = (check: () => Promise<boolean>, boundMs = 20_000) => eventually(async () => ((await check()) ? true : undefined), boundMs);

/** On how many nodes a part of the query runs. */
async function nodesRunning(queryId: string): Promise<number> {
  let n = 0;
  for (const client of nodeClients) {
    const [row] = await client.query<{ n: string }>(`SELECT toString(count()) AS n FROM system.processes WHERE query_id = '${queryId}' OR initial_query_id = '${queryId}'`);
    if (Number(row.n) > 0) n++;
  }
  return n;
}

async function abortOnEveryNode(endpoint: StorageEndpoint, queryId: string) {
  const client = storageClient(endpoint);
  const controller = new AbortController();
  const read = (async () => {
    for await (const rows of client.streamRows('SELECT sum(cityHash64(toString(number))) AS s FROM default.numbers_everywhere', { signal: controller.signal, queryId })) void rows;
  })().then(() => 'done', (error: unknown) => error);
  await until(async () => (await nodesRunning(queryId)) === 2);
  controller.abort();
  expect(await read).toBeInstanceOf(DOMException);
  await until(async () => (await nodesRunning(queryId)) === 0);
}

describe('reads killed on every node of a cluster', () => {
  it('through the gateway endpoint, which finds the nodes in system.clusters', async () => {
    const storage = connectExternalStorage({ url: cluster.url, user: cluster.user, password: cluster.password, databasePrefix: 'qryn', cluster: cluster.name, replicated: false, readTimeoutMs: 20_000, insertTimeoutMs: 10_000 }, () => undefined);
    await abortOnEveryNode(storage, `cluster-gateway-${Date.now()}`);
  });

  it('through a worker endpoint that carries the node URLs', async () => {
    const endpoint = { url: cluster.url, user: cluster.user, password: cluster.password, nodeUrls: cluster.nodes.map((n) => n.url) };
    await abortOnEveryNode(endpoint, `cluster-worker-${Date.now()}`);
  });
});
