import type { ClusterPlan } from './provisioner';

// Production seam (docs/clickhouse.md): in a Kubernetes installation a managed cluster is a ClickHouseInstallation
// of the Altinity clickhouse-operator (apiVersion clickhouse.altinity.com/v1). This module renders that manifest from
// the same plan the local provisioner runs; applying it (kubectl apply / the API server) and waiting for the
// operator's status.status == "Completed" is the production provisioner's job and is not run on this machine.
// The manifest is JSON, which kubectl accepts as YAML.

export interface ManifestOptions {
  namespace: string;
  /** Storage class per disk type of the price list (gp3 → "gp3", pd-ssd → "premium-rwo", …). */
  storageClasses?: Record<string, string>;
  /** ClickHouse Keeper / ZooKeeper hosts, needed when replicas > 1 (ReplicatedMergeTree). */
  zookeeperHosts?: readonly string[];
  zones?: readonly string[];
}

export interface ClickHouseInstallation {
  apiVersion: 'clickhouse.altinity.com/v1';
  kind: 'ClickHouseInstallation';
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  spec: {
    defaults: { templates: { podTemplate: string; dataVolumeClaimTemplate: string; serviceTemplate: string } };
    configuration: {
      users: Record<string, string | string[]>;
      zookeeper?: { nodes: { host: string; port: number }[] };
      clusters: { name: string; layout: { shardsCount: number; replicasCount: number } }[];
    };
    templates: {
      podTemplates: {
        name: string;
        zone?: { values: string[] };
        podDistribution?: { type: string; scope: string }[];
        spec: { containers: { name: string; image: string; resources: { requests: Record<string, string>; limits: Record<string, string> } }[] };
      }[];
      volumeClaimTemplates: { name: string; spec: { storageClassName?: string; accessModes: string[]; resources: { requests: { storage: string } } } }[];
      serviceTemplates: { name: string; spec: { type: string; ports: { name: string; port: number; targetPort: number }[] } }[];
    };
  };
}

/** The operator's users entries take IPv4 networks as they are (the 18.16 mapping of server-config.ts is local only). */
export function renderClickHouseInstallation(plan: ClusterPlan, options: ManifestOptions): ClickHouseInstallation {
  const firstDisk = plan.disks?.[0];
  const gib = firstDisk ? Math.max(1, Math.ceil(firstDisk.sizeBytes / (plan.shards * plan.replicas) / 1024 ** 3)) : 10;
  const cpu = String(plan.machine?.cpu ?? 2);
  const memory = `${plan.machine?.ramGiB ?? 8}Gi`;
  const user = plan.adminUser;
  return {
    apiVersion: 'clickhouse.altinity.com/v1',
    kind: 'ClickHouseInstallation',
    metadata: { name: `cluster-${plan.clusterId}`, namespace: options.namespace, labels: { 'app.kubernetes.io/managed-by': 'observability-platform', 'platform/cluster-id': String(plan.clusterId) } },
    spec: {
      defaults: { templates: { podTemplate: 'clickhouse', dataVolumeClaimTemplate: 'data', serviceTemplate: 'clickhouse' } },
      configuration: {
        users: {
          [`${user}/password_sha256_hex`]: plan.adminPasswordSha256,
          [`${user}/networks/ip`]: plan.ipSafeList.length === 0 ? ['0.0.0.0/0', '::/0'] : [...plan.ipSafeList],
          [`${user}/profile`]: 'default',
          [`${user}/quota`]: 'default',
        },
        ...(plan.replicas > 1 && options.zookeeperHosts?.length ? { zookeeper: { nodes: options.zookeeperHosts.map((host) => ({ host, port: 2181 })) } } : {}),
        clusters: [{ name: plan.name, layout: { shardsCount: plan.shards, replicasCount: plan.replicas } }],
      },
      templates: {
        podTemplates: [
          {
            name: 'clickhouse',
            ...(options.zones?.length ? { zone: { values: [...options.zones] } } : {}),
            podDistribution: [{ type: 'ClickHouseAntiAffinity', scope: 'ClickHouseInstallation' }],
            spec: { containers: [{ name: 'clickhouse', image: plan.imageTag ?? `clickhouse/clickhouse-server:${plan.version}`, resources: { requests: { cpu, memory }, limits: { cpu, memory } } }] },
          },
        ],
        volumeClaimTemplates: [
          {
            name: 'data',
            spec: {
              ...(firstDisk && options.storageClasses?.[firstDisk.type] ? { storageClassName: options.storageClasses[firstDisk.type] } : {}),
              accessModes: ['ReadWriteOnce'],
              resources: { requests: { storage: `${gib}Gi` } },
            },
          },
        ],
        serviceTemplates: [
          {
            name: 'clickhouse',
            spec: {
              type: 'ClusterIP',
              ports: [
                { name: 'http', port: 8123, targetPort: 8123 },
                { name: 'tcp', port: 9000, targetPort: 9000 },
              ],
            },
          },
        ],
      },
    },
  };
}

export interface NetworkPolicyOptions {
  namespace: string;
  /** Where the platform's pods run, and their labels: the only clients of the HTTP and native ports besides the cluster. */
  platformNamespace: string;
  platformPodLabels: Record<string, string>;
  /** The ZooKeeper / Keeper pods (replicas > 1), by namespace and labels. */
  keeper?: { namespace: string; podLabels: Record<string, string> };
}

export interface NetworkPolicy {
  apiVersion: 'networking.k8s.io/v1';
  kind: 'NetworkPolicy';
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  spec: {
    podSelector: { matchLabels: Record<string, string> };
    policyTypes: ('Ingress' | 'Egress')[];
    ingress: { from: Record<string, unknown>[]; ports: { protocol: 'TCP' | 'UDP'; port: number }[] }[];
    egress: { to: Record<string, unknown>[]; ports: { protocol: 'TCP' | 'UDP'; port: number }[] }[];
  };
}

/**
 * The NetworkPolicy next to each ClickHouseInstallation, the production form of the local network namespace: the
 * cluster's pods accept HTTP and native connections only from the platform's pods and from each other (distributed
 * queries, interserver replication), and open connections only to each other, to the Keeper when they replicate and
 * to the cluster DNS. A customer's url(), remote(), mysql() … reach no other tenant, no platform service and no
 * cloud metadata address. The operator labels every pod of an installation with clickhouse.altinity.com/chi.
 */
export function renderNetworkPolicy(plan: ClusterPlan, options: NetworkPolicyOptions): NetworkPolicy {
  const self = { podSelector: { matchLabels: { 'clickhouse.altinity.com/chi': `cluster-${plan.clusterId}` } } };
  const tcp = (...ports: number[]) => ports.map((port) => ({ protocol: 'TCP' as const, port }));
  const inNamespace = (namespace: string, labels: Record<string, string>) => ({
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
    podSelector: { matchLabels: labels },
  });
  const egress: NetworkPolicy['spec']['egress'] = [
    { to: [self], ports: tcp(8123, 9000, 9009) },
    { to: [inNamespace('kube-system', { 'k8s-app': 'kube-dns' })], ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] },
  ];
  if (plan.replicas > 1 && options.keeper) egress.push({ to: [inNamespace(options.keeper.namespace, options.keeper.podLabels)], ports: tcp(2181, 9181) });
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: `cluster-${plan.clusterId}`, namespace: options.namespace, labels: { 'app.kubernetes.io/managed-by': 'observability-platform', 'platform/cluster-id': String(plan.clusterId) } },
    spec: {
      podSelector: self.podSelector,
      policyTypes: ['Ingress', 'Egress'],
      ingress: [
        { from: [inNamespace(options.platformNamespace, options.platformPodLabels)], ports: tcp(8123, 9000) },
        { from: [self], ports: tcp(8123, 9000, 9009) },
      ],
      egress,
    },
  };
}
