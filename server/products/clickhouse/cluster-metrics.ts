import { statfs } from 'node:fs/promises';
import type { ClusterMetadata, ClusterMetrics } from '../../../contract/clickhouse';
import { ClickhouseError, clickhouseQuery, type ClickhouseEndpoint } from './clickhouse-http';

// Metadata and metrics read from the servers' own system tables (18.16: system.tables, system.parts,
// system.query_log; no system.disks, so free and total space come from statfs of the node's data folder).

export interface MetricsTarget {
  /** How the node is named in metadata and in the nodes filter: host:port (HTTP). */
  host: string;
  endpoint: ClickhouseEndpoint;
  /** The node's data folder on this machine (managed clusters); null for external ones. */
  dataDir: string | null;
  diskType: string;
}

const SYSTEM_DATABASES = ['system'];
const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const databaseFilter = (column: string, databases: readonly string[]) =>
  databases.length > 0 ? `${column} IN (${databases.map(quote).join(', ')})` : `${column} NOT IN (${SYSTEM_DATABASES.map(quote).join(', ')})`;

export async function listDatabases(endpoint: ClickhouseEndpoint): Promise<string[]> {
  const rows = await clickhouseQuery<{ name: string }>(endpoint, `SELECT name FROM system.databases WHERE ${databaseFilter('name', [])} ORDER BY name`);
  return rows.map((r) => r.name);
}

export async function readMetadata(
  nodes: readonly { shard: number; replica: number; host: string }[],
  endpoints: readonly ClickhouseEndpoint[],
  shape: { shards: number; replicas: number },
): Promise<ClusterMetadata> {
  const databases = new Set<string>();
  for (const endpoint of endpoints) for (const name of await listDatabases(endpoint)) databases.add(name);
  return {
    shards: shape.shards,
    replicas: shape.replicas,
    nodes: nodes.map((n) => ({ shard: n.shard, shard_weight: 1, replica: n.replica, host: n.host })),
    databases: [...databases].sort(),
  };
}

export interface MetricsRange {
  start: number;
  end: number;
  databases: readonly string[];
  /** Queries of this user are the platform's own (health checks, these reads) and are left out. */
  excludeUser: string | null;
}

/** ClickHouse's code for a table that does not exist. */
const UNKNOWN_TABLE = 60;

/**
 * A read of system.query_log. That table only exists once the server has logged a query: an external server that
 * does not log queries (log_queries off, the default) has none, and gets no time series rather than an error.
 */
async function queryLog<T>(endpoint: ClickhouseEndpoint, sql: string): Promise<T[]> {
  try {
    return await clickhouseQuery<T>(endpoint, sql);
  } catch (error) {
    if (error instanceof ClickhouseError && error.code === UNKNOWN_TABLE) return [];
    throw error;
  }
}

/** Buckets of about 60 points over the range, at least 10 s each. */
export const stepFor = (start: number, end: number) => Math.max(10, Math.ceil((end - start) / 60 / 10) * 10);

export async function readMetrics(targets: readonly MetricsTarget[], range: MetricsRange): Promise<ClusterMetrics> {
  const step = stepFor(range.start, range.end);
  let totalTables = 0;
  let totalRows = 0;
  const disks: ClusterMetrics['disks'][number][] = [];
  const buckets = new Map<number, { bytes: number; written: number; read: number; duration: number; memory: number; queries: number }>();
  const seenDirs = new Set<string>();
  for (const target of targets) {
    const e = target.endpoint;
    const [tables] = await clickhouseQuery<{ n: string }>(e, `SELECT count() AS n FROM system.tables WHERE ${databaseFilter('database', range.databases)}`);
    const [rows] = await clickhouseQuery<{ n: string }>(e, `SELECT sum(rows) AS n FROM system.parts WHERE active AND ${databaseFilter('database', range.databases)}`);
    totalTables += Number(tables?.n ?? 0);
    totalRows += Number(rows?.n ?? 0);
    // query_log of 18.16 has no list of databases per query: a database filter keeps the queries naming it.
    const dbCondition = range.databases.length > 0 ? `AND (${range.databases.map((d) => `positionCaseInsensitive(query, ${quote(d)}) > 0`).join(' OR ')})` : '';
    const userCondition = range.excludeUser ? `AND user != ${quote(range.excludeUser)}` : '';
    const series = await queryLog<{ t: string; bytes: string; written: string; read: string; duration: string; memory: string; queries: string }>(
      e,
      `SELECT intDiv(toUInt32(event_time), ${step}) * ${step} AS t, sum(read_bytes + written_bytes) AS bytes, sum(written_rows) AS written, sum(read_rows) AS read,
              sum(query_duration_ms) AS duration, sum(memory_usage) AS memory, count() AS queries
         FROM system.query_log
        WHERE type = 2 AND event_date >= toDate(${Math.floor(range.start)}) AND event_time >= toDateTime(${Math.floor(range.start)}) AND event_time <= toDateTime(${Math.ceil(range.end)})
              ${userCondition} ${dbCondition}
        GROUP BY t ORDER BY t`,
    );
    for (const point of series) {
      const t = Number(point.t);
      const b = buckets.get(t) ?? { bytes: 0, written: 0, read: 0, duration: 0, memory: 0, queries: 0 };
      b.bytes += Number(point.bytes);
      b.written += Number(point.written);
      b.read += Number(point.read);
      b.duration += Number(point.duration);
      b.memory += Number(point.memory);
      b.queries += Number(point.queries);
      buckets.set(t, b);
    }
    if (target.dataDir && !seenDirs.has(target.dataDir)) {
      seenDirs.add(target.dataDir);
      const fs = await statfs(target.dataDir);
      disks.push({ host: target.host, free_space: fs.bavail * fs.bsize, total_space: fs.blocks * fs.bsize, type: target.diskType });
    }
  }
  const timeSeries = [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([time, b]) => ({
      time,
      bytes_per_second: b.bytes / step,
      written_rows_per_second: b.written / step,
      read_rows_per_second: b.read / step,
      average_query_time: b.queries > 0 ? b.duration / b.queries : 0,
      average_query_memory: b.queries > 0 ? b.memory / b.queries : 0,
    }));
  return { total_tables: totalTables, total_rows: totalRows, disks, time_series_metrics: timeSeries };
}
