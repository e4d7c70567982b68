import { identifier, type StorageClient } from './storage-client';

// One ClickHouse database per qryn instance, designed for ClickHouse 18.16 (no TTL, no Map, no JSON functions):
// - time_series: one row per series and day it was written (type logs|metrics, fingerprint, labels as sorted JSON).
//   ReplacingMergeTree collapses repeats of a day; uniqExact(fingerprint) over a month is the fingerprint count.
// - series_labels: the label index (key, value → fingerprint) per day, which selectors read instead of parsing JSON.
// - log_samples / metric_samples: the samples, one table per type so that system.parts gives bytes per type.
// - spans: trace spans (Zipkin, OTLP), with the received span kept as JSON for reads; the span's attributes and its
//   resource's attributes in two pairs of arrays (TraceQL's `span.` and `resource.` scopes).
// - metric_metadata: what Prometheus remote write sends about metric families (type, help, unit), one row per
//   distinct entry and day it was received (/api/v1/metadata reads the retained days).
// Every table is partitioned by day (`date`): retention drops whole partitions older than the instance's ttl.
// Every statement is CREATE … IF NOT EXISTS: tables added later (metric_metadata) are created for instances made
// before them by ensureInstanceTable, on the first write that needs one.

export const INSTANCE_TABLES = ['time_series', 'series_labels', 'log_samples', 'metric_samples', 'spans'] as const;
export type InstanceTable = (typeof INSTANCE_TABLES)[number];

/** The database of an instance (instance ids are generated: lower-case hex). */
export function databaseOf(instanceId: string): string {
  return identifier(`qryn_${instanceId}`);
}

export function instanceDdl(database: string): string[] {
  const db = identifier(database);
  return [
    `CREATE DATABASE IF NOT EXISTS ${db}`,
    `CREATE TABLE IF NOT EXISTS ${db}.time_series (
      date Date, type LowCardinality(String), fingerprint UInt64, labels String
    ) ENGINE = ReplacingMergeTree(date) PARTITION BY date ORDER BY (type, fingerprint)`,
    `CREATE TABLE IF NOT EXISTS ${db}.series_labels (
      date Date, type LowCardinality(String), key LowCardinality(String), val String, fingerprint UInt64
    ) ENGINE = ReplacingMergeTree(date) PARTITION BY date ORDER BY (type, key, val, fingerprint)`,
    `CREATE TABLE IF NOT EXISTS ${db}.log_samples (
      date Date, fingerprint UInt64, timestamp_ns Int64, line String
    ) ENGINE = MergeTree PARTITION BY date ORDER BY (fingerprint, timestamp_ns)`,
    `CREATE TABLE IF NOT EXISTS ${db}.metric_samples (
      date Date, fingerprint UInt64, timestamp_ns Int64, value Float64
    ) ENGINE = MergeTree PARTITION BY date ORDER BY (fingerprint, timestamp_ns)`,
    `CREATE TABLE IF NOT EXISTS ${db}.spans (
      date Date, trace_id String, span_id String, parent_id String, name String,
      service_name LowCardinality(String), kind LowCardinality(String), timestamp_ns Int64, duration_ns Int64,
      status_code Int32, attribute_keys Array(String), attribute_values Array(String),
      source LowCardinality(String), payload String, resource_keys Array(String), resource_values Array(String)
    ) ENGINE = MergeTree PARTITION BY date ORDER BY (trace_id, timestamp_ns)`,
    metricMetadataDdl(db),
  ];
}

function metricMetadataDdl(db: string): string {
  return `CREATE TABLE IF NOT EXISTS ${db}.metric_metadata (
      date Date, metric String, type LowCardinality(String), help String, unit String
    ) ENGINE = ReplacingMergeTree(date) PARTITION BY date ORDER BY (metric, type, help, unit)`;
}

/** Creates a table that instances made before it was added lack (idempotent). */
export async function ensureInstanceTable(client: StorageClient, database: string, table: 'metric_metadata'): Promise<void> {
  if (table === 'metric_metadata') await client.command(metricMetadataDdl(identifier(database)));
}

export async function createInstanceSchema(client: StorageClient, database: string): Promise<void> {
  for (const statement of instanceDdl(database)) await client.command(statement);
  upgraded.set(upgradeKey(client, database), Promise.resolve());
}

/**
 * Columns added after the first release of the schema, for databases created before them (ClickHouse 18.16 has no
 * `ADD COLUMN IF NOT EXISTS`: the missing ones are looked up first). Rows written before keep the columns' defaults:
 * spans from then have their resource attributes among the span attributes (and the service in service_name).
 */
const ADDED_COLUMNS: { table: InstanceTable; name: string; type: string }[] = [
  { table: 'spans', name: 'resource_keys', type: 'Array(String)' },
  { table: 'spans', name: 'resource_values', type: 'Array(String)' },
];
const upgraded = new Map<string, Promise<void>>();
const upgradeKey = (client: StorageClient, database: string) => `${client.endpoint.url}|${database}`;

/** Adds the columns an older database lacks; once per database and process (a failure is tried again next time). */
export function upgradeInstanceSchema(client: StorageClient, database: string): Promise<void> {
  const key = upgradeKey(client, database);
  let pending = upgraded.get(key);
  if (!pending) {
    const db = identifier(database);
    pending = (async () => {
      const rows = await client.query<{ table: string; name: string }>(
        `SELECT table, name FROM system.columns WHERE database = '${db}' AND table IN (${[...new Set(ADDED_COLUMNS.map((c) => `'${c.table}'`))].join(', ')})`,
      );
      const present = new Set(rows.map((r) => `${r.table}.${r.name}`));
      for (const column of ADDED_COLUMNS) {
        if (!present.has(`${column.table}.${column.name}`)) await client.command(`ALTER TABLE ${db}.${column.table} ADD COLUMN ${column.name} ${column.type}`);
      }
    })();
    pending.catch(() => upgraded.delete(key));
    upgraded.set(key, pending);
  }
  return pending;
}

export async function dropInstanceSchema(client: StorageClient, database: string): Promise<void> {
  await client.command(`DROP DATABASE IF EXISTS ${identifier(database)}`);
}
