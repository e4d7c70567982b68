import path from 'node:path';

// The config files of one clickhouse-server process (Debian's 18.16: the root element is <yandex>). Rendered from
// the cluster's plan on every start and on every IP safe list change; the server re-reads users.xml by itself
// within a few seconds, so a changed safe list applies without a restart.

export interface RemoteReplica {
  host: string;
  tcpPort: number;
  /** The node's own database when it shares a process (nodes beyond the local cap). */
  database: string | null;
}

export interface ServerConfigInput {
  dir: string;
  httpPort: number;
  tcpPort: number;
  clusterName: string;
  /** shards → replicas, as they go into remote_servers. */
  shards: RemoteReplica[][];
  adminUser: string;
  adminPasswordSha256: string;
  ipSafeList: readonly string[];
  /** The platform's own user: distributed queries between the nodes, health checks and metrics; loopback only. */
  internalUser: string;
  internalPassword: string;
  /** What the plan sells, enforced by the server (serverLimits). */
  limits: ServerLimits;
}

/** One server's share of the machine, from what the plan sells (docs/clickhouse.md "Limits per server"). */
export interface ServerLimits {
  /** max_memory_usage_for_all_queries (and per query): bytes all queries of the server may hold together. */
  memoryBytes: number;
  /** max_execution_time of the customer's queries, seconds. */
  maxExecutionSeconds: number;
  /** max_concurrent_queries of the server. */
  maxConcurrentQueries: number;
  /** max_threads of a query: the machine's vCPUs. */
  maxThreads: number;
}

const GIB = 1024 ** 3;

/**
 * The limits of one server of a cluster sold with this machine: memory for all queries is 80 % of the machine's RAM
 * (the rest for caches and merges) but never more than `localMemoryCapBytes`, what this shared machine can give one
 * server; 4 concurrent queries per vCPU; threads per query = vCPUs; customer queries end after maxExecutionSeconds.
 */
export function serverLimits(machine: { cpu: number; ramGiB: number } | undefined, local: { memoryCapBytes: number; maxExecutionSeconds: number }): ServerLimits {
  const cpu = Math.max(1, machine?.cpu ?? 2);
  const sold = Math.floor((machine?.ramGiB ?? 8) * GIB * 0.8);
  return {
    memoryBytes: Math.min(sold, local.memoryCapBytes),
    maxExecutionSeconds: local.maxExecutionSeconds,
    maxConcurrentQueries: Math.max(4, cpu * 4),
    maxThreads: cpu,
  };
}

const xml = (value: string | number) =>
  String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * An IPv4 safe list entry as ClickHouse 18.16 matches it. That version compares addresses as IPv6 and applies an
 * IPv4 prefix length to the whole 128 bits, so "10.0.0.1/32" would admit 127.0.0.1 (measured). Written as an
 * IPv4-mapped IPv6 network (::ffff:a.b.c.d/96+n) it matches exactly the addresses the user meant.
 */
export function networkEntry(entry: string): string {
  const [address, bits] = entry.split('/');
  if (bits === undefined) return address;
  return `::ffff:${address}/${96 + Number(bits)}`;
}

export function renderUsersXml(input: Pick<ServerConfigInput, 'adminUser' | 'adminPasswordSha256' | 'ipSafeList' | 'internalUser' | 'internalPassword' | 'limits'>): string {
  const networks = input.ipSafeList.length === 0 ? ['::/0'] : input.ipSafeList.map(networkEntry);
  const { limits } = input;
  return `<?xml version="1.0"?>
<yandex>
  <profiles>
    <!-- The platform's own user (health checks, metrics, qryn's storage): the server's memory cap, no time limit. -->
    <default>
      <log_queries>1</log_queries>
      <max_memory_usage>${limits.memoryBytes}</max_memory_usage>
      <max_memory_usage_for_all_queries>${limits.memoryBytes}</max_memory_usage_for_all_queries>
      <max_threads>${limits.maxThreads}</max_threads>
      <!-- LowCardinality is experimental in 18.16; qryn's tables use it when a project stores qryn here. -->
      <allow_experimental_low_cardinality_type>1</allow_experimental_low_cardinality_type>
    </default>
    <!-- The customer's admin: what the plan sells. The settings are fixed here (readonly constraints do not exist
         in 18.16, so a SET could raise them for one session; the server-wide memory cap of all queries and
         max_concurrent_queries still hold). -->
    <customer>
      <log_queries>1</log_queries>
      <max_memory_usage>${limits.memoryBytes}</max_memory_usage>
      <max_memory_usage_for_all_queries>${limits.memoryBytes}</max_memory_usage_for_all_queries>
      <max_execution_time>${limits.maxExecutionSeconds}</max_execution_time>
      <max_threads>${limits.maxThreads}</max_threads>
      <allow_experimental_low_cardinality_type>1</allow_experimental_low_cardinality_type>
    </customer>
  </profiles>
  <users>
    <${input.adminUser}>
      <password_sha256_hex>${xml(input.adminPasswordSha256)}</password_sha256_hex>
      <networks>
${networks.map((n) => `        <ip>${xml(n)}</ip>`).join('\n')}
      </networks>
      <profile>customer</profile>
      <quota>default</quota>
    </${input.adminUser}>
    <${input.internalUser}>
      <password>${xml(input.internalPassword)}</password>
      <networks>
        <ip>127.0.0.1</ip>
        <ip>::1</ip>
      </networks>
      <profile>default</profile>
      <quota>default</quota>
    </${input.internalUser}>
  </users>
  <quotas>
    <default>
      <interval>
        <duration>3600</duration>
        <queries>0</queries>
        <errors>0</errors>
        <result_rows>0</result_rows>
        <read_rows>0</read_rows>
        <execution_time>0</execution_time>
      </interval>
    </default>
  </quotas>
</yandex>
`;
}

export function renderConfigXml(input: ServerConfigInput): string {
  const dir = input.dir;
  const remote = input.shards
    .map(
      (replicas) => `      <shard>
        <weight>1</weight>
        <internal_replication>false</internal_replication>
${replicas
  .map(
    (r) => `        <replica>
          <host>${xml(r.host)}</host>
          <port>${r.tcpPort}</port>
          <user>${xml(input.internalUser)}</user>
          <password>${xml(input.internalPassword)}</password>${r.database ? `\n          <default_database>${xml(r.database)}</default_database>` : ''}
        </replica>`,
  )
  .join('\n')}
      </shard>`,
    )
    .join('\n');
  return `<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>${xml(path.join(dir, 'log', 'server.log'))}</log>
    <errorlog>${xml(path.join(dir, 'log', 'error.log'))}</errorlog>
    <size>10M</size>
    <count>1</count>
  </logger>
  <http_port>${input.httpPort}</http_port>
  <tcp_port>${input.tcpPort}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${xml(path.join(dir, 'data'))}/</path>
  <tmp_path>${xml(path.join(dir, 'tmp'))}/</tmp_path>
  <user_files_path>${xml(path.join(dir, 'user_files'))}/</user_files_path>
  <format_schema_path>${xml(path.join(dir, 'format_schemas'))}/</format_schema_path>
  <users_config>${xml(path.join(dir, 'users.xml'))}</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>268435456</mark_cache_size>
  <max_concurrent_queries>${input.limits.maxConcurrentQueries}</max_concurrent_queries>
  <!-- Stop within a few seconds (a restart after SYSTEM SHUTDOWN or a TERM waits for it): a stopping 18.16 server
       waits for open keep-alive connections (default 10 s) and unfinished queries. -->
  <keep_alive_timeout>3</keep_alive_timeout>
  <shutdown_wait_unfinished>1</shutdown_wait_unfinished>
  <timezone>UTC</timezone>
  <remote_servers>
    <${input.clusterName}>
${remote}
    </${input.clusterName}>
  </remote_servers>
  <query_log>
    <database>system</database>
    <table>query_log</table>
    <partition_by>toYYYYMM(event_date)</partition_by>
    <flush_interval_milliseconds>1000</flush_interval_milliseconds>
  </query_log>
</yandex>
`;
}
