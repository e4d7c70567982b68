import { createHash } from 'node:crypto';
import type { ClusterResponse, ClusterStatus } from '../../../contract/clickhouse';
import type { ClusterRow } from '../../db/repositories/clickhouse-repository';
import { findMachine, findRegion } from './price-list';
import type { ClusterPlan } from './provisioner';

// How a cluster row becomes a provisioner plan and an API answer; the job kinds of clusters.

/** While a cluster is in one of these, its job's progress is part of the answer. */
export const CLUSTER_PROGRESS_KINDS: ReadonlySet<ClusterStatus> = new Set(['creating', 'deleting']);

export const PROVISION_JOB = 'clickhouse.provision';
export const DELETE_JOB = 'clickhouse.delete';
export const clusterSubject = (id: number) => `clickhouse-cluster:${id}`;

export const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

export function planOf(row: ClusterRow): ClusterPlan {
  return {
    clusterId: row.id,
    name: row.name,
    shards: row.shards,
    replicas: row.replicas,
    adminUser: row.admin_user,
    adminPasswordSha256: row.admin_password_sha256 ?? '',
    ipSafeList: row.ip_safe_list,
    version: row.version,
    machine: machineOf(row),
  };
}

/** The machine the cluster was sold with (cpu and memory bound each server, docs/clickhouse.md "Limits per server"). */
function machineOf(row: ClusterRow): ClusterPlan['machine'] {
  const found = row.machine ? findMachine(row.provider, row.machine) : undefined;
  return found ? { name: found.name, cpu: found.cpu, ramGiB: found.ram } : undefined;
}

export function toClusterResponse(row: ClusterRow, progress: { current: number; max: number } | null = null): ClusterResponse {
  const region = row.region_code ? findRegion(row.provider, row.region_code) : undefined;
  const provider = row.provider === 'aws' || row.provider === 'gcp' ? row.provider : 'unknown';
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    status: row.status,
    status_reason: row.status_reason,
    progress,
    host: row.host,
    http_port: row.http_port,
    tcp_port: row.tcp_port,
    secure: row.secure,
    provider,
    region: region ? { code: region.code, name: region.name, continent: region.continent } : null,
    machine: (row.machine && findMachine(row.provider, row.machine)) || null,
    shards: row.shards,
    replicas: row.replicas,
    disks: row.disks,
    version: row.version,
    zonal: row.zonal,
    zones: row.zones,
    control_plane_zone: row.control_plane_zone,
    is_external: row.is_external,
    ip_safe_list: row.ip_safe_list,
    admin_user: row.admin_user,
  };
}
