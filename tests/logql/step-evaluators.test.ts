import { describe, expect, it } from 'vitest';
import { runQuery, type QueryRequest } from '../../packages/logql/engine/evaluate';
import type { LogQuerier, LogStreamParams, StoredLine, StreamBuckets } from '../../packages/logql/storage/querier';

// The metric engine's step evaluators: the operators pull their inputs one step at a time, so both sides of a binary
// operation read their lines in step with each other (what the engine holds is one step's vectors, the range windows
// and the store's batch, counted here in lines), and an abort between steps stops the evaluation and closes the
// store's reads.

const S = 1_000_000_000n;
const T0 = 1_700_000_000n * S;
const SECONDS = 2_000;
const BATCH = 50;

/** Two streams with a line a second, read in batches of BATCH; counts what each stream handed out and when. */
function streamingStore(onBatch: (app: string, lastNs: bigint) => void = () => undefined) {
  const handed: Record<string, number> = { a: 0, b: 0 };
  const closed: Record<string, boolean> = { a: false, b: false };
  let lead = 0;
  const querier: LogQuerier = {
    async selectLogs() {
      throw new Error('the engine reads this store as a stream');
    },
    async *streamLogs(p: LogStreamParams): AsyncGenerator<StoredLine[]> {
      const app = p.matchers.find((m) => m.name === 'app')!.value;
      const labels = { app };
      try {
        let batch: StoredLine[] = [];
        for (let k = 0; k < SECONDS; k++) {
          const tsNs = T0 + BigInt(k) * S;
          if (tsNs < p.startNs || tsNs >= p.endNs) continue;
          batch.push({ labels, tsNs, line: `line ${k}` });
          if (batch.length === BATCH) {
            handed[app] += batch.length;
            lead = Math.max(lead, Math.abs(handed.a - handed.b));
            onBatch(app, tsNs);
            yield batch;
            batch = [];
          }
        }
        handed[app] += batch.length;
        if (batch.length > 0) yield batch;
      } finally {
        closed[app] = true;
      }
    },
  };
  return { querier, handed, closed, maxLead: () => lead };
}

const range = (query: string): QueryRequest => ({ query, startNs: T0 + 60n * S, endNs: T0 + BigInt(SECONDS) * S, stepNs: 10n * S, instant: false, limit: 100, direction: 'backward' });
const QUERY = 'sum(count_over_time({app="a"}[1m])) + on() sum(count_over_time({app="b"}[1m]))';

describe('step evaluators', () => {
  it('advance both sides of a binary operation step by step: neither side reads more than a batch and a window ahead', async () => {
    const store = streamingStore();
    const { data } = await runQuery(store.querier, range(QUERY));
    if (data.resultType !== 'matrix') throw new Error(data.resultType);
    // A step's window (t − 60 s, t] holds the lines of both streams at whole seconds in it (the last line is at 1,999 s).
    const expected: [number, string][] = [];
    for (let t = 60; t <= SECONDS; t += 10) expected.push([1_700_000_000 + t, String(2 * (Math.min(t, SECONDS - 1) - (t - 60)))]);
    expect(data.result).toEqual([{ metric: {}, values: expected }]);
    // The read starts after the first window's start: the line at 0 s is in no window.
    expect(store.handed).toEqual({ a: SECONDS - 1, b: SECONDS - 1 });
    // Read all of one side before the other, the lead would be the whole range (2,000 lines).
    expect(store.maxLead()).toBeLessThanOrEqual(2 * BATCH + 60);
  });

  it('stops at the next step when the query is aborted, and closes the reads of both sides', async () => {
    const controller = new AbortController();
    const stopAt = T0 + 1_000n * S;
    const store = streamingStore((app, lastNs) => {
      if (app === 'b' && lastNs >= stopAt) controller.abort();
    });
    await expect(runQuery(store.querier, range(QUERY), undefined, controller.signal)).rejects.toMatchObject({ status: 499, message: 'context canceled' });
    expect(store.closed).toEqual({ a: true, b: true });
    // Both sides stopped near the step the abort came at, not at the end of the range.
    expect(store.handed.a).toBeLessThanOrEqual(1_000 + 2 * BATCH + 60);
    expect(store.handed.b).toBeLessThanOrEqual(1_000 + 2 * BATCH);
  });

  it('adds the lines a count answered by the store read to the post-filter lines of the other side', async () => {
    const querier: LogQuerier = {
      async selectLogs(p) {
        expect(p.matchers.map((m) => m.value)).toEqual(['a']);
        const times = Array.from({ length: 60 }, (_, i) => T0 + BigInt(i + 1) * S);
        return [{ labels: { app: 'a' }, timestamps: times, lines: times.map((_, i) => `k=${i % 2 ? 'drop' : 'keep'}`) }];
      },
      async countBuckets(p) {
        expect(p.matchers.map((m) => m.value)).toEqual(['b']);
        return { buckets: [{ labels: { app: 'b' }, lines: new Float64Array(p.count).fill(5), bytes: new Float64Array(p.count).fill(50) }] };
      },
    };
    const at = T0 + 60n * S;
    const { data, stats } = await runQuery(querier, { ...range('count_over_time({app="a"} | logfmt | k="keep" [1m]) + on() count_over_time({app="b"}[1m])'), startNs: at, endNs: at, stepNs: 0n, instant: true });
    expect(data).toEqual({ resultType: 'vector', result: [{ metric: {}, value: [1_700_000_060, '35'] }] });
    // 60 lines of a read, 30 kept by its stages; 5 lines of b counted by the store, all of them past its stages.
    expect(stats).toEqual({ linesRead: 65, bytesRead: stats.bytesRead, postFilterLines: 35 });
  });

  it('checks the abort between steps also when no line is read (counts answered by the store)', async () => {
    const controller = new AbortController();
    let buckets = 0;
    const querier: LogQuerier = {
      async selectLogs() {
        throw new Error('counted by the store');
      },
      async countBuckets(p) {
        const one = (app: string): StreamBuckets => ({ labels: { app }, lines: new Float64Array(p.count).fill(1), bytes: new Float64Array(p.count).fill(10) });
        buckets = p.count;
        // The store answers, then the client goes away before the steps are evaluated.
        controller.abort();
        return { buckets: [one('a'), one('b')] };
      },
    };
    await expect(runQuery(querier, range('sum by (app) (count_over_time({app=~"a|b"}[1m]))'), undefined, controller.signal)).rejects.toMatchObject({ status: 499 });
    expect(buckets).toBe(200);
  });
});
