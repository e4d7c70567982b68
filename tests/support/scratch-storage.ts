import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Value } from '../../packages/promql/engine/value';
import { storageClient, type StorageClient } from '../../server/products/qryn/storage/storage-client';
import { startStorageServer, type StorageEndpoint } from '../../server/products/qryn/storage/storage-server';

// A ClickHouse server of a test's own in a temp folder (the pushdown tests read what they wrote, nothing else).

export interface ScratchStorage {
  endpoint: StorageEndpoint;
  client: StorageClient;
  close(): Promise<void>;
}

export async function startScratchStorage(prefix: string): Promise<ScratchStorage> {
  const dir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  const server = await startStorageServer({ dir });
  const endpoint = { url: server.url, user: server.user, password: server.password };
  return {
    endpoint,
    client: storageClient(endpoint),
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A PromQL answer as comparable data: NaN and infinities as strings, so that NaN equals NaN. */
export function comparableValue(value: Value): unknown {
  return JSON.parse(JSON.stringify(value, (_, v: unknown) => {
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    if (v instanceof Float64Array) return Array.from(v, (x) => (Number.isFinite(x) ? x : String(x)));
    return v;
  }));
}
