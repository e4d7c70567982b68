import { describe, expect, it } from 'vitest';
import { createReadCache } from '../../server/api/read-cache';

describe('read cache', () => {
  it('shares one computation among concurrent identical reads and reuses it until a write', async () => {
    const cache = createReadCache({ enabled: true, maxAgeMs: 60_000 });
    let computed = 0;
    const compute = async () => ++computed;
    const [a, b] = await Promise.all([cache.share('k', compute), cache.share('k', compute)]);
    expect([a, b, computed]).toEqual([1, 1, 1]);
    expect(await cache.share('k', compute)).toBe(1);
    cache.noteWrite();
    expect(await cache.share('k', compute)).toBe(2);
  });

  it('never hands a read that started before a write to a request that arrives after it', async () => {
    const cache = createReadCache({ enabled: true, maxAgeMs: 60_000 });
    let release!: (v: string) => void;
    const slow = cache.share('k', () => new Promise<string>((r) => (release = r)));
    cache.noteWrite();
    const after = cache.share('k', async () => 'fresh');
    release('stale');
    expect(await slow).toBe('stale');
    expect(await after).toBe('fresh');
    expect(await cache.share('k', async () => 'other')).toBe('fresh');
  });

  it('expires by age, does not keep failures, and does nothing when disabled', async () => {
    const cache = createReadCache({ enabled: true, maxAgeMs: 0 });
    let n = 0;
    await cache.share('k', async () => ++n);
    await new Promise((r) => setTimeout(r, 5));
    expect(await cache.share('k', async () => ++n)).toBe(2);
    await expect(cache.share('e', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await cache.share('e', async () => 'ok')).toBe('ok');
    const off = createReadCache({ enabled: false });
    let m = 0;
    await Promise.all([off.share('k', async () => ++m), off.share('k', async () => ++m)]);
    expect(m).toBe(2);
  });
});
