import type { Database, Queryable } from '../../db/database';
import type { InstrumentedApplication } from '../../../contract/qryn';
import { Batch } from './ingest/batch';
import type { Writer } from './ingest/writer';
import type { QrynInstanceRow } from './instances/qryn-repository';
import { storageClient, type StorageClient } from './storage/storage-client';
import type { StorageResolver } from './storage/storage-resolver';

// Instrumenting the project's ClickHouse clusters (POST integrations/qryn/instrument, docs/qryn.md
// "Instrumentation"): a recurring job reads each chosen cluster's system.metrics, system.events and
// system.asynchronous_metrics and writes them into the project's qryn instance as Prometheus series named after the
// table (clickhouse_system_metrics, clickhouse_system_events, clickhouse_system_asynchronous_metrics) with the labels
// `cluster` (the cluster's name) and `name` (the metric's or event's name). They are ordinary metric series: the
// Prometheus reads show them and GET metrics counts them (and they count against the fingerprints limit).

export const SCRAPE_TABLES = [
  { table: 'system.metrics', column: 'metric', series: 'clickhouse_system_metrics' },
  { table: 'system.events', column: 'event', series: 'clickhouse_system_events' },
  { table: 'system.asynchronous_metrics', column: 'metric', series: 'clickhouse_system_asynchronous_metrics' },
] as const;

interface InstrumentedRow {
  instance_id: string;
  cluster_id: string;
  name: string;
  instrumented_at: Date;
  last_scrape_at: Date | null;
  last_scrape_samples: number | null;
  last_error: string | null;
}

const toApplication = (row: InstrumentedRow): InstrumentedApplication => ({
  cluster_id: row.cluster_id,
  name: row.name,
  instrumented_at: new Date(row.instrumented_at).toISOString(),
  last_scrape_at: row.last_scrape_at ? new Date(row.last_scrape_at).toISOString() : null,
  last_scrape_samples: row.last_scrape_samples,
  last_error: row.last_error,
});

export async function listInstrumented(db: Queryable, instanceId: string): Promise<InstrumentedApplication[]> {
  const rows = await db.query<InstrumentedRow>('SELECT * FROM qryn_instrumented_clusters WHERE instance_id = $1 ORDER BY name, cluster_id', [instanceId]);
  return rows.map(toApplication);
}

/** Makes the chosen clusters the instrumented set: new ones are added, unchosen ones removed, kept ones keep their history. */
export async function setInstrumented(db: Database, instanceId: string, clusters: readonly { id: string; name: string }[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM qryn_instrumented_clusters WHERE instance_id = $1 AND NOT (cluster_id = ANY($2::text[]))', [instanceId, clusters.map((c) => c.id)]);
    for (const cluster of clusters) {
      await tx.query(
        `INSERT INTO qryn_instrumented_clusters (instance_id, cluster_id, name) VALUES ($1, $2, $3)
         ON CONFLICT (instance_id, cluster_id) DO UPDATE SET name = EXCLUDED.name`,
        [instanceId, cluster.id, cluster.name],
      );
    }
  });
}

/** One scrape of a cluster: every row of the three system tables as a sample at `nowMs`. */
export async function scrapeCluster(client: StorageClient, clusterName: string, nowMs: number, batch: Batch): Promise<number> {
  const timestampNs = BigInt(nowMs) * 1_000_000n;
  let samples = 0;
  for (const source of SCRAPE_TABLES) {
    const rows = await client.query<{ name: string; value: number | string }>(`SELECT ${source.column} AS name, toFloat64(value) AS value FROM ${source.table}`);
    for (const row of rows) {
      const value = Number(row.value);
      if (!Number.isFinite(value)) continue;
      batch.addMetric(batch.addSeries('metrics', { __name__: source.series, cluster: clusterName, name: row.name }), timestampNs, value);
      samples += 1;
    }
  }
  return samples;
}

export interface ScrapeDeps {
  db: Queryable;
  resolver: StorageResolver;
  writer: Writer;
  storageOf: (instance: QrynInstanceRow) => Promise<StorageClient>;
  nowMs: () => number;
}

/** Scrapes every instrumented cluster of every instance once and records each outcome. */
export async function scrapeInstrumented(deps: ScrapeDeps): Promise<{ scraped: number; failed: number }> {
  // The instance row's own cluster_id is where its data is stored: the instrumented cluster gets its own names.
  const rows = await deps.db.query<QrynInstanceRow & { scraped_cluster_id: string; scraped_cluster_name: string }>(
    `SELECT i.*, c.cluster_id AS scraped_cluster_id, c.name AS scraped_cluster_name
     FROM qryn_instrumented_clusters c JOIN qryn_instances i ON i.id = c.instance_id ORDER BY i.id, c.cluster_id`,
  );
  let scraped = 0;
  let failed = 0;
  for (const row of rows) {
    const instance: QrynInstanceRow = row;
    let samples: number | null = null;
    let error: string | null = null;
    try {
      const endpoint = await deps.resolver.resolve(instance.project_id, row.scraped_cluster_id);
      if (!endpoint) throw new Error('The cluster is not running or no longer belongs to the project.');
      const batch = new Batch();
      samples = await scrapeCluster(storageClient(endpoint), row.scraped_cluster_name, deps.nowMs(), batch);
      const client = await deps.storageOf(instance);
      await deps.writer.write({ id: instance.id, database: instance.database_name, client, fingerprintLimit: instance.fingerprint_limit }, batch);
      scraped += 1;
    } catch (cause) {
      error = (cause instanceof Error ? cause.message : String(cause)).slice(0, 500);
      samples = null;
      failed += 1;
    }
    await deps.db.query(
      'UPDATE qryn_instrumented_clusters SET last_scrape_at = $3, last_scrape_samples = $4, last_error = $5 WHERE instance_id = $1 AND cluster_id = $2',
      [instance.id, row.scraped_cluster_id, new Date(deps.nowMs()), samples, error],
    );
  }
  return { scraped, failed };
}
