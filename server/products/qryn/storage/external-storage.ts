import type { QrynClickhouseSettings } from '../../../config';
import { splitEndpointUrl } from './storage-client';
import type { SharedStorage, StorageEndpoint } from './storage-server';

// qryn's storage on an existing ClickHouse server or cluster (QRYN_CLICKHOUSE_*, docs/qryn.md "Storage on an existing
// ClickHouse"), in place of the embedded server: the platform starts nothing and stops nothing, it only connects.
//
// With a cluster name every instance table is a sharded local table (`<table>_local`) on each node plus a
// Distributed table under the name the readers and the writer use (`<table>`), sharded by the series fingerprint
// (the trace id for spans), so a series' samples and its labels are on one shard. Two ClickHouse settings go with
// every statement (as the endpoint URL's query string, so they reach the PromQL workers too):
// - insert_distributed_sync=1: an insert answers once every shard has its rows, so an acknowledged push is stored on
//   the shards (not only queued on the node that took it) and every platform instance reads it at once;
// - distributed_product_mode=local: a subquery over a Distributed table inside a query over another one (the label
//   index selecting a series' samples) reads the shard's local table; correct because both are sharded alike.

export interface ClusterLayout {
  /** The cluster's name in the servers' remote_servers. */
  name: string;
  /** Replicated*MergeTree tables and ON CLUSTER DDL (the servers have a ZooKeeper/Keeper). */
  replicated: boolean;
  /**
   * Every node of the cluster (each replica of each shard) as an endpoint: where the schema is created when ON CLUSTER
   * cannot be used (ClickHouse 18.16 runs ON CLUSTER only through ZooKeeper) and where partitions are dropped.
   */
  nodes(): Promise<StorageEndpoint[]>;
}

/** The settings every statement on a cluster carries (see above). */
export const CLUSTER_SETTINGS = 'insert_distributed_sync=1&distributed_product_mode=local';

function withSettings(url: string, settings: string): string {
  const { base, settings: given } = splitEndpointUrl(url);
  const merged = new URLSearchParams(given);
  for (const [key, value] of new URLSearchParams(settings)) if (!merged.has(key)) merged.set(key, value);
  const query = merged.toString();
  return query ? `${base}/?${query}` : base;
}

/** Within the status page's 2 s for a check, so a stalled node reads as down rather than as a check that timed out. */
const PING_TIMEOUT_MS = 1_500;

async function ping(endpoint: StorageEndpoint): Promise<boolean> {
  const { base } = splitEndpointUrl(endpoint.url);
  try {
    const response = await fetch(`${base}/?query=SELECT%201`, {
      headers: { 'X-ClickHouse-User': endpoint.user, 'X-ClickHouse-Key': endpoint.password },
      signal: AbortSignal.timeout(PING_TIMEOUT_MS),
    });
    return response.ok && (await response.text()).trim() === '1';
  } catch {
    return false;
  }
}

/**
 * The nodes of a cluster from system.clusters on the entry server: each node's host name with the entry URL's scheme
 * and HTTP port (system.clusters knows only the native port), unless QRYN_CLICKHOUSE_NODE_URLS lists them.
 */
export async function discoverNodes(entry: StorageEndpoint, cluster: string, nodeUrls?: readonly string[]): Promise<StorageEndpoint[]> {
  const { settings } = splitEndpointUrl(entry.url);
  const node = (url: string): StorageEndpoint => ({ url: settings ? withSettings(url, settings) : splitEndpointUrl(url).base, user: entry.user, password: entry.password, timeouts: entry.timeouts });
  if (nodeUrls && nodeUrls.length > 0) return nodeUrls.map(node);
  const { base } = splitEndpointUrl(entry.url);
  const sql = `SELECT host_name FROM system.clusters WHERE cluster = '${cluster.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}' ORDER BY shard_num, replica_num FORMAT JSONEachRow`;
  const response = await fetch(`${base}/`, {
    method: 'POST',
    headers: { 'X-ClickHouse-User': entry.user, 'X-ClickHouse-Key': entry.password },
    body: sql,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`system.clusters could not be read: ${text.trim().slice(0, 300)}`);
  const hosts = text.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { host_name: string }).host_name);
  if (hosts.length === 0) throw new Error(`The ClickHouse server at ${base} has no cluster named "${cluster}" in its remote_servers (system.clusters).`);
  const entryUrl = new URL(base);
  return hosts.map((host) => {
    const url = new URL(entryUrl.toString());
    url.hostname = host.includes(':') ? `[${host}]` : host;
    return node(url.toString());
  });
}

/**
 * Connects to the configured ClickHouse (nothing is started). The cluster's nodes are looked up on first use and
 * kept; a failed lookup is tried again at the next use, so a cluster that is down at start is picked up later.
 */
export function connectExternalStorage(settings: QrynClickhouseSettings, log: (message: string) => void): SharedStorage {
  const url = settings.cluster ? withSettings(settings.url, CLUSTER_SETTINGS) : settings.url;
  const entry: StorageEndpoint = { url, user: settings.user, password: settings.password, timeouts: { readMs: settings.readTimeoutMs, insertMs: settings.insertTimeoutMs } };
  let nodes: Promise<StorageEndpoint[]> | undefined;
  let pinging: Promise<boolean> | undefined;
  const cluster: ClusterLayout | undefined = settings.cluster
    ? {
        name: settings.cluster,
        replicated: settings.replicated,
        nodes() {
          nodes ??= discoverNodes(entry, settings.cluster!, settings.nodeUrls).then(
            (found) => {
              log(`[storage] ClickHouse cluster ${settings.cluster}: ${found.map((n) => splitEndpointUrl(n.url).base).join(', ')}`);
              return found;
            },
            (error: unknown) => {
              nodes = undefined;
              throw error;
            },
          );
          return nodes;
        },
      }
    : undefined;
  log(`[storage] qryn stores on the ClickHouse at ${splitEndpointUrl(settings.url).base}${cluster ? ` (cluster ${cluster.name}${cluster.replicated ? ', replicated' : ''})` : ''}`);
  return {
    ...entry,
    cluster,
    pid: undefined,
    ping() {
      // Every node of a cluster: a read or an insert needs every shard, so one stalled or down node is an outage of
      // the storage although the entry node answers. Concurrent probes share one round.
      pinging ??= (async () => {
        const targets = cluster ? await cluster.nodes() : [entry];
        return (await Promise.all(targets.map(ping))).every(Boolean);
      })()
        .catch(() => false)
        .finally(() => (pinging = undefined));
      return pinging;
    },
    close: async () => undefined,
  };
}
