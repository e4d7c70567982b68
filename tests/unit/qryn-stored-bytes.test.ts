import { describe, expect, it } from 'vitest';
import { HttpError } from '../../server/products/qryn/http/gateway-http';
import { DEFAULT_GATEWAY_LIMITS, gatewayLimits } from '../../server/products/qryn/gateway/gateway-limits';
import { createStoredBytesQuota, measureStoredBytes } from '../../server/products/qryn/gateway/stored-bytes';
import type { StorageClient } from '../../server/products/qryn/storage/storage-client';

// The stored-bytes quota's refresh: at most one measure per instance and refresh interval, in the background while
// under the quota, awaited while over it (so a push after retention is accepted at once); a failed measure keeps
// the last figure.

const instance = { id: 'a1' };

function setup(maxBytes = 1000, refreshMs = 5000) {
  let now = 0;
  let stored = 0;
  let fail = false;
  const calls: string[] = [];
  const gates: (() => void)[] = [];
  let gated = false;
  const quota = createStoredBytesQuota<{ id: string }>({
    maxBytes,
    refreshMs,
    nowMs: () => now,
    measure: async (i) => {
      calls.push(i.id);
      if (gated) await new Promise<void>((resolve) => gates.push(resolve));
      if (fail) throw new Error('store down');
      return stored;
    },
  });
  return {
    quota,
    calls,
    set: (bytes: number) => void (stored = bytes),
    advance: (ms: number) => void (now += ms),
    failing: (on: boolean) => void (fail = on),
    gate: (on: boolean) => void (gated = on),
    open: () => gates.splice(0).forEach((g) => g()),
  };
}

const refused = async (p: Promise<void>) => {
  try {
    await p;
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
};

describe('stored-bytes quota', () => {
  it('measures an instance once per refresh interval, not once per push', async () => {
    const t = setup();
    t.set(10);
    for (let i = 0; i < 50; i++) await t.quota.admit(instance);
    expect(t.calls).toHaveLength(1);
    t.advance(4999);
    await t.quota.admit(instance);
    expect(t.calls).toHaveLength(1);
    t.advance(1);
    await t.quota.admit(instance);
    expect(t.calls).toHaveLength(2);
    expect(t.quota.stored('a1')).toEqual({ bytes: 10, at: 5000 });
  });

  it('concurrent first pushes share one measure', async () => {
    const t = setup();
    t.gate(true);
    const pushes = Promise.all([t.quota.admit(instance), t.quota.admit(instance), t.quota.admit(instance)]);
    await new Promise((r) => setTimeout(r, 0));
    t.open();
    await pushes;
    expect(t.calls).toHaveLength(1);
  });

  it('at or over the quota pushes get 429 with the figures; under it again once the next measure says so', async () => {
    const t = setup(1000);
    t.set(1000);
    const error = await refused(t.quota.admit(instance));
    expect(error?.status).toBe(429);
    expect(error?.message).toBe('This instance stores 1000 bytes, over its quota of 1000 bytes: pushes are refused until retention or deletion brings it under (reads keep working).');
    // Within the interval the figure stands: no new measure.
    t.set(10);
    expect((await refused(t.quota.admit(instance)))?.status).toBe(429);
    expect(t.calls).toHaveLength(1);
    // Stale and over: the push waits for the new measure and is accepted.
    t.advance(5000);
    expect(await refused(t.quota.admit(instance))).toBeUndefined();
    expect(t.calls).toHaveLength(2);
  });

  it('under the quota a stale figure is refreshed in the background: the push does not wait for it', async () => {
    const t = setup(1000);
    t.set(10);
    await t.quota.admit(instance);
    t.advance(6000);
    t.set(5000);
    t.gate(true);
    // The measure is held; the push still goes on with the last (under) figure.
    expect(await refused(t.quota.admit(instance))).toBeUndefined();
    expect(t.calls).toHaveLength(2);
    t.open();
    await new Promise((r) => setTimeout(r, 0));
    t.gate(false);
    expect((await refused(t.quota.admit(instance)))?.status).toBe(429);
  });

  it('a failed measure keeps the last figure; none yet lets the push through (the write reports a store that is down)', async () => {
    const t = setup(1000);
    t.failing(true);
    expect(await refused(t.quota.admit(instance))).toBeUndefined();
    expect(t.quota.stored('a1')).toBeUndefined();
    t.failing(false);
    t.set(2000);
    expect((await refused(t.quota.admit(instance)))?.status).toBe(429);
    t.advance(5000);
    t.failing(true);
    expect((await refused(t.quota.admit(instance)))?.status).toBe(429);
  });

  it('0 is off: nothing is measured; forget drops the figure so the next push measures', async () => {
    const off = setup(0);
    off.set(1e12);
    await off.quota.admit(instance);
    expect(off.calls).toHaveLength(0);
    const t = setup(1000);
    t.set(2000);
    expect((await refused(t.quota.admit(instance)))?.status).toBe(429);
    t.set(0);
    t.quota.forget();
    expect(await refused(t.quota.admit(instance))).toBeUndefined();
    expect(t.calls).toHaveLength(2);
  });

  it('is read from the environment: default 10 GB, 0 turns it off, a malformed value is refused by name', () => {
    expect(gatewayLimits({}).maxStoredBytes).toBe(10_000_000_000);
    expect(DEFAULT_GATEWAY_LIMITS.storedBytesRefreshMs).toBe(5000);
    expect(gatewayLimits({ QRYN_MAX_STORED_BYTES: '0' }).maxStoredBytes).toBe(0);
    expect(gatewayLimits({ QRYN_MAX_STORED_BYTES: '5000000', QRYN_STORED_BYTES_REFRESH_MS: '1000' })).toMatchObject({ maxStoredBytes: 5_000_000, storedBytesRefreshMs: 1000 });
    expect(() => gatewayLimits({ QRYN_MAX_STORED_BYTES: '-1' })).toThrow(/QRYN_MAX_STORED_BYTES must be a positive whole number or 0 \(off\)/);
    expect(() => gatewayLimits({ QRYN_STORED_BYTES_REFRESH_MS: '0' })).toThrow(/QRYN_STORED_BYTES_REFRESH_MS must be a positive whole number/);
  });

  it('measures active parts of the instance database, on a cluster over one replica of each shard', async () => {
    const sql: string[] = [];
    const client = (cluster?: string) =>
      ({
        endpoint: { url: 'http://x', user: 'u', password: 'p', cluster: cluster ? { name: cluster, replicated: false, nodes: async () => [] } : undefined },
        query: async (statement: string) => {
          sql.push(statement);
          return [{ bytes: '12345' }];
        },
      }) as unknown as StorageClient;
    expect(await measureStoredBytes(client(), 'qryn_a1')).toBe(12345);
    expect(sql[0]).toMatch(/SELECT sum\(bytes_on_disk\) AS bytes FROM system\.parts WHERE database = 'qryn_a1' AND active/);
    await measureStoredBytes(client('logs'), 'qryn_a1');
    expect(sql[1]).toContain("FROM cluster('logs', system, parts) WHERE database = 'qryn_a1' AND active");
  });
});
