import { randomUUID } from 'node:crypto';
import type { StorageClient } from '../storage/storage-client';

// Group commit of sample rows: pushes that arrive while an insert into the same table is on its way are combined
// into the next insert, so 50 concurrent pushes cost a few ClickHouse inserts instead of 50 (each insert is an HTTP
// request, a new part on disk and a merge later). Acknowledged means stored: a push's promise settles only when
// the insert that carried its rows has been answered by ClickHouse, and fails with that insert's error. Nothing
// waits for a timer: the first push into an idle table is sent at once, so a lone client sees no added latency.
//
// The bodies must be concatenable (RowBinary is: rows one after another), and each push's rows are validated
// before they are queued, so one push cannot make the insert of others fail.

/** A combined insert is closed once it holds this many bytes; the next pushes form the following one. */
export const MAX_GROUP_BYTES = 8 * 1024 * 1024;

interface Group {
  /** The insert's query id on the server (a retry of a failed push looks for it among the running queries). */
  queryId: string;
  chunks: Uint8Array[];
  bytes: number;
  waiters: { resolve(): void; reject(error: unknown): void }[];
}

interface Lane {
  client: StorageClient;
  table: string;
  columns: readonly string[];
  waiting: Group[];
  sending: boolean;
}

export interface InsertQueueStats {
  /** RowBinary bodies queued (one per push and table). */
  queued: number;
  /** Inserts sent to ClickHouse. */
  inserts: number;
}

export function createInsertQueue() {
  const lanes = new Map<string, Lane>();
  const stats: InsertQueueStats = { queued: 0, inserts: 0 };

  async function drain(key: string, lane: Lane): Promise<void> {
    lane.sending = true;
    try {
      for (let group = lane.waiting.shift(); group; group = lane.waiting.shift()) {
        const body = group.chunks.length === 1 ? group.chunks[0] : Buffer.concat(group.chunks, group.bytes);
        stats.inserts++;
        try {
          await lane.client.insertRowBinary(lane.table, lane.columns, body, { queryId: group.queryId });
          for (const w of group.waiters) w.resolve();
        } catch (error) {
          for (const w of group.waiters) w.reject(error);
        }
      }
    } finally {
      lane.sending = false;
      // Nothing is kept for a table that went quiet (instances come and go).
      if (lane.waiting.length === 0 && lanes.get(key) === lane) lanes.delete(key);
    }
  }

  return {
    stats,
    /**
     * Queues rows (RowBinary, in `columns` order) for `table` and resolves once ClickHouse has stored them, combined
     * with the rows of other pushes queued meanwhile. The query id of the insert that carries them is added to
     * `queryIds`.
     */
    insertRowBinary(client: StorageClient, table: string, columns: readonly string[], body: Uint8Array, queryIds?: string[]): Promise<void> {
      if (body.length === 0) return Promise.resolve();
      stats.queued++;
      const key = `${client.endpoint.url}|${client.endpoint.user}|${table}|${columns.join(',')}`;
      let lane = lanes.get(key);
      if (!lane) lanes.set(key, (lane = { client, table, columns, waiting: [], sending: false }));
      let group = lane.waiting[lane.waiting.length - 1];
      if (!group || group.bytes + body.length > MAX_GROUP_BYTES) lane.waiting.push((group = { queryId: `qryn-insert-${randomUUID()}`, chunks: [], bytes: 0, waiters: [] }));
      group.chunks.push(body);
      group.bytes += body.length;
      queryIds?.push(group.queryId);
      const done = new Promise<void>((resolve, reject) => group.waiters.push({ resolve, reject }));
      if (!lane.sending) void drain(key, lane);
      return done;
    },
  };
}

export type InsertQueue = ReturnType<typeof createInsertQueue>;
