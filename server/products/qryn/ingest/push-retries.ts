import { createHash } from 'node:crypto';
import type { Batch } from './batch';

// Agents (Promtail, the OpenTelemetry collector, Prometheus) send a push again when it was answered 5xx. On a
// ClickHouse cluster without replication a push answered 503 can still be stored: its insert stays on the node that
// took it and completes when the stalled shard resumes (18.16 cannot cancel it, and has no insert deduplication
// outside Replicated tables). So the gateway remembers the pushes it failed, by identity, for a window after their
// last failed attempt; a push with a remembered identity is a retry, and only what is not stored yet is written
// (stored-rows.ts). A push that succeeded is not remembered: sending it again on purpose stores it again.

/** How long a failed push is remembered after its last failed attempt, by default (QRYN_PUSH_RETRY_WINDOW_S). */
export const DEFAULT_PUSH_RETRY_WINDOW_S = 600;

/** Failed pushes remembered at most (each about 200 bytes); past it the oldest are forgotten first. */
export const MAX_FAILED_PUSHES = 20_000;

/**
 * Failed pushes remembered at most for one instance: past it that instance's oldest are forgotten first, so one
 * tenant failing many pushes cannot push another tenant's failures out of memory (and their retries into doubles).
 */
export const MAX_FAILED_PUSHES_PER_INSTANCE = 2_000;

/** The insert query ids kept per failed push (each attempt adds its own, a few per attempt). */
const MAX_QUERY_IDS = 32;

/** The window in ms from the environment: whole seconds, 0 turns the recognition of retries off. */
export function pushRetryWindowMs(env: Record<string, string | undefined>): number {
  const value = env.QRYN_PUSH_RETRY_WINDOW_S;
  if (value === undefined || value === '') return DEFAULT_PUSH_RETRY_WINDOW_S * 1000;
  const seconds = Number(value);
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new Error(`QRYN_PUSH_RETRY_WINDOW_S must be a whole number of seconds, 0 or more (got "${value}").`);
  return seconds * 1000;
}

/**
 * The identity of a push: SHA-256 over its instance and its decoded rows (the sample rows as they are inserted, the
 * spans as received, the metric metadata). The same body decodes to the same rows, whatever its encoding on the wire
 * (JSON or protobuf, compressed or not); rows that the gateway stamps with the arrival time differ on every attempt.
 */
export function pushIdentity(instanceId: string, logRows: Uint8Array, metricRows: Uint8Array, batch: Batch): string {
  const hash = createHash('sha256').update(instanceId).update('\0logs\0').update(logRows).update('\0metrics\0').update(metricRows).update('\0spans\0');
  for (const span of batch.spans) hash.update(`${span.traceId}\0${span.spanId}\0${span.timestampNs}\0${span.payload}\0`);
  hash.update('\0metadata\0');
  for (const m of batch.metadata) hash.update(`${m.metric}\0${m.type}\0${m.help}\0${m.unit}\0`);
  return hash.digest('base64url');
}

export interface FailedPush {
  instanceId: string;
  /** When the last attempt failed. */
  atMs: number;
  /** The query ids of the inserts its attempts sent (they may still be running on a node). */
  queryIds: string[];
}

export function createFailedPushes(windowMs: number, nowMs: () => number, max = MAX_FAILED_PUSHES, maxPerInstance = MAX_FAILED_PUSHES_PER_INSTANCE) {
  // Insertion order is the order of the last failure: the first entries are the oldest.
  const pushes = new Map<string, FailedPush>();
  const perInstance = new Map<string, number>();

  function remove(identity: string, entry: FailedPush): void {
    pushes.delete(identity);
    const left = (perInstance.get(entry.instanceId) ?? 1) - 1;
    if (left > 0) perInstance.set(entry.instanceId, left);
    else perInstance.delete(entry.instanceId);
  }

  function expire(): void {
    const cutoff = nowMs() - windowMs;
    for (const [identity, entry] of pushes) {
      if (entry.atMs > cutoff) break;
      remove(identity, entry);
    }
  }

  return {
    /** Whether any failed push of the instance is remembered (only then is a push's identity worth computing). */
    any(instanceId: string): boolean {
      if (windowMs <= 0) return false;
      expire();
      return perInstance.has(instanceId);
    },

    /** The remembered failure of this identity, within the window. */
    get(identity: string): FailedPush | undefined {
      expire();
      return pushes.get(identity);
    },

    /** Records a failed attempt: the window starts again, its insert query ids are added. */
    failed(identity: string, instanceId: string, queryIds: readonly string[]): void {
      if (windowMs <= 0) return;
      const known = pushes.get(identity);
      if (known) remove(identity, known);
      const ids = [...(known?.queryIds ?? []), ...queryIds].slice(-MAX_QUERY_IDS);
      pushes.set(identity, { instanceId, atMs: nowMs(), queryIds: ids });
      perInstance.set(instanceId, (perInstance.get(instanceId) ?? 0) + 1);
      expire();
      if ((perInstance.get(instanceId) ?? 0) > maxPerInstance) {
        for (const [oldest, entry] of pushes) {
          if (entry.instanceId !== instanceId) continue;
          remove(oldest, entry);
          break;
        }
      }
      for (const [oldest, entry] of pushes) {
        if (pushes.size <= max) break;
        remove(oldest, entry);
      }
    },

    /** The push is stored: a later one with the same identity is a new push again. */
    stored(identity: string): void {
      const known = pushes.get(identity);
      if (known) remove(identity, known);
    },

    get size(): number {
      return pushes.size;
    },
  };
}

export type FailedPushes = ReturnType<typeof createFailedPushes>;
