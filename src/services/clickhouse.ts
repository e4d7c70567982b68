// ClickHouse calls (spec 001 §7 ClickHouse): clusters of the selected project, their metadata and metrics, and the
// reference data the create form offers (cached for an hour, §9).
import { Schema } from 'effect';
import {
  ClickhouseVersionList,
  ClusterCreation,
  ClusterList,
  ClusterMetadata,
  ClusterMetrics,
  ClusterResponse,
  DiskTypeList,
  MachineList,
  RegionList,
  ZoneList,
  type CreateClusterBody,
  type CreateExternalClusterBody,
  type Provider,
} from '../../contract/clickhouse';
import { MessageResponse } from '../../contract/common';
import { http } from './http';

export type Cluster = Awaited<ReturnType<typeof listClusters>>[number];

const ClusterMutation = Schema.Struct({ message: Schema.String, cluster: ClusterResponse });

export function listClusters(projectId: number) {
  return http.get('integrations/clickhouse/clusters', ClusterList, { searchParams: { project_id: projectId } });
}

/** One cluster of the project, or null when it no longer exists (deleted meanwhile). */
export async function getCluster(projectId: number, clusterId: number): Promise<Cluster | null> {
  return (await listClusters(projectId)).find((c) => c.id === clusterId) ?? null;
}

/** The body in its wire form (snake_case keys, which the client sends unchanged), as the contract schema reads it. */
export function createCluster(projectId: number, body: CreateClusterBody | CreateExternalClusterBody) {
  return http.post('integrations/clickhouse/clusters', ClusterMutation, { searchParams: { project_id: projectId }, json: body });
}

export function getClusterCreation(projectId: number) {
  return http.get('integrations/clickhouse/clusters/creation', ClusterCreation, { searchParams: { project_id: projectId } });
}

export function deleteCluster(projectId: number, clusterId: number) {
  return http.delete('integrations/clickhouse/clusters', MessageResponse, { searchParams: { project_id: projectId, cluster_id: clusterId } });
}

export function updateIpSafeList(projectId: number, clusterId: number, ipList: string[], replace = true) {
  return http.patch('integrations/clickhouse/clusters', ClusterMutation, { searchParams: { project_id: projectId, cluster_id: clusterId }, json: { replace, ipList } });
}

export function getClusterMetadata(projectId: number, name: string) {
  return http.get(`clusters/${encodeURIComponent(name)}/metadata`, ClusterMetadata, { searchParams: { project_id: projectId } });
}

export function getClusterMetrics(projectId: number, name: string, range: { start: number; end: number; nodes?: string[]; databases?: string[] }) {
  return http.get(`clusters/${encodeURIComponent(name)}/metrics`, ClusterMetrics, {
    searchParams: { project_id: projectId, start_time: range.start, end_time: range.end, nodes: (range.nodes ?? []).join(','), databases: (range.databases ?? []).join(',') },
  });
}

export const getRegions = () => http.get('regions', RegionList);
export const getMachines = () => http.get('machines', MachineList);
export const getClickhouseVersions = () => http.get('clickhouse-versions', ClickhouseVersionList);
export const getDiskTypes = (projectId: number, provider: Provider) => http.get('disk-types', DiskTypeList, { searchParams: { project_id: projectId, provider_slug: provider } });
export const getZones = (projectId: number, provider: Provider, regionCode: string) =>
  http.get('zones', ZoneList, { searchParams: { project_id: projectId, provider_name: provider, region_code: regionCode } });
