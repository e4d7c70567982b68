import { randomBytes } from 'node:crypto';
import type { QrynClickhouseSettings } from '../../../config';
import { discoverNodes } from './external-storage';
import { identifier, literal, splitEndpointUrl, storageClient, StorageError } from './storage-client';
import type { StorageEndpoint } from './storage-server';

// What an existing ClickHouse must offer before the platform relies on it, checked once at start (docs/qryn.md
// "Storage on an existing ClickHouse server or cluster"). Each finding names the setting or the node and what to do;
// the platform does not start with one, because every enable, push and read would fail later with a vaguer answer.

const CHECK_TIMEOUT_MS = 10_000;

export class StorageCheckError extends Error {}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300);

/**
 * Checks the entry server, the cluster (in system.clusters, nodes reachable at distinct URLs, as many as the cluster
 * has) and that the platform user can create a database with a LowCardinality table on every node; what it creates
 * is dropped. Returns the nodes (the entry server alone without a cluster).
 */
export async function checkExternalStorage(settings: QrynClickhouseSettings): Promise<StorageEndpoint[]> {
  const entry: StorageEndpoint = { url: settings.url, user: settings.user, password: settings.password, timeouts: { readMs: CHECK_TIMEOUT_MS, insertMs: CHECK_TIMEOUT_MS } };
  const entryBase = splitEndpointUrl(settings.url).base;
  const client = storageClient(entry);
  try {
    await client.query('SELECT 1');
  } catch (error) {
    // 193 wrong password, 192 unknown user, 516 (newer servers) authentication failed.
    if (error instanceof StorageError && (error.code === 193 || error.code === 192 || error.code === 516)) {
      throw new StorageCheckError(`The ClickHouse server at ${entryBase} (QRYN_CLICKHOUSE_URL) refused the user "${settings.user}": set QRYN_CLICKHOUSE_USER and QRYN_CLICKHOUSE_PASSWORD to a user of its users.xml (${reason(error)}).`);
    }
    throw new StorageCheckError(`The ClickHouse server at ${entryBase} (QRYN_CLICKHOUSE_URL) did not answer: start it or correct QRYN_CLICKHOUSE_URL (${reason(error)}).`);
  }
  let nodes: StorageEndpoint[] = [entry];
  if (settings.cluster) {
    const rows = await client.query<{ cluster: string; hosts: string }>('SELECT cluster, toString(count()) AS hosts FROM system.clusters GROUP BY cluster ORDER BY cluster');
    const ours = rows.find((r) => r.cluster === settings.cluster);
    if (!ours) {
      const known = rows.map((r) => r.cluster).join(', ') || 'none';
      throw new StorageCheckError(`QRYN_CLICKHOUSE_CLUSTER=${settings.cluster}: the server at ${entryBase} has no such cluster in its remote_servers (it has: ${known}). Set QRYN_CLICKHOUSE_CLUSTER to one of those, or add the cluster to remote_servers on every node.`);
    }
    nodes = await discoverNodes(entry, settings.cluster, settings.nodeUrls);
    const bases = nodes.map((n) => splitEndpointUrl(n.url).base);
    const repeated = bases.filter((b, i) => bases.indexOf(b) !== i);
    if (repeated.length > 0) {
      throw new StorageCheckError(
        `The nodes of cluster ${settings.cluster} have the same HTTP URL (${[...new Set(repeated)].join(', ')})${settings.nodeUrls ? ' in QRYN_CLICKHOUSE_NODE_URLS' : ': their HTTP addresses cannot be derived from system.clusters (host name and the port of QRYN_CLICKHOUSE_URL)'}. Set QRYN_CLICKHOUSE_NODE_URLS to every node's own HTTP URL, comma-separated.`,
      );
    }
    if (nodes.length !== Number(ours.hosts)) {
      throw new StorageCheckError(`QRYN_CLICKHOUSE_NODE_URLS lists ${nodes.length} nodes, cluster ${settings.cluster} has ${ours.hosts} (system.clusters on ${entryBase}): list every node (each replica of each shard) once.`);
    }
  }
  const probe = identifier(`${settings.databasePrefix}_start_check_${randomBytes(4).toString('hex')}`);
  await Promise.all(
    nodes.map(async (node) => {
      const base = splitEndpointUrl(node.url).base;
      const nodeClient = storageClient({ ...node, timeouts: { readMs: CHECK_TIMEOUT_MS, insertMs: CHECK_TIMEOUT_MS } });
      try {
        await nodeClient.query('SELECT 1');
      } catch (error) {
        throw new StorageCheckError(`The ClickHouse node at ${base} (cluster ${settings.cluster}) did not answer: start it, or set QRYN_CLICKHOUSE_NODE_URLS to the URLs where the platform reaches every node (${reason(error)}).`);
      }
      const ddl = { settings: { allow_experimental_low_cardinality_type: 1 }, timeoutMs: CHECK_TIMEOUT_MS };
      try {
        await nodeClient.command(`CREATE DATABASE ${probe}`, ddl);
        await nodeClient.command(`CREATE TABLE ${probe}.probe (date Date, type LowCardinality(String)) ENGINE = MergeTree PARTITION BY date ORDER BY type`, ddl);
        await nodeClient.command(`INSERT INTO ${probe}.probe VALUES (today(), ${literal('probe')})`, ddl);
      } catch (error) {
        throw new StorageCheckError(
          `The user "${settings.user}" cannot create qryn's tables on the ClickHouse node at ${base}: give it a profile that allows CREATE DATABASE, CREATE TABLE and INSERT (readonly=0, allow_ddl=1) (${reason(error)}).`,
        );
      } finally {
        await nodeClient.command(`DROP DATABASE IF EXISTS ${probe}`, { timeoutMs: CHECK_TIMEOUT_MS }).catch(() => undefined);
      }
    }),
  );
  return nodes;
}
