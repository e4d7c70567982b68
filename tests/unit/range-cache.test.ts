import { describe, expect, it } from 'vitest';
import { cachedRange, DEFAULT_RESULTS_CACHE, normaliseQuery, ResultsCache, resultsCacheSettings, type RangeCall } from '../../server/products/qryn/query/range-cache';

// The results cache over a stand-in evaluation: a store of points that grows as time goes on (and receives late
// points), evaluated per step as the engines do. What is checked: a refresh equals a fresh evaluation, evaluates only
// the span the cache lacks, never keeps what is newer than the freshness cutoff, keeps nothing with warnings or
// errors or bound to the range's own bounds, and stays within its bounds.

const MIN = 60_000;
const STEP = 30_000;
const T0 = Date.UTC(2026, 10, 20, 0, 0, 0);

/** Points per series: a value per ms time; the answer at t is the last point at or before t within 5 minutes. */
function store() {
  const points = new Map<string, Map<number, number>>();
  const add = (name: string, t: number, v: number) => {
    if (!points.has(name)) points.set(name, new Map());
    points.get(name)!.set(t, v);
  };
  const calls: [number, number][] = [];
  const evaluate = async (startMs: number, endMs: number, extra: Record<string, unknown> = {}) => {
    calls.push([startMs, endMs]);
    const result = [...points.keys()].sort().flatMap((name) => {
      const values: [number, string][] = [];
      for (let t = startMs; t <= endMs; t += STEP) {
        let best: number | undefined;
        for (const [pt] of points.get(name)!) if (pt <= t && pt > t - 5 * MIN && (best === undefined || pt > best)) best = pt;
        if (best !== undefined) values.push([t / 1000, String(points.get(name)!.get(best))]);
      }
      return values.length > 0 ? [{ metric: { name }, values }] : [];
    });
    return { status: 200, body: JSON.stringify({ status: 'success', data: { resultType: 'matrix', result }, ...extra }) };
  };
  return { add, evaluate, calls };
}

const settings = { ...DEFAULT_RESULTS_CACHE, freshnessMs: 10 * MIN, splitMs: 30 * MIN };
const call = (nowMs: number, extra: Partial<RangeCall> = {}): RangeCall => ({
  instance: 'db1', scope: 'promql', query: 'up', startMs: nowMs - 6 * 60 * MIN, endMs: nowMs, stepMs: STEP, nowMs, ...extra,
});

describe('range results cache', () => {
  it('answers a refreshed window as a fresh evaluation does, evaluating only its newest part', async () => {
    const s = store();
    const cache = new ResultsCache(settings);
    let now = T0 + 7 * 60 * MIN;
    for (let t = T0; t <= now; t += 15_000) {
      s.add('a', t + 1, t % 1000);
      if (t % (2 * 3_600_000) < 3_600_000) s.add('b', t + 2, 1);
    }
    const first = await cachedRange(cache, call(now), (a, b) => s.evaluate(a, b));
    expect(first).toEqual(await s.evaluate(now - 6 * 60 * MIN, now));
    expect(cache.size).toBeGreaterThan(8);
    for (let refresh = 0; refresh < 8; refresh++) {
      // New points up to the new now, and a late one inside the freshness window.
      for (let t = now + 15_000; t <= now + STEP; t += 15_000) s.add('a', t + 1, t % 1000);
      s.add('c', now - 3 * MIN, 42);
      now += STEP;
      s.calls.length = 0;
      const answer = await cachedRange(cache, call(now), (a, b) => s.evaluate(a, b));
      const [[from, to]] = s.calls;
      expect(s.calls).toHaveLength(1);
      expect(to).toBe(now);
      // Only the newest part: at most the freshness window plus one interval.
      expect(now - from).toBeLessThanOrEqual(settings.freshnessMs + settings.splitMs);
      expect(answer).toEqual(await s.evaluate(now - 6 * 60 * MIN, now));
    }
  });

  it('never keeps intervals newer than the freshness cutoff, so late points show', async () => {
    const s = store();
    const cache = new ResultsCache(settings);
    const now = T0 + 6 * 60 * MIN;
    for (let t = T0; t <= now; t += 15_000) s.add('a', t, 1);
    await cachedRange(cache, call(now), (a, b) => s.evaluate(a, b));
    // A point arrives 9 minutes late: the next answer must show it.
    s.add('late', now - 9 * MIN, 7);
    const answer = await cachedRange(cache, call(now + STEP), (a, b) => s.evaluate(a, b));
    expect(answer).toEqual(await s.evaluate(now + STEP - 6 * 60 * MIN, now + STEP));
    expect(answer.body).toContain('"late"');
  });

  it('keeps nothing of answers with warnings or errors, nor of queries bound to the range (@ start(), @ end())', async () => {
    const s = store();
    const now = T0 + 6 * 60 * MIN;
    for (let t = T0; t <= now; t += 15_000) s.add('a', t, 1);
    const cache = new ResultsCache(settings);
    await cachedRange(cache, call(now), (a, b) => s.evaluate(a, b, { warnings: ['partial'] }));
    expect(cache.size).toBe(0);
    const error = { status: 422, body: JSON.stringify({ status: 'error', errorType: 'execution', error: 'x' }) };
    expect(await cachedRange(cache, call(now), async () => error)).toBe(error);
    expect(cache.size).toBe(0);
    for (const query of ['rate(up[5m] @ start())', 'up @ end ( )']) {
      s.calls.length = 0;
      await cachedRange(cache, call(now, { query }), (a, b) => s.evaluate(a, b));
      await cachedRange(cache, call(now + STEP, { query }), (a, b) => s.evaluate(a, b));
      expect(s.calls).toEqual([[now - 6 * 60 * MIN, now], [now + STEP - 6 * 60 * MIN, now + STEP]]);
    }
    expect(cache.size).toBe(0);
    // Kept parts and a refresh that answers with a warning: the whole range is evaluated again, as is.
    await cachedRange(cache, call(now), (a, b) => s.evaluate(a, b));
    s.calls.length = 0;
    const warned = await cachedRange(cache, call(now + STEP), (a, b) => s.evaluate(a, b, { warnings: ['partial'] }));
    expect(s.calls.at(-1)).toEqual([now + STEP - 6 * 60 * MIN, now + STEP]);
    expect(warned).toEqual(await s.evaluate(now + STEP - 6 * 60 * MIN, now + STEP, { warnings: ['partial'] }));
  });

  it('uses a kept part only where it covers the times asked for (a window moved back, a longer past window)', async () => {
    const s = store();
    const now = T0 + 12 * 60 * MIN;
    for (let t = T0; t <= now; t += 15_000) s.add('a', t, t % 7);
    const cache = new ResultsCache(settings);
    const past = (startMs: number, endMs: number) => ({ ...call(now), startMs, endMs });
    const windows: [number, number][] = [
      [T0 + 60 * MIN + 10 * STEP, T0 + 3 * 60 * MIN + 9 * STEP],
      [T0 + 60 * MIN + 4 * STEP, T0 + 3 * 60 * MIN + 3 * STEP],
      [T0 + 60 * MIN + 4 * STEP, T0 + 4 * 60 * MIN + 15 * STEP],
    ];
    for (const [a, b] of windows) {
      expect(await cachedRange(cache, past(a, b), (x, y) => s.evaluate(x, y))).toEqual(await s.evaluate(a, b));
    }
  });

  it('keys on the instance, the scope, the step and the normalised query', async () => {
    const s = store();
    const now = T0 + 6 * 60 * MIN;
    for (let t = T0; t <= now; t += 15_000) s.add('a', t, 1);
    const cache = new ResultsCache(settings);
    await cachedRange(cache, call(now, { query: 'sum( up  )' }), (a, b) => s.evaluate(a, b));
    const kept = cache.size;
    await cachedRange(cache, call(now, { query: 'sum(\tup\n)' }), (a, b) => s.evaluate(a, b));
    expect(cache.size).toBe(kept);
    await cachedRange(cache, call(now, { query: 'sum(up)' }), (a, b) => s.evaluate(a, b));
    await cachedRange(cache, call(now, { query: 'sum( up  )', instance: 'db2' }), (a, b) => s.evaluate(a, b));
    await cachedRange(cache, call(now, { query: 'sum( up  )', scope: 'logql' }), (a, b) => s.evaluate(a, b));
    expect(cache.size).toBe(4 * kept);
    expect(normaliseQuery(' sum(  {a="x  y"}\n| json ) ')).toBe('sum( {a="x  y"} | json )');
  });

  it('stays within its bound overall and per instance, dropping the least recently used', async () => {
    const s = store();
    const now = T0 + 6 * 60 * MIN;
    for (let t = T0; t <= now; t += 15_000) s.add('a', t, t);
    const cache = new ResultsCache({ ...settings, maxBytes: 60_000, instanceMaxBytes: 25_000 });
    for (let i = 0; i < 30; i++) {
      await cachedRange(cache, call(now, { instance: `db${i % 4}`, query: `q${i}` }), (a, b) => s.evaluate(a, b));
      expect(cache.bytes).toBeLessThanOrEqual(60_000);
      for (let k = 0; k < 4; k++) expect(cache.instanceBytes(`db${k}`)).toBeLessThanOrEqual(25_000);
    }
    expect(cache.bytes).toBeGreaterThan(30_000);
    // The newest query's parts are kept; the oldest's were dropped.
    s.calls.length = 0;
    await cachedRange(cache, call(now, { instance: 'db1', query: 'q29' }), (a, b) => s.evaluate(a, b));
    expect(s.calls[0][0]).toBeGreaterThan(now - 6 * 60 * MIN);
    s.calls.length = 0;
    await cachedRange(cache, call(now, { instance: 'db0', query: 'q0' }), (a, b) => s.evaluate(a, b));
    expect(s.calls[0][0]).toBe(now - 6 * 60 * MIN);
  });

  it("reports the work counts of a joined answer as the fresh evaluation's plus the kept parts' shares", async () => {
    const s = store();
    let now = T0 + 6 * 60 * MIN;
    for (let t = T0; t <= now; t += 15_000) s.add('a', t, 1);
    // A stand-in for Loki's stats: one line processed per step evaluated.
    const work = {
      read: (data: Record<string, unknown>) => ({ lines: (data.stats as { lines: number }).lines }),
      write: (data: Record<string, unknown>, counts: Record<string, number>) => void (data.stats = { lines: Math.round(counts.lines) }),
    };
    const withStats = async (a: number, b: number) => {
      const answer = await s.evaluate(a, b);
      const body = JSON.parse(answer.body);
      body.data.stats = { lines: Math.floor((b - a) / STEP) + 1 };
      return { ...answer, body: JSON.stringify(body) };
    };
    const cache = new ResultsCache(settings);
    for (let refresh = 0; refresh < 4; refresh++, now += STEP) {
      s.calls.length = 0;
      const answer = await cachedRange(cache, call(now, { work }), withStats);
      expect(JSON.parse(answer.body!).data.stats).toEqual({ lines: 6 * 60 * 2 + 1 });
      if (refresh > 0) expect(s.calls[0][0]).toBeGreaterThan(now - 60 * MIN);
    }
  });

  it('off, or a step of a fraction of a millisecond: evaluates every range whole', async () => {
    const s = store();
    const cache = new ResultsCache({ ...settings, enabled: false });
    await cachedRange(cache, call(T0), (a, b) => s.evaluate(a, b));
    expect(cache.size).toBe(0);
    const on = new ResultsCache(settings);
    await cachedRange(on, call(T0, { startMs: T0 - MIN, stepMs: 0.5 }), async () => ({ status: 200, body: '{}' }));
    expect(on.size).toBe(0);
  });

  it('reads its settings from the environment, naming the setting it refuses', () => {
    expect(resultsCacheSettings({})).toEqual(DEFAULT_RESULTS_CACHE);
    expect(resultsCacheSettings({ QRYN_RESULTS_CACHE: 'off', QRYN_RESULTS_CACHE_FRESHNESS: '2m', QRYN_RESULTS_CACHE_MAX_BYTES: '1000' })).toMatchObject({ enabled: false, freshnessMs: 2 * MIN, maxBytes: 1000 });
    expect(() => resultsCacheSettings({ QRYN_RESULTS_CACHE_FRESHNESS: 'soon' })).toThrow(/QRYN_RESULTS_CACHE_FRESHNESS/);
    expect(() => resultsCacheSettings({ QRYN_RESULTS_CACHE_INSTANCE_MAX_BYTES: '1e6' })).toThrow(/QRYN_RESULTS_CACHE_INSTANCE_MAX_BYTES/);
    expect(() => resultsCacheSettings({ QRYN_RESULTS_CACHE: 'maybe' })).toThrow(/QRYN_RESULTS_CACHE must be on or off/);
  });
});
