// The seam between the ClickHouse back end and whatever runs the servers. The local implementation
// (local-provisioner.ts) runs clickhouse-server processes on this machine; the Kubernetes one
// (kubernetes-provisioner.ts) renders the Altinity operator's ClickHouseInstallation for production.

export interface ClusterPlan {
  clusterId: number;
  name: string;
  shards: number;
  replicas: number;
  adminUser: string;
  adminPasswordSha256: string;
  ipSafeList: readonly string[];
  version: string;
  /** For the Kubernetes manifest: the image tag, the disks and the machine. */
  imageTag?: string;
  disks?: readonly { name: string; type: string; sizeBytes: number }[];
  machine?: { name: string; cpu: number; ramGiB: number };
}

export interface NodeEndpoint {
  shard: number;
  replica: number;
  host: string;
  httpPort: number;
  tcpPort: number;
  /** The node's own database when it shares a server process with other nodes (local cap). */
  database: string | null;
  /** Where the node keeps its data (for the available-space card). */
  dataDir: string;
}

/** A node did not come up: the cluster fails with this reason. */
export class ProvisionError extends Error {}

export interface ProvisionOptions {
  signal?: AbortSignal;
  progress?: (current: number, max: number) => Promise<void>;
  /** The admin password, to check that every node answers SELECT 1 with the admin credentials. */
  adminPassword?: string;
}

export interface ClusterProvisioner {
  readonly kind: string;
  /** Starts every node; resolves once each answers SELECT 1 with the admin credentials. Safe to run again. */
  provision(plan: ClusterPlan, options?: ProvisionOptions): Promise<NodeEndpoint[]>;
  /** Applies a new IP safe list to the running servers. */
  applyIpSafeList(plan: ClusterPlan): Promise<void>;
  /** Stops the servers and keeps their data (a failed cluster, until it is deleted). */
  stop(clusterId: number): Promise<void>;
  /** Stops the servers and removes their data. Safe to run again. */
  destroy(clusterId: number): Promise<void>;
  /** The nodes of a provisioned cluster. */
  nodes(clusterId: number): Promise<NodeEndpoint[]>;
  /** Credentials the platform itself uses to read the cluster's system tables. */
  platformCredentials(clusterId: number): Promise<{ user: string; password: string }>;
}
