import { spendForFingerprintLimit, type QrynCosts } from '../../../contract/qryn';
import type { RetentionPolicy } from '../../../contract/stack';
import { identifier, literal, type StorageClient } from './storage/storage-client';
import { partsOf } from './storage/stats';

// GET integrations/qryn/costs (docs/qryn.md "Costs"): the current month's cost from what the store measures, never an
// estimate of anything not measured. Stored bytes come from system.parts (active parts, bytes on disk) of the
// instance's tables; they are priced by the retention plan's volume tiers (cents per GB per month, 1 GB = 10^9
// bytes: the first 100 GB at the first tier's price, the next 900 at the second's, the rest at the third's) and
// shared among the kinds of data in proportion to their bytes; the fingerprints limit adds its spend.

const GB = 1_000_000_000;

/** Which table holds which kind of data (the label tables are the index every kind of series needs). */
const TABLE_TYPES: Record<string, QrynCosts['storage'][number]['type']> = {
  log_samples: 'logs',
  metric_samples: 'metrics',
  spans: 'traces',
  time_series: 'index',
  series_labels: 'index',
};

/** Bytes on disk of the instance's data by kind, from the active parts of its tables. */
export async function storedBytesByType(client: StorageClient, database: string): Promise<Record<QrynCosts['storage'][number]['type'], number>> {
  const parts = partsOf(client);
  const rows = await client.query<{ table_name: string; bytes: string }>(
    `SELECT ${parts.table} AS table_name, sum(bytes_on_disk) AS bytes FROM ${parts.from} WHERE database = ${literal(identifier(database))} AND active GROUP BY table_name`,
  );
  const bytes = { logs: 0, metrics: 0, traces: 0, index: 0 };
  for (const row of rows) {
    const type = TABLE_TYPES[row.table_name];
    if (type) bytes[type] += Number(row.bytes);
  }
  return bytes;
}

/** The month (UTC) that `nowMs` falls in, as [first second, first second of the next month). */
export function monthOf(nowMs: number): { start: number; end: number } {
  const now = new Date(nowMs);
  return { start: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000, end: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000 };
}

export function monthCosts(input: {
  bytes: Record<QrynCosts['storage'][number]['type'], number>;
  policy: RetentionPolicy;
  fingerprintLimit: number;
  nowMs: number;
}): QrynCosts {
  const storedBytes = Object.values(input.bytes).reduce((a, b) => a + b, 0);
  const storedGb = storedBytes / GB;
  const tiers = input.policy.tiers.map((tier) => {
    const top = tier.ending_unit ?? Number.POSITIVE_INFINITY;
    const gb = Math.max(0, Math.min(storedGb, top) - tier.starting_unit);
    return { starting_unit: tier.starting_unit, ending_unit: tier.ending_unit, price: tier.price, gb, cents: gb * tier.price };
  });
  const storageCents = tiers.reduce((sum, t) => sum + t.cents, 0);
  const storage = (Object.keys(input.bytes) as (keyof typeof input.bytes)[]).map((type) => ({
    type,
    bytes: input.bytes[type],
    cents: storedBytes === 0 ? 0 : (storageCents * input.bytes[type]) / storedBytes,
  }));
  const fingerprintCents = spendForFingerprintLimit(input.fingerprintLimit) * 100;
  const month = monthOf(input.nowMs);
  return {
    period_start: month.start,
    period_end: month.end,
    measured_at: Math.floor(input.nowMs / 1000),
    ttl_addon_id: input.policy.id,
    plan_name: input.policy.name,
    stored_bytes: storedBytes,
    storage_cents: storageCents,
    storage,
    tiers,
    fingerprint_limit: input.fingerprintLimit,
    fingerprint_cents: fingerprintCents,
    total_cents: storageCents + fingerprintCents,
  };
}
