import { HttpError } from '../http/gateway-http';
import { partsOf } from '../storage/stats';
import { identifier, literal, type StorageClient } from '../storage/storage-client';

// The stored-bytes quota of an instance (docs/qryn.md "Limits"): what its database holds on disk, measured by
// ClickHouse itself, against QRYN_MAX_STORED_BYTES. The measure is kept per instance and refreshed at most every
// `refreshMs`, so a push costs no query: under the quota a stale figure is refreshed in the background while the
// push goes on; over it, the push waits for the refresh (one per instance at a time), so a push after retention or
// deletion brought the instance under is accepted at once instead of after one more refusal. Every platform process
// measures the same store, so they agree within `refreshMs`.

/**
 * Bytes on disk of the active parts of every table in the instance's database (the figure the Overview shows as
 * Ingested Data). On a cluster, system.parts of one replica of each shard (`partsOf`): what the tenant stores, each
 * shard once, not multiplied by the replication factor.
 */
export async function measureStoredBytes(client: StorageClient, database: string): Promise<number> {
  const parts = partsOf(client);
  const rows = await client.query<{ bytes: string }>(
    `SELECT sum(bytes_on_disk) AS bytes FROM ${parts.from} WHERE database = ${literal(identifier(database))} AND active`,
  );
  return Number(rows[0]?.bytes ?? 0);
}

/** The text of the 429 a push over the quota gets (the console says the same in other words). */
export function overQuotaMessage(stored: number, quota: number): string {
  return `This instance stores ${stored} bytes, over its quota of ${quota} bytes: pushes are refused until retention or deletion brings it under (reads keep working).`;
}

export interface StoredBytesQuotaOptions<T extends { id: string }> {
  /** The quota per instance in bytes; 0 = off (nothing is measured). */
  maxBytes: number;
  /** How old a measure may be before it is taken again. */
  refreshMs: number;
  /** Reads an instance's stored bytes from the store. */
  measure(instance: T): Promise<number>;
  nowMs?: () => number;
  log?: (message: string) => void;
}

interface Measure {
  bytes: number;
  at: number;
  pending?: Promise<void>;
}

export function createStoredBytesQuota<T extends { id: string }>(options: StoredBytesQuotaOptions<T>) {
  const now = options.nowMs ?? Date.now;
  const measures = new Map<string, Measure>();

  /** Starts a measure unless one is running; resolves when it ended (a failure keeps the last figure). */
  function refresh(instance: T): Promise<void> {
    const instanceId = instance.id;
    const entry = measures.get(instanceId);
    if (entry?.pending) return entry.pending;
    const pending = options.measure(instance).then(
      (bytes) => {
        if (measures.size >= 10_000 && !measures.has(instanceId)) measures.clear();
        measures.set(instanceId, { bytes, at: now() });
      },
      (error: unknown) => {
        // The push then goes on with the last figure (none: as under the quota); the write itself reports a store
        // that is down, and the next push measures again.
        const last = measures.get(instanceId);
        if (last) last.pending = undefined;
        else measures.delete(instanceId);
        options.log?.(`[qryn] stored bytes of instance ${instanceId} could not be measured: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
      },
    );
    if (entry) entry.pending = pending;
    else measures.set(instanceId, { bytes: 0, at: -Infinity, pending });
    return pending;
  }

  return {
    maxBytes: options.maxBytes,

    /**
     * Throws 429 when the instance is over its quota. Waits for a measure only for an instance never measured, or
     * one whose last (stale) measure was over the quota.
     */
    async admit(instance: T): Promise<void> {
      if (options.maxBytes <= 0) return;
      const instanceId = instance.id;
      let entry = measures.get(instanceId);
      const stale = !entry || now() - entry.at >= options.refreshMs;
      if (stale) {
        const running = refresh(instance);
        if (!entry || entry.at === -Infinity || entry.bytes >= options.maxBytes) {
          await running;
          entry = measures.get(instanceId);
        }
      }
      if (entry && entry.at !== -Infinity && entry.bytes >= options.maxBytes) {
        throw new HttpError(429, overQuotaMessage(entry.bytes, options.maxBytes));
      }
    },

    /** The last measure of an instance (undefined before the first). */
    stored(instanceId: string): { bytes: number; at: number } | undefined {
      const entry = measures.get(instanceId);
      return entry && entry.at !== -Infinity ? { bytes: entry.bytes, at: entry.at } : undefined;
    },

    /** Forget an instance's measure (after its retention dropped data, or its release): the next push measures. */
    forget(instanceId?: string): void {
      if (instanceId === undefined) measures.clear();
      else measures.delete(instanceId);
    },
  };
}

export type StoredBytesQuota = ReturnType<typeof createStoredBytesQuota>;
