import { statfs } from 'node:fs/promises';
import type { CloudResource } from '../../../contract/stack';
import type { Queryable } from '../../db/database';
import { findProjectCluster, listProjectClusters, type ClusterRow } from '../../db/repositories/clickhouse-repository';
import type { ClickhouseBackend } from '../clickhouse/clickhouse-backend';
import { findRegion } from '../clickhouse/price-list';
import type { ProductRegistry } from '../product-registry';
import type { QrynBackend } from '../qryn/qryn-backend';
import { sharedRegion, sharedResourceId } from '../qryn/storage/storage-resolver';
import { identifier, literal, storageClient, type StorageClient } from '../qryn/storage/storage-client';

// Where a Hepic instance stores its packets (spec §3 Cloud instance: the ClickHouse clusters it can store on):
// - the project's own ClickHouse clusters that are usable now (managed and active, or external), by cluster id;
// - the platform's shared storage of its region ('shared-<region>', the ClickHouse server the platform runs for
//   qryn), offered always, so that a project without a cluster of its own can still enable Hepic (docs/hepic.md).
// Each instance has its own database there (hepic_<instance id>).

export interface HepicStorage {
  client: StorageClient;
  /** Where the server keeps its files, when it runs on this machine (for the usage percentage without a quota). */
  dataDir: string | null;
}

export interface HepicStorageResolver {
  /** `within`: the caller's transaction (the embedded database has one connection: reading outside it would wait). */
  resources(projectId: number, within?: Queryable): Promise<CloudResource[]>;
  resolve(projectId: number, clusterId: string, within?: Queryable): Promise<HepicStorage | undefined>;
}

const usable = (row: ClusterRow) => row.status === 'active' || row.status === 'external' || (row.is_external && row.status !== 'deleting');

export function createHepicStorageResolver(db: Queryable, products: () => ProductRegistry | undefined, sharedDataDir: string): HepicStorageResolver {
  const clients = new Map<string, StorageClient>();
  const clientOf = (endpoint: { url: string; user: string; password: string }) => {
    const key = `${endpoint.url}|${endpoint.user}|${endpoint.password}`;
    let client = clients.get(key);
    if (!client) clients.set(key, (client = storageClient(endpoint)));
    return client;
  };
  const clickhouse = () => products()?.get('clickhouse') as ClickhouseBackend | undefined;
  const qryn = () => products()?.get('qryn') as QrynBackend | undefined;
  const region = sharedRegion();
  const sharedId = sharedResourceId(region.code);

  return {
    async resources(projectId, within = db) {
      const shared: CloudResource[] = qryn()
        ? [{ clickhouse_cluster_id: sharedId, name: 'Shared storage', region_code: region.code, region_name: region.name, continent: region.continent, kind: 'shared' }]
        : [];
      const own = (await listProjectClusters(within, projectId)).filter(usable).map((row): CloudResource => {
        const where = row.region_code ? findRegion(row.provider, row.region_code) : undefined;
        return {
          clickhouse_cluster_id: String(row.id),
          name: row.name,
          region_code: where?.code ?? row.region_code ?? (row.is_external ? 'external' : region.code),
          region_name: where?.name ?? (row.is_external ? `External (${row.host})` : region.name),
          continent: where?.continent ?? region.continent,
          kind: 'project',
        };
      });
      return [...own, ...shared];
    },

    async resolve(projectId, clusterId, within = db) {
      if (clusterId === sharedId) {
        const server = qryn()?.storageServer();
        if (!server) return undefined;
        return { client: clientOf(server), dataDir: sharedDataDir };
      }
      if (!/^\d{1,9}$/.test(clusterId)) return undefined;
      const row = await findProjectCluster(within, projectId, { id: Number(clusterId) });
      const backend = clickhouse();
      if (!row || !usable(row) || !backend) return undefined;
      if (row.is_external) {
        const { username, password } = (await backend.credentials()).open<{ username: string; password: string }>(row.external_credentials!);
        return { client: clientOf({ url: `${row.secure ? 'https' : 'http'}://${row.host}:${row.http_port}`, user: username, password }), dataDir: null };
      }
      // Nodes beyond the local cap share a server with their own database; Hepic writes through the first node's
      // server, in its own database, like any client of the cluster.
      const nodes = await backend.provisioner.nodes(row.id);
      if (nodes.length === 0) return undefined;
      const credentials = await backend.provisioner.platformCredentials(row.id);
      return { client: clientOf({ url: `http://${nodes[0].host}:${nodes[0].httpPort}`, ...credentials }), dataDir: nodes[0].dataDir };
    },
  };
}

/** The database of an instance (instance ids are generated: lower-case hex). */
export const databaseOf = (instanceId: string) => identifier(`hepic_${instanceId}`);

/**
 * One table for ClickHouse 18.16 (no TTL): partitioned by the day the packet was received, so rotation drops whole
 * days; ordered by capture time. SIP's start line and dialog headers are columns, the message itself is kept.
 */
export async function createInstanceSchema(client: StorageClient, database: string): Promise<void> {
  const db = identifier(database);
  await client.command(`CREATE DATABASE IF NOT EXISTS ${db}`);
  await client.command(`CREATE TABLE IF NOT EXISTS ${db}.hep_packets (
    date Date, received_us UInt64, timestamp_us UInt64, transport String, capture_id UInt32, node_name String,
    payload_type UInt8, ip_family UInt8, ip_protocol UInt8, src_ip String, dst_ip String, src_port UInt16, dst_port UInt16,
    correlation_id String, sip_method String, sip_status UInt16, call_id String, from_user String, to_user String, payload String
  ) ENGINE = MergeTree PARTITION BY date ORDER BY (timestamp_us, call_id)`);
}

export async function dropInstanceSchema(client: StorageClient, database: string): Promise<void> {
  await client.command(`DROP DATABASE IF EXISTS ${identifier(database)}`);
}

export interface StoredSummary {
  bytes: number;
  packets: number;
  /** YYYY-MM-DD of the oldest stored day, or null. */
  oldestDay: string | null;
}

/** Bytes on disk (active parts), rows and the oldest day of an instance's data, from ClickHouse itself. */
export async function storedSummary(client: StorageClient, database: string): Promise<StoredSummary> {
  const db = identifier(database);
  const [parts] = await client.query<{ bytes: string; rows: string; oldest: string | null }>(
    `SELECT sum(bytes_on_disk) AS bytes, sum(rows) AS rows, toString(min(toDate(partition))) AS oldest
       FROM system.parts WHERE database = ${literal(db)} AND table = 'hep_packets' AND active`,
  );
  const bytes = Number(parts?.bytes ?? 0);
  const packets = Number(parts?.rows ?? 0);
  const oldest = packets > 0 && parts?.oldest && parts.oldest !== '0000-00-00' ? parts.oldest : null;
  return { bytes, packets, oldestDay: oldest };
}

/** Total size of the file system that holds a folder, or null when it cannot be read. */
export async function diskSize(dir: string | null): Promise<number | null> {
  if (!dir) return null;
  try {
    const stats = await statfs(dir);
    return stats.blocks * stats.bsize;
  } catch {
    return null;
  }
}

/** Drops the day partitions older than rotationDays before `today` (YYYY-MM-DD). */
export async function dropOldDays(client: StorageClient, database: string, rotationDays: number, today: string): Promise<string[]> {
  const db = identifier(database);
  const cutoff = new Date(Date.parse(`${today}T00:00:00Z`) - rotationDays * 86_400_000).toISOString().slice(0, 10);
  const rows = await client.query<{ partition: string }>(
    `SELECT DISTINCT partition FROM system.parts WHERE database = ${literal(db)} AND table = 'hep_packets' AND active AND toDate(partition) < toDate('${cutoff}')`,
  );
  for (const row of rows) await client.command(`ALTER TABLE ${db}.hep_packets DROP PARTITION ${literal(row.partition)}`);
  return rows.map((r) => r.partition);
}
