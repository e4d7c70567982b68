import type { CloudResource, RetentionPolicy, WriterRegion } from '../../../../contract/stack';
import type { Queryable } from '../../../db/database';
import type { StorageEndpoint } from './storage-server';

// Where an instance's data lives. A cloud resource id is either 'shared-<region>' (the platform's shared storage
// server of that region) or the id of one of the project's own ClickHouse clusters (kind 'project').
//
// The seam for the ClickHouse product: it plugs its managed clusters in with a ProjectClusterSource
// (server/products/clickhouse/project-cluster-source.ts: the project's active managed clusters, each one's HTTP
// endpoint and the platform's own user there). Without one, only the shared storage is offered and 'project' ids
// are refused as unknown.

// `db` is the caller's transaction when there is one (enabling runs inside the transaction that records the
// integration; the embedded database has a single connection, so a read beside it would wait for ever).
export interface ProjectClusterSource {
  list(projectId: number, db?: Queryable): Promise<CloudResource[]>;
  endpoint(projectId: number, clusterId: string, db?: Queryable): Promise<StorageEndpoint | undefined>;
}

export interface StorageResolver {
  resources(projectId: number, db?: Queryable): Promise<CloudResource[]>;
  /** The endpoint of a resource id, or undefined when the id names nothing the project may use. */
  resolve(projectId: number, clusterId: string, db?: Queryable): Promise<StorageEndpoint | undefined>;
}

/**
 * This installation runs one shared storage server, on this machine: one region, named by QRYN_REGION_CODE /
 * QRYN_REGION_NAME (default 'local', 'This platform'). Writes are accepted where the platform runs, the same region.
 */
export function sharedRegion(env: NodeJS.ProcessEnv = process.env): WriterRegion {
  return {
    code: env.QRYN_REGION_CODE ?? 'local',
    name: env.QRYN_REGION_NAME ?? 'This platform',
    continent: env.QRYN_REGION_CONTINENT ?? 'Europe',
  };
}

export const sharedResourceId = (regionCode: string) => `shared-${regionCode}`;

export function createStorageResolver(shared: () => StorageEndpoint | undefined, projectClusters?: ProjectClusterSource): StorageResolver {
  const region = sharedRegion();
  const sharedResource: CloudResource = {
    clickhouse_cluster_id: sharedResourceId(region.code),
    name: 'Shared storage',
    region_code: region.code,
    region_name: region.name,
    continent: region.continent,
    kind: 'shared',
  };
  return {
    async resources(projectId, db) {
      return [sharedResource, ...((await projectClusters?.list(projectId, db)) ?? [])];
    },
    async resolve(projectId, clusterId, db) {
      if (clusterId === sharedResource.clickhouse_cluster_id) return shared();
      return projectClusters?.endpoint(projectId, clusterId, db);
    },
  };
}

export function writerRegions(): WriterRegion[] {
  return [sharedRegion()];
}

// The retention price list (spec §3 Retention policy): name is "<family>-<label>", the console shows the part after
// the first dash; prices are cents per GB stored per month, by volume tier (GB). These are this installation's
// list prices, documented in docs/qryn.md.
const tiers = (first: number, second: number, third: number) => [
  { starting_unit: 0, ending_unit: 100, price: first },
  { starting_unit: 100, ending_unit: 1000, price: second },
  { starting_unit: 1000, ending_unit: null, price: third },
];
export const RETENTION_POLICIES: RetentionPolicy[] = [
  { id: 'retention-7d', name: 'retention-7 days', item_family_id: 'retention', item_id: 'ttl-7d', description: 'Keep data for 7 days.', status: 'active', external_name: '7 days', ttl_days: 7, tiers: tiers(20, 15, 10) },
  { id: 'retention-30d', name: 'retention-30 days', item_family_id: 'retention', item_id: 'ttl-30d', description: 'Keep data for 30 days.', status: 'active', external_name: '30 days', ttl_days: 30, tiers: tiers(50, 40, 30) },
  { id: 'retention-90d', name: 'retention-90 days', item_family_id: 'retention', item_id: 'ttl-90d', description: 'Keep data for 90 days.', status: 'active', external_name: '90 days', ttl_days: 90, tiers: tiers(120, 100, 80) },
  { id: 'retention-365d', name: 'retention-365 days', item_family_id: 'retention', item_id: 'ttl-365d', description: 'Keep data for one year.', status: 'active', external_name: '365 days', ttl_days: 365, tiers: tiers(400, 320, 250) },
];
export const DEFAULT_RETENTION_POLICY_ID = 'retention-30d';
