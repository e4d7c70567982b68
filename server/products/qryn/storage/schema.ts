import { JSON_FLAT_COLUMN, JSON_FLAT_TYPE } from './flat-json';
import { identifier, literal, storageClient, type StorageClient } from './storage-client';

// One ClickHouse database per qryn instance, designed for ClickHouse 18.16 (no TTL, no Map, no JSON functions):
// - time_series: one row per series and day it was written (type logs|metrics, fingerprint, labels as sorted JSON).
//   ReplacingMergeTree collapses repeats of a day; uniqExact(fingerprint) over a month is the fingerprint count.
// - series_labels: the label index (key, value → fingerprint) per day, which selectors read instead of parsing JSON.
// - log_samples / metric_samples: the samples, one table per type so that system.parts gives bytes per type.
// - spans: trace spans (Zipkin, OTLP), with the received span kept as JSON for reads; the span's attributes and its
//   resource's attributes and its instrumentation scope's attributes in three sets of arrays (keys, values, OTLP
//   types; TraceQL's `span.`, `resource.` and `instrumentation.` scopes).
// - metric_metadata: what Prometheus remote write sends about metric families (type, help, unit), one row per
//   distinct entry and day it was received (/api/v1/metadata reads the retained days).
// Every table is partitioned by day (`date`): retention drops whole partitions older than the instance's ttl.
// Every statement is CREATE … IF NOT EXISTS: tables added later (metric_metadata) are created for instances made
// before them by ensureInstanceTable, on the first write that needs one.

export const INSTANCE_TABLES = ['time_series', 'series_labels', 'log_samples', 'metric_samples', 'spans'] as const;
export type InstanceTable = (typeof INSTANCE_TABLES)[number];

/** The suffix of the sharded local tables on a cluster; the Distributed table keeps the readers' name. */
export const LOCAL_SUFFIX = '_local';

/** The database of an instance (instance ids are generated: lower-case hex); `prefix` is QRYN_CLICKHOUSE_DATABASE. */
export function databaseOf(instanceId: string, prefix = 'qryn'): string {
  return identifier(`${prefix}_${instanceId}`);
}

interface TableDefinition {
  name: InstanceTable | 'metric_metadata';
  columns: string;
  /**
   * Columns made on a single server only: ClickHouse 18.16's Distributed tables forward MATERIALIZED columns in their
   * inserts, which the local tables refuse; readers look for these columns and do without them.
   */
  singleServerColumns?: string;
  /** The MergeTree family member and its parameters after the replication path (ReplacingMergeTree's version column). */
  engine: 'MergeTree' | 'ReplacingMergeTree';
  version?: string;
  order: string;
  /** The sharding key on a cluster: a series' rows (labels and samples) share a shard, as do a trace's spans. */
  shardBy: string;
}

const TABLES: TableDefinition[] = [
  { name: 'time_series', columns: 'date Date, type LowCardinality(String), fingerprint UInt64, labels String', engine: 'ReplacingMergeTree', version: 'date', order: 'type, fingerprint', shardBy: 'fingerprint' },
  { name: 'series_labels', columns: 'date Date, type LowCardinality(String), key LowCardinality(String), val String, fingerprint UInt64', engine: 'ReplacingMergeTree', version: 'date', order: 'type, key, val, fingerprint', shardBy: 'fingerprint' },
  {
    name: 'log_samples',
    columns: 'date Date, fingerprint UInt64, timestamp_ns Int64, line String',
    singleServerColumns: `${JSON_FLAT_COLUMN} ${JSON_FLAT_TYPE}`,
    engine: 'MergeTree',
    order: 'fingerprint, timestamp_ns',
    shardBy: 'fingerprint',
  },
  { name: 'metric_samples', columns: 'date Date, fingerprint UInt64, timestamp_ns Int64, value Float64', engine: 'MergeTree', order: 'fingerprint, timestamp_ns', shardBy: 'fingerprint' },
  {
    name: 'spans',
    columns: `date Date, trace_id String, span_id String, parent_id String, name String,
      service_name LowCardinality(String), kind LowCardinality(String), timestamp_ns Int64, duration_ns Int64,
      status_code Int32, attribute_keys Array(String), attribute_values Array(String),
      source LowCardinality(String), payload String, resource_keys Array(String), resource_values Array(String),
      attribute_types Array(String), resource_types Array(String), scope_name String, scope_version String,
      scope_keys Array(String), scope_values Array(String), scope_types Array(String)`,
    engine: 'MergeTree',
    order: 'trace_id, timestamp_ns',
    shardBy: 'cityHash64(trace_id)',
  },
  { name: 'metric_metadata', columns: 'date Date, metric String, type LowCardinality(String), help String, unit String', engine: 'ReplacingMergeTree', version: 'date', order: 'metric, type, help, unit', shardBy: 'cityHash64(metric)' },
];

/** Where and how the tables are made: one server, or a cluster (sharded local tables + Distributed tables). */
export interface SchemaLayout {
  cluster?: string;
  replicated?: boolean;
}

const layoutOf = (client: StorageClient): SchemaLayout => (client.endpoint.cluster ? { cluster: client.endpoint.cluster.name, replicated: client.endpoint.cluster.replicated } : {});

function tableDdl(db: string, table: TableDefinition, layout: SchemaLayout): string[] {
  const columns = layout.cluster || !table.singleServerColumns ? table.columns : `${table.columns}, ${table.singleServerColumns}`;
  const body = `(\n      ${columns}\n    )`;
  const tail = `PARTITION BY date ORDER BY (${table.order})`;
  if (!layout.cluster) {
    return [`CREATE TABLE IF NOT EXISTS ${db}.${table.name} ${body} ENGINE = ${table.engine}${table.version ? `(${table.version})` : ''} ${tail}`];
  }
  const cluster = literal(layout.cluster);
  // ON CLUSTER only with replication: on ClickHouse 18.16 it runs through ZooKeeper's DDL queue ("DDL background
  // thread is not initialized" without one); otherwise the statements are run on every node (createOnNodes).
  const onCluster = layout.replicated ? ` ON CLUSTER ${quoteName(layout.cluster)}` : '';
  const local = `${table.name}${LOCAL_SUFFIX}`;
  const engine = layout.replicated
    ? `Replicated${table.engine}('/clickhouse/tables/{shard}/${db}/${local}', '{replica}'${table.version ? `, ${table.version}` : ''})`
    : `${table.engine}${table.version ? `(${table.version})` : ''}`;
  return [
    `CREATE TABLE IF NOT EXISTS ${db}.${local}${onCluster} ${body} ENGINE = ${engine} ${tail}`,
    `CREATE TABLE IF NOT EXISTS ${db}.${table.name}${onCluster} AS ${db}.${local} ENGINE = Distributed(${cluster}, ${literal(db)}, ${literal(local)}, ${table.shardBy})`,
  ];
}

/** A cluster name as ClickHouse reads it after ON CLUSTER (back-quoted unless a plain identifier). */
export function quoteName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name.replace(/`/g, '')}\``;
}

export function instanceDdl(database: string, layout: SchemaLayout = {}): string[] {
  const db = identifier(database);
  const onCluster = layout.cluster && layout.replicated ? ` ON CLUSTER ${quoteName(layout.cluster)}` : '';
  return [`CREATE DATABASE IF NOT EXISTS ${db}${onCluster}`, ...TABLES.flatMap((table) => tableDdl(db, table, layout))];
}

/**
 * Runs DDL where it must go: on the one server; on a replicated cluster once (ON CLUSTER carries it to every node);
 * on a cluster without ZooKeeper on every node in turn (each has its local tables and the Distributed tables).
 */
async function runDdl(client: StorageClient, statements: string[]): Promise<void> {
  const cluster = client.endpoint.cluster;
  if (!cluster || cluster.replicated) {
    for (const statement of statements) await client.command(statement, DDL_OPTIONS);
    return;
  }
  for (const node of await cluster.nodes()) {
    const nodeClient = storageClient({ ...node, timeouts: client.endpoint.timeouts });
    for (const statement of statements) await nodeClient.command(statement, DDL_OPTIONS);
  }
}

/**
 * ClickHouse 18.16 makes a LowCardinality column only with allow_experimental_low_cardinality_type=1; sent with each
 * DDL statement, a stock users profile suffices (the setting is not needed to write or read the columns). DDL waits
 * its own time: a CREATE on a loaded server takes longer than a read should.
 */
const DDL_OPTIONS = { settings: { allow_experimental_low_cardinality_type: 1 }, timeoutMs: 30_000 };

/** Creates a table that instances made before it was added lack (idempotent). */
export async function ensureInstanceTable(client: StorageClient, database: string, table: 'metric_metadata'): Promise<void> {
  const definition = TABLES.find((t) => t.name === table)!;
  await runDdl(client, tableDdl(identifier(database), definition, layoutOf(client)));
}

/**
 * Creates an instance's database and tables; when a statement fails (refused, or a node unreachable), what was made
 * is dropped again on every node that answers, so a failed enable leaves no empty database behind.
 */
export async function createInstanceSchema(client: StorageClient, database: string): Promise<void> {
  // A statement sent to a hung node runs when the node resumes, after the cleanup below gave up on it: so every node
  // must answer before anything is sent, and a hung one fails the create with nothing made.
  const cluster = client.endpoint.cluster;
  if (cluster && !cluster.replicated) await Promise.all((await cluster.nodes()).map((node) => storageClient(node).query('SELECT 1', { timeoutMs: 2_000 })));
  try {
    await runDdl(client, instanceDdl(database, layoutOf(client)));
  } catch (error) {
    await dropEverywhere(client, database);
    throw error;
  }
  upgraded.set(upgradeKey(client, database), Promise.resolve());
}

/**
 * Columns added after the first release of the schema, for databases created before them (ClickHouse 18.16 has no
 * `ADD COLUMN IF NOT EXISTS`: the missing ones are looked up first). Rows written before keep the columns' defaults:
 * spans from then have their resource attributes among the span attributes (and the service in service_name); a
 * MATERIALIZED column (log_samples' JSON_FLAT_COLUMN) is computed as older rows are read.
 */
const ADDED_COLUMNS: { table: InstanceTable; name: string; type: string; cluster?: boolean }[] = [
  { table: 'spans', name: 'resource_keys', type: 'Array(String)' },
  { table: 'spans', name: 'resource_values', type: 'Array(String)' },
  // The OTLP type of each attribute value, by position ('s', 'i', 'd', 'b', 'a', 'k'); empty for rows written before.
  { table: 'spans', name: 'attribute_types', type: 'Array(String)' },
  { table: 'spans', name: 'resource_types', type: 'Array(String)' },
  // OTLP's instrumentation scope (name, version); '' for rows written before and for Zipkin spans.
  { table: 'spans', name: 'scope_name', type: 'String' },
  { table: 'spans', name: 'scope_version', type: 'String' },
  // OTLP's instrumentation scope attributes; empty for rows written before, for Zipkin spans and scopes without any.
  { table: 'spans', name: 'scope_keys', type: 'Array(String)', cluster: true },
  { table: 'spans', name: 'scope_values', type: 'Array(String)', cluster: true },
  { table: 'spans', name: 'scope_types', type: 'Array(String)', cluster: true },
  { table: 'log_samples', name: JSON_FLAT_COLUMN, type: JSON_FLAT_TYPE },
];
const upgraded = new Map<string, Promise<void>>();
const upgradeKey = (client: StorageClient, database: string) => `${client.endpoint.url}|${database}`;

/** Adds the columns an older database lacks; once per database and process (a failure is tried again next time). */
export function upgradeInstanceSchema(client: StorageClient, database: string): Promise<void> {
  const key = upgradeKey(client, database);
  let pending = upgraded.get(key);
  if (!pending) {
    pending = client.endpoint.cluster ? upgradeOnNodes(client, database) : addMissingColumns(client, identifier(database), ADDED_COLUMNS);
    pending.catch(() => upgraded.delete(key));
    upgraded.set(key, pending);
  }
  return pending;
}

async function addMissingColumns(client: StorageClient, db: string, columns: { table: string; name: string; type: string }[]): Promise<void> {
  const rows = await client.query<{ table: string; name: string }>(
    `SELECT table, name FROM system.columns WHERE database = '${db}' AND table IN (${[...new Set(columns.map((c) => `'${c.table}'`))].join(', ')})`,
  );
  const present = new Set(rows.map((r) => `${r.table}.${r.name}`));
  for (const column of columns) {
    if (!present.has(`${column.table}.${column.name}`)) await client.command(`ALTER TABLE ${db}.${column.table} ADD COLUMN ${column.name} ${column.type}`, DDL_OPTIONS);
  }
}

/**
 * On a cluster only the columns marked `cluster` are added (the others are older than cluster databases): on every
 * node's local table first, then its Distributed table, whose inserts would otherwise name columns a local table
 * lacks. With replication, ON CLUSTER carries each ALTER (the local tables' replicas share it through ZooKeeper).
 */
async function upgradeOnNodes(client: StorageClient, database: string): Promise<void> {
  const db = identifier(database);
  const wanted = ADDED_COLUMNS.filter((c) => c.cluster);
  const local = wanted.map((c) => ({ ...c, table: `${c.table}${LOCAL_SUFFIX}` }));
  const cluster = client.endpoint.cluster!;
  if (cluster.replicated) {
    const rows = await client.query<{ name: string }>(`SELECT name FROM system.columns WHERE database = '${db}' AND table = 'spans'`);
    const present = new Set(rows.map((r) => r.name));
    for (const column of wanted.filter((c) => !present.has(c.name))) {
      for (const table of [`${column.table}${LOCAL_SUFFIX}`, column.table]) {
        await client.command(`ALTER TABLE ${db}.${table} ON CLUSTER ${quoteName(cluster.name)} ADD COLUMN ${column.name} ${column.type}`, DDL_OPTIONS);
      }
    }
    return;
  }
  const nodes = (await cluster.nodes()).map((node) => storageClient({ ...node, timeouts: client.endpoint.timeouts }));
  for (const node of nodes) await addMissingColumns(node, db, local);
  for (const node of nodes) await addMissingColumns(node, db, wanted);
}

/** Drops a database on every node that answers (the cleanup of a failed create: one node down must not stop it). */
async function dropEverywhere(client: StorageClient, database: string): Promise<void> {
  const cluster = client.endpoint.cluster;
  const statement = `DROP DATABASE IF EXISTS ${identifier(database)}${cluster?.replicated ? ` ON CLUSTER ${quoteName(cluster.name)}` : ''}`;
  const nodes = cluster && !cluster.replicated ? await cluster.nodes().catch(() => [client.endpoint]) : [client.endpoint];
  await Promise.all(nodes.map((node) => storageClient(node).command(statement, { timeoutMs: 10_000 }).catch(() => undefined)));
}

export async function dropInstanceSchema(client: StorageClient, database: string): Promise<void> {
  const cluster = client.endpoint.cluster;
  await runDdl(client, [`DROP DATABASE IF EXISTS ${identifier(database)}${cluster?.replicated ? ` ON CLUSTER ${quoteName(cluster.name)}` : ''}`]);
}
