import { describe, expect, it } from 'vitest';
import { createReadCache } from '../../server/api/read-cache';
import { DEFAULT_READ_CACHE_MS, parseReadCache } from '../../server/config';
import { startApi } from '../support/api-client';

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

describe('READ_CACHE setting', () => {
  it('reads on, off and a number of milliseconds, and refuses anything else', () => {
    expect(parseReadCache(undefined)).toBe(DEFAULT_READ_CACHE_MS);
    expect(parseReadCache('on')).toBe(DEFAULT_READ_CACHE_MS);
    expect(parseReadCache('off')).toBe(0);
    expect(parseReadCache('OFF')).toBe(0);
    expect(parseReadCache('0')).toBe(0);
    expect(parseReadCache('250')).toBe(250);
    expect(() => parseReadCache('sometimes')).toThrow("READ_CACHE must be on, off or a number of milliseconds (got 'sometimes')");
  });

  // A write that bypasses the API (here straight into the database) is what tells the cache's presence apart.
  async function projectNameAfterBypassingWrite(env: Record<string, string>): Promise<{ before: string; after: string }> {
    const api = await startApi({ kind: 'pglite' }, { env });
    try {
      const token = await api.tokenFor('demo@example.com');
      const first = await api.request('GET', 'projects', { token });
      expect(first.status).toBe(200);
      const project = (first.body as Array<{ id: number; name: string }>)[0];
      await api.db.query('UPDATE projects SET name = $1 WHERE id = $2', ['Renamed Behind The API', project.id]);
      const second = await api.request('GET', 'projects', { token });
      const after = (second.body as Array<{ id: number; name: string }>).find((p) => p.id === project.id)!;
      return { before: project.name, after: after.name };
    } finally {
      await api.close();
    }
  }

  it('READ_CACHE=off: every read goes to the database', async () => {
    expect((await projectNameAfterBypassingWrite({ READ_CACHE: 'off' })).after).toBe('Renamed Behind The API');
  }, 120_000);

  it('READ_CACHE=60000: an identical read within a minute is reused', async () => {
    const { before, after } = await projectNameAfterBypassingWrite({ READ_CACHE: '60000' });
    expect(after).toBe(before);
  }, 120_000);
});
