import { describe, expect, it } from 'vitest';
import { renderClickHouseInstallation, renderNetworkPolicy } from '../../server/products/clickhouse/kubernetes-provisioner';
import { networkEntry, renderConfigXml, renderUsersXml, serverLimits } from '../../server/products/clickhouse/server-config';

// The production manifest against the documented shape of the Altinity operator's ClickHouseInstallation
// (apiVersion clickhouse.altinity.com/v1: spec.configuration.users "<user>/<setting>", clusters[].layout with
// shardsCount/replicasCount, templates.podTemplates / volumeClaimTemplates / serviceTemplates referenced by name
// from spec.defaults.templates), and the local server configs.

const plan = {
  clusterId: 7,
  name: 'prod',
  shards: 2,
  replicas: 2,
  adminUser: 'admin_one',
  adminPasswordSha256: 'a'.repeat(64),
  ipSafeList: ['10.0.0.0/8'],
  version: '18.16',
  imageTag: 'yandex/clickhouse-server:18.16.1',
  disks: [{ name: 'default', type: 'gp3', sizeBytes: 600e9 }],
  machine: { name: 'm5_xlarge', cpu: 4, ramGiB: 16 },
};

describe('ClickHouseInstallation manifest', () => {
  const chi = renderClickHouseInstallation(plan, { namespace: 'clusters', storageClasses: { gp3: 'gp3-encrypted' }, zookeeperHosts: ['keeper.clusters'], zones: ['eu-central-1a'] });

  it('has the operator kind, a DNS-safe name and the cluster layout', () => {
    expect(chi.apiVersion).toBe('clickhouse.altinity.com/v1');
    expect(chi.kind).toBe('ClickHouseInstallation');
    expect(chi.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    expect(chi.spec.configuration.clusters).toEqual([{ name: 'prod', layout: { shardsCount: 2, replicasCount: 2 } }]);
    expect(chi.spec.configuration.zookeeper).toEqual({ nodes: [{ host: 'keeper.clusters', port: 2181 }] });
  });

  it('keeps only the password hash and the safe list as the user settings', () => {
    expect(chi.spec.configuration.users).toEqual({
      'admin_one/password_sha256_hex': 'a'.repeat(64),
      'admin_one/networks/ip': ['10.0.0.0/8'],
      'admin_one/profile': 'default',
      'admin_one/quota': 'default',
    });
    expect(JSON.stringify(chi)).not.toMatch(/"admin_one\/password"/);
  });

  it('references only templates it defines, sized from the machine and the disk per node', () => {
    const defaults = chi.spec.defaults.templates;
    expect(chi.spec.templates.podTemplates.map((t) => t.name)).toContain(defaults.podTemplate);
    expect(chi.spec.templates.volumeClaimTemplates.map((t) => t.name)).toContain(defaults.dataVolumeClaimTemplate);
    expect(chi.spec.templates.serviceTemplates.map((t) => t.name)).toContain(defaults.serviceTemplate);
    const container = chi.spec.templates.podTemplates[0].spec.containers[0];
    expect(container).toMatchObject({ name: 'clickhouse', image: 'yandex/clickhouse-server:18.16.1', resources: { requests: { cpu: '4', memory: '16Gi' } } });
    expect(chi.spec.templates.podTemplates[0].zone).toEqual({ values: ['eu-central-1a'] });
    // 600 GB over 4 nodes = 150 GB = 139.7 GiB → 140Gi per node.
    expect(chi.spec.templates.volumeClaimTemplates[0].spec).toEqual({ storageClassName: 'gp3-encrypted', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '140Gi' } } });
  });

  it('an empty safe list opens the user to every address; no keeper without replicas', () => {
    const open = renderClickHouseInstallation({ ...plan, replicas: 1, ipSafeList: [] }, { namespace: 'x', zookeeperHosts: ['k'] });
    expect(open.spec.configuration.users['admin_one/networks/ip']).toEqual(['0.0.0.0/0', '::/0']);
    expect(open.spec.configuration.zookeeper).toBeUndefined();
  });
});

describe('the NetworkPolicy next to the installation', () => {
  it('lets the pods talk to the platform, each other, DNS and (when replicated) the Keeper only', () => {
    const base = { clusterId: 7, name: 'prod', shards: 1, replicas: 2, adminUser: 'a', adminPasswordSha256: 'b', ipSafeList: [], version: '18.16' };
    const policy = renderNetworkPolicy(base, { namespace: 'clusters', platformNamespace: 'platform', platformPodLabels: { app: 'platform' }, keeper: { namespace: 'keeper', podLabels: { app: 'keeper' } } });
    expect(policy.spec.podSelector).toEqual({ matchLabels: { 'clickhouse.altinity.com/chi': 'cluster-7' } });
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    // No rule allows a destination by address (ipBlock): nothing outside these pods is reachable.
    expect(JSON.stringify(policy)).not.toContain('ipBlock');
    expect(policy.spec.ingress[0].from).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'platform' } }, podSelector: { matchLabels: { app: 'platform' } } }]);
    expect(policy.spec.ingress[0].ports.map((p) => p.port)).toEqual([8123, 9000]);
    expect(policy.spec.egress.map((rule) => rule.ports.map((p) => p.port))).toEqual([[8123, 9000, 9009], [53, 53], [2181, 9181]]);
    const single = renderNetworkPolicy({ ...base, replicas: 1 }, { namespace: 'clusters', platformNamespace: 'platform', platformPodLabels: { app: 'platform' } });
    expect(single.spec.egress).toHaveLength(2);
  });
});

describe('local server configs', () => {
  const limits = serverLimits({ cpu: 2, ramGiB: 8 }, { memoryCapBytes: 1024 ** 3, maxExecutionSeconds: 60 });
  it('bounds each server by what its plan sells and what this machine can give', () => {
    expect(limits).toEqual({ memoryBytes: 1024 ** 3, maxExecutionSeconds: 60, maxConcurrentQueries: 8, maxThreads: 2 });
    expect(serverLimits({ cpu: 1, ramGiB: 1 }, { memoryCapBytes: 4 * 1024 ** 3, maxExecutionSeconds: 30 }).memoryBytes).toBe(Math.floor(0.8 * 1024 ** 3));
    const users = renderUsersXml({ adminUser: 'admin_one', adminPasswordSha256: 'ab', ipSafeList: [], internalUser: 'platform_internal', internalPassword: 'p', limits });
    const customer = /<customer>([\s\S]*?)<\/customer>/.exec(users)![1];
    expect(customer).toContain(`<max_memory_usage_for_all_queries>${1024 ** 3}</max_memory_usage_for_all_queries>`);
    expect(customer).toContain('<max_execution_time>60</max_execution_time>');
    expect(customer).toContain('<max_threads>2</max_threads>');
    expect(/<admin_one>[\s\S]*?<profile>customer<\/profile>/.test(users)).toBe(true);
    const config = renderConfigXml({ dir: '/d', httpPort: 1, tcpPort: 2, clusterName: 'c', shards: [], adminUser: 'a', adminPasswordSha256: 'b', ipSafeList: [], internalUser: 'i', internalPassword: 'p', limits });
    expect(config).toContain('<max_concurrent_queries>8</max_concurrent_queries>');
  });
  it('maps IPv4 networks to IPv4-mapped IPv6 for 18.16 and allows all for an empty list', () => {
    expect(networkEntry('10.0.0.0/8')).toBe('::ffff:10.0.0.0/104');
    expect(networkEntry('1.2.3.4')).toBe('1.2.3.4');
    const users = renderUsersXml({ adminUser: 'admin_one', adminPasswordSha256: 'ab', ipSafeList: [], internalUser: 'platform_internal', internalPassword: 'p&q', limits });
    expect(users).toContain('<ip>::/0</ip>');
    expect(users).toContain('<password>p&amp;q</password>');
    expect(users).toContain('<password_sha256_hex>ab</password_sha256_hex>');
  });
  it('lists every node in remote_servers, with the default database of nodes that share a process', () => {
    const config = renderConfigXml({
      dir: '/d',
      httpPort: 1,
      tcpPort: 2,
      clusterName: 'prod',
      limits,
      shards: [[{ host: '127.0.0.1', tcpPort: 2, database: null }], [{ host: '127.0.0.1', tcpPort: 2, database: 'shard2_replica1' }]],
      adminUser: 'a',
      adminPasswordSha256: 'b',
      ipSafeList: [],
      internalUser: 'platform_internal',
      internalPassword: 'x',
    });
    expect(config.match(/<shard>/g)).toHaveLength(2);
    expect(config).toContain('<default_database>shard2_replica1</default_database>');
    expect(config).toContain('<listen_host>127.0.0.1</listen_host>');
    expect(config).toContain('<flush_interval_milliseconds>1000</flush_interval_milliseconds>');
    expect(config.startsWith('<?xml version="1.0"?>\n<yandex>')).toBe(true);
  });
});
