import { describe, expect, it } from 'vitest';
import { cacheUntilRejected } from '../../server/products/cache-until-rejected';

describe('cacheUntilRejected', () => {
  it('shares one load, and loads again after a rejection instead of keeping it', async () => {
    let loads = 0;
    const get = cacheUntilRejected(async () => {
      loads += 1;
      if (loads === 1) throw new Error('database away');
      return { box: loads };
    });
    await expect(get()).rejects.toThrow('database away');
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toEqual({ box: 2 });
    expect(b).toBe(a);
    expect(await get()).toBe(a);
    expect(loads).toBe(2);
  });
});
