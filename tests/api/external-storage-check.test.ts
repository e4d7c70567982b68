import { beforeAll, describe, expect, it } from 'vitest';
import { qrynClickhouseFrom } from '../../server/config';
import { checkExternalStorage } from '../../server/products/qryn/storage/external-storage-check';
import { clusterForFile, queryNode, startLocalClickhouseCluster, type LocalClickhouseCluster } from '../support/clickhouse-cluster';
import { clusterEnv } from '../support/platform-on-cluster';
import { startTestPlatform } from '../support/start-platform';

// The start-up checks of qryn's storage on an existing ClickHouse cluster (two clickhouse-server 18.16 nodes with a
// stock profile): a misspelled cluster, repeated or unreachable node URLs and a user without rights each stop the
// start with a message that names the setting or the node.

const clusterOfFile = clusterForFile({ shards: 2 });
let cluster: LocalClickhouseCluster;
beforeAll(() => {
  cluster = clusterOfFile();
});

const env = (extra: Record<string, string> = {}) => clusterEnv(cluster, extra);
const check = (extra: Record<string, string> = {}) => checkExternalStorage(qrynClickhouseFrom(env(extra))!);
const leftovers = async () => (await Promise.all([0, 1].map((n) => queryNode(cluster, n, "SELECT name FROM system.databases WHERE name LIKE 'qryn_start_check_%' FORMAT TSV")))).join('');

describe('start-up checks of an existing ClickHouse cluster', () => {
  it('a correct cluster passes with both nodes, and the probe leaves nothing behind', async () => {
    const nodes = await check();
    expect(nodes.map((n) => n.url.split('?')[0])).toEqual(cluster.nodes.map((n) => n.url));
    expect(await leftovers()).toBe('');
  }, 60_000);

  it('a misspelled cluster name is refused, naming the setting and the clusters there are', async () => {
    await expect(check({ QRYN_CLICKHOUSE_CLUSTER: `${cluster.name}x` })).rejects.toThrow(new RegExp(`QRYN_CLICKHOUSE_CLUSTER=${cluster.name}x: .*no such cluster.*\\(it has: .*${cluster.name}`));
  }, 60_000);

  it('repeated node URLs are refused, naming QRYN_CLICKHOUSE_NODE_URLS', async () => {
    await expect(check({ QRYN_CLICKHOUSE_NODE_URLS: `${cluster.nodes[0].url},${cluster.nodes[0].url}` })).rejects.toThrow(/same HTTP URL.*QRYN_CLICKHOUSE_NODE_URLS/);
  }, 60_000);

  it('fewer node URLs than the cluster has are refused', async () => {
    await expect(check({ QRYN_CLICKHOUSE_NODE_URLS: cluster.nodes[0].url })).rejects.toThrow(/lists 1 nodes, cluster .* has 2/);
  }, 60_000);

  it('an unreachable node is refused, naming its URL', async () => {
    await expect(check({ QRYN_CLICKHOUSE_NODE_URLS: `${cluster.nodes[0].url},http://127.0.0.9:9` })).rejects.toThrow(/node at http:\/\/127\.0\.0\.9:9 .*did not answer/);
  }, 60_000);

  it('a wrong password is refused, naming the user settings', async () => {
    await expect(check({ QRYN_CLICKHOUSE_PASSWORD: 'wrong' })).rejects.toThrow(/QRYN_CLICKHOUSE_USER and QRYN_CLICKHOUSE_PASSWORD/);
  }, 60_000);

  it('a user whose profile is read-only is refused, naming the node and the rights it needs', async () => {
    const readOnly = await startLocalClickhouseCluster({ shards: 2, name: 'read_only_pair', profile: { readonly: 1 } });
    try {
      await expect(checkExternalStorage(qrynClickhouseFrom(clusterEnv(readOnly))!)).rejects.toThrow(new RegExp(`cannot create qryn's tables on the ClickHouse node at http://127\\.0\\.0\\.\\d:\\d+: .*readonly=0`));
    } finally {
      await readOnly.close();
    }
  }, 120_000);

  it('the platform does not start with a misspelled cluster', async () => {
    await expect(startTestPlatform({ embedded: true, env: env({ QRYN_CLICKHOUSE_CLUSTER: 'no_such_cluster' }) })).rejects.toThrow(/QRYN_CLICKHOUSE_CLUSTER=no_such_cluster/);
  }, 120_000);
});
