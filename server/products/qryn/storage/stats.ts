import type { QrynMetrics } from '../../../../contract/qryn';
import { LOCAL_SUFFIX, quoteName } from './schema';
import { identifier, literal, storageClient, type StorageClient } from './storage-client';

// GET integrations/qryn/metrics, computed from the store (docs/qryn.md "Stats"): bytes from system.parts (active
// parts of the instance's tables whose day falls in the period), rows and distinct counts from the tables.

/**
 * Where an instance's parts are listed, and its table names as the readers know them: system.parts of the one
 * server, or of one replica of every shard of a cluster (`cluster()`; the local tables' suffix taken off), so bytes
 * are counted once per shard.
 */
export function partsOf(client: StorageClient): { from: string; table: string } {
  const cluster = client.endpoint.cluster;
  if (!cluster) return { from: 'system.parts', table: 'table' };
  return { from: `cluster(${literal(cluster.name)}, system, parts)`, table: `replaceRegexpOne(table, '${LOCAL_SUFFIX}$', '')` };
}

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const toSeconds = (date: string | null | undefined) => (date ? Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000) : null);

export async function instanceStats(
  client: StorageClient,
  database: string,
  period: { start: number; end: number },
  settings: { ttlDays: number; fingerprintLimit: number; /** YYYY-MM-DD of the business clock. */ today: string },
): Promise<Omit<QrynMetrics, 'size_limit_reached' | 'refused_over_quota' | 'refused_busy' | 'refused_over_limit' | 'refused_sign_ins' | 'series_per_push_limit' | 'samples_per_second_limit' | `reads_${string}`>> {
  const db = identifier(database);
  const from = `toDate('${day(period.start)}')`;
  const to = `toDate('${day(period.end)}')`;
  const startNs = `${BigInt(period.start) * 1_000_000_000n}`;
  const endNs = `${BigInt(period.end) * 1_000_000_000n + 999_999_999n}`;
  const parts = partsOf(client);
  const [partRows, logs, metrics, spans, series, month] = await Promise.all([
    client.query<{ table: string; bytes: string; period_bytes: string; oldest: string }>(
      `SELECT ${parts.table} AS table_name, sum(bytes_on_disk) AS bytes, sumIf(bytes_on_disk, toDate(partition) >= ${from} AND toDate(partition) <= ${to}) AS period_bytes,
         toString(min(toDate(partition))) AS oldest
       FROM ${parts.from} WHERE database = ${literal(db)} AND active GROUP BY table_name`,
    ).then((rows) => rows.map((r) => ({ ...r, table: (r as unknown as { table_name: string }).table_name }))),
    client.query<{ n: string }>(`SELECT count() AS n FROM ${db}.log_samples WHERE date >= ${from} AND date <= ${to} AND timestamp_ns BETWEEN ${startNs} AND ${endNs}`),
    client.query<{ n: string }>(`SELECT count() AS n FROM ${db}.metric_samples WHERE date >= ${from} AND date <= ${to} AND timestamp_ns BETWEEN ${startNs} AND ${endNs}`),
    client.query<{ n: string; traces: string }>(
      `SELECT count() AS n, uniqExact(trace_id) AS traces FROM ${db}.spans WHERE date >= ${from} AND date <= ${to} AND timestamp_ns BETWEEN ${startNs} AND ${endNs}`,
    ),
    client.query<{ all: string; metrics: string }>(
      `SELECT uniqExact(fingerprint) AS all, uniqExactIf(fingerprint, type = 'metrics') AS metrics FROM ${db}.time_series WHERE date >= ${from} AND date <= ${to}`,
    ),
    client.query<{ n: string }>(
      `SELECT uniqExact(fingerprint) AS n FROM ${db}.time_series WHERE date >= toStartOfMonth(toDate('${settings.today}'))`,
    ),
  ]);
  const byTable = new Map(partRows.map((p) => [p.table, p]));
  const periodBytes = (table: string) => Number(byTable.get(table)?.period_bytes ?? 0);
  const oldest = (...tables: string[]) =>
    tables.map((t) => byTable.get(t)?.oldest).filter((d): d is string => !!d && d !== '0000-00-00').sort()[0] ?? null;
  const logsRows = Number(logs[0]?.n ?? 0);
  const metricsRows = Number(metrics[0]?.n ?? 0);
  const retainedLogs = toSeconds(oldest('log_samples', 'metric_samples'));
  const retainedTraces = toSeconds(oldest('spans'));
  const rotation = [retainedLogs, retainedTraces].filter((d): d is number => d !== null).sort((a, b) => a - b)[0] ?? null;
  const monthFingerprints = Number(month[0]?.n ?? 0);
  return {
    bytes_count: partRows.reduce((sum, p) => sum + Number(p.period_bytes), 0),
    traces_count: Number(spans[0]?.traces ?? 0),
    unique_metric_series_count: Number(series[0]?.metrics ?? 0),
    metrics_and_logs_count: logsRows + metricsRows,
    rotation_policy_ttl: settings.ttlDays,
    size_limit: null,
    data_bytes: partRows.reduce((sum, p) => sum + Number(p.bytes), 0),
    traces_rows: Number(spans[0]?.n ?? 0),
    traces_bytes: periodBytes('spans'),
    metrics_rows: metricsRows,
    metrics_bytes: periodBytes('metric_samples'),
    logs_rows: logsRows,
    logs_bytes: periodBytes('log_samples'),
    fingerprints: Number(series[0]?.all ?? 0),
    retaning_data_logs: retainedLogs,
    retaning_data_traces: retainedTraces,
    rotation_point: rotation,
    fingerprint_limit: settings.fingerprintLimit,
    fingerprint_limit_reached: settings.fingerprintLimit > 0 && monthFingerprints >= settings.fingerprintLimit,
  };
}

/** Drops the day partitions of an instance older than ttlDays before `today` (YYYY-MM-DD). Returns what was dropped. */
export async function enforceRetention(client: StorageClient, database: string, ttlDays: number, today: string): Promise<string[]> {
  const db = identifier(database);
  const cutoff = new Date(Date.parse(`${today}T00:00:00Z`) - ttlDays * 86_400_000).toISOString().slice(0, 10);
  const cluster = client.endpoint.cluster;
  if (cluster) {
    // A cluster's partitions live in the local tables of each node. Replicated: one DROP … ON CLUSTER per partition
    // found on any shard; otherwise every node drops its own.
    const dropped = new Set<string>();
    const nodes = cluster.replicated ? [client] : (await cluster.nodes()).map((node) => storageClient(node));
    for (const node of nodes) {
      const rows = await node.query<{ table: string; partition: string }>(
        `SELECT DISTINCT table, partition FROM ${cluster.replicated ? partsOf(client).from : 'system.parts'} WHERE database = ${literal(db)} AND active AND endsWith(table, '${LOCAL_SUFFIX}') AND toDate(partition) < toDate('${cutoff}') ORDER BY table, partition`,
      );
      for (const row of rows) {
        await node.command(`ALTER TABLE ${db}.${identifier(row.table)}${cluster.replicated ? ` ON CLUSTER ${quoteName(cluster.name)}` : ''} DROP PARTITION ${literal(row.partition)}`);
        dropped.add(`${row.table.slice(0, -LOCAL_SUFFIX.length)}/${row.partition}`);
      }
    }
    return [...dropped];
  }
  const rows = await client.query<{ table: string; partition: string }>(
    `SELECT DISTINCT table, partition FROM system.parts WHERE database = ${literal(db)} AND active AND toDate(partition) < toDate('${cutoff}') ORDER BY table, partition`,
  );
  const dropped: string[] = [];
  for (const row of rows) {
    await client.command(`ALTER TABLE ${db}.${identifier(row.table)} DROP PARTITION ${literal(row.partition)}`);
    dropped.push(`${row.table}/${row.partition}`);
  }
  return dropped;
}
