// Reads of the embedded database cost about a millisecond each, and the embedded database runs on one thread, so
// a burst of identical reads (a console polling, many tabs, a load test) queues behind itself. This cache shares
// one computation among concurrent identical reads and keeps its result briefly, under two rules that keep it
// exact:
//   - every request that may write bumps a generation (before and after it runs); a result is reused only while
//     the generation it started under is still current, so no one ever reads around a write made through the API;
//   - it is on only for the embedded database, where this process is the only writer. With PostgreSQL other
//     instances write too, so every read goes to the database.
// maxAgeMs bounds what a write that bypasses the API (the identity pages, a script) can leave stale.

import type { ReadCache } from '../route-kit/api-context';

export function createReadCache(options: { enabled: boolean; maxAgeMs?: number; maxEntries?: number }): ReadCache {
  const maxAgeMs = options.maxAgeMs ?? 1_000;
  const maxEntries = options.maxEntries ?? 5_000;
  let generation = 0;
  const entries = new Map<string, { generation: number; at: number; value: Promise<unknown> }>();

  return {
    share<T>(key: string, compute: () => Promise<T>): Promise<T> {
      if (!options.enabled) return compute();
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && hit.generation === generation && now - hit.at <= maxAgeMs) return hit.value as Promise<T>;
      if (entries.size >= maxEntries) entries.clear();
      const value = compute();
      const entry = { generation, at: now, value };
      entries.set(key, entry);
      // Failures (403, 404 ...) are not kept: the next request asks again.
      value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return value;
    },
    noteWrite() {
      generation++;
      entries.clear();
    },
  };
}
