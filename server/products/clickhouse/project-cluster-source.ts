import type { Queryable } from '../../db/database';
import { findProjectCluster, listProcesses, listProjectClusters, type ClusterRow } from '../../db/repositories/clickhouse-repository';
import type { ProjectClusterSource } from '../qryn/storage/storage-resolver';
import { clustersRoot, INTERNAL_USER, LOCAL_HOST, readInternalSecret } from './local-provisioner';
import { findRegion } from './price-list';

// A project's own managed ClickHouse clusters as storage for qryn (and any product that stores on ClickHouse):
// the running (active) managed clusters of the project are offered by GET integrations/qryn/cloud/resources, and an
// instance stored on one writes to the cluster's first node (shard 1, replica 1) as the platform's own user, which
// reaches the servers from this machine only. External clusters are not offered: the platform holds their
// credentials for metrics, not to write into them.

const usable = (row: ClusterRow) => !row.is_external && row.status === 'active';

export function clickhouseProjectClusters(platform: { db: Queryable; config: { dataDir: string } }): ProjectClusterSource {
  const root = clustersRoot(platform.config.dataDir);
  return {
    async list(projectId, db = platform.db) {
      return (await listProjectClusters(db, projectId)).filter(usable).map((row) => {
        const region = findRegion(row.provider, row.region_code ?? '');
        return {
          clickhouse_cluster_id: String(row.id),
          name: row.name,
          region_code: row.region_code ?? '',
          region_name: region?.name ?? row.region_code ?? '',
          continent: region?.continent ?? '',
          kind: 'project' as const,
        };
      });
    },
    async endpoint(projectId, clusterId, db = platform.db) {
      if (!/^\d+$/.test(clusterId)) return undefined;
      const row = await findProjectCluster(db, projectId, { id: Number(clusterId) });
      if (!row || !usable(row)) return undefined;
      const first = (await listProcesses(db, row.id)).find((p) => p.idx === 0);
      if (!first) return undefined;
      return { url: `http://${LOCAL_HOST}:${first.http_port}`, user: INTERNAL_USER, password: await readInternalSecret(root, row.id) };
    },
  };
}
