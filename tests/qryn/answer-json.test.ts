import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runQuery, type QueryData, type QueryRequest } from '../../packages/logql/engine/evaluate';
import type { LogQuerier, LogSelectParams, StoredStream } from '../../packages/logql/storage/querier';
import type { Value } from '../../packages/promql/engine/value';
import { formatResult } from '../../packages/promql/engine/format';
import { bodyBytes, bodyText, writeBody } from '../../server/products/qryn/http/answer-json';
import { lokiAnswerBody } from '../../server/products/qryn/query/logql-evaluate';
import { promqlAnswerBody } from '../../server/products/qryn/query/promql-evaluate';

// Answers written in pieces (head, each series or stream, tail): the pieces joined are, byte for byte, the
// JSON.stringify of the whole answer the APIs wrote before, and they are written to the client no faster than it
// takes them.

const S = 1_000_000_000n;
const T0 = 1_700_000_000n * S;

/** Streams with labels that need escaping, a line a second for ten minutes. */
function memoryQuerier(): LogQuerier {
  const streams = Array.from({ length: 40 }, (_, k) => ({
    labels: { app: `app-${k % 7}`, path: `/items/${k}?q="x"\u00e9\n`, level: ['info', 'warn', 'error'][k % 3] },
    lines: Array.from({ length: 600 }, (_, i): [bigint, string] => [T0 + BigInt(i) * S + BigInt(k), `{"ms":${(i * 7 + k) % 113},"msg":"r\\u00e9q \\"${i}\\""}`]),
  }));
  return {
    async selectLogs(p: LogSelectParams): Promise<StoredStream[]> {
      return streams.map((s) => {
        const kept = s.lines.filter(([t]) => t >= p.startNs && t < p.endNs);
        return { labels: s.labels, timestamps: kept.map(([t]) => t), lines: kept.map(([, l]) => l) };
      });
    },
  };
}

const request = (query: string, instant = false): QueryRequest => ({ query, startNs: T0 + 60n * S, endNs: T0 + 600n * S, stepNs: instant ? 0n : 2n * S, instant, limit: 1000, direction: 'backward' });
const STATS = { summary: { execTime: 0.25, totalLinesProcessed: 24_000 }, ingester: { totalReached: 0 } };

describe('answers in pieces', () => {
  it.each([
    ['a matrix of many series', 'sum by (path) (rate({app=~"app-.*"} | json | unwrap ms [1m]))', false],
    ['a vector', 'topk(5, sum by (path, level) (count_over_time({app=~"app-.*"}[1m])))', true],
    ['streams', '{app="app-3"} | json', false],
    ['a scalar', '1 + 2', true],
  ])('LogQL: %s is byte for byte the whole answer', async (_name, query, instant) => {
    const { data } = await runQuery(memoryQuerier(), request(query, instant));
    const whole = JSON.stringify({ status: 'success', data: { ...data, stats: STATS } });
    const body = lokiAnswerBody(structuredClone(data) as QueryData, STATS);
    if (data.resultType === 'matrix') {
      expect(data.result.length).toBeGreaterThan(30);
      expect(Array.isArray(body) && body.length).toBeGreaterThan(2);
    }
    expect(bodyText(body)).toBe(whole);
    expect(bodyBytes(body)).toBe(Buffer.byteLength(whole));
    expect(JSON.parse(bodyText(body))).toEqual(JSON.parse(whole));
  });

  const matrix: Value = {
    type: 'matrix',
    series: Array.from({ length: 300 }, (_, k) => ({
      labels: { __name__: 'req_total', job: `j"${k}"`, le: k % 2 ? '+Inf' : '0.5' },
      timestampsMs: Float64Array.from({ length: 120 }, (_, i) => 1_700_000_000_000 + i * 15_000 + (k % 3)),
      values: Float64Array.from({ length: 120 }, (_, i) => (i === 7 ? NaN : i === 9 ? Infinity : (i * k) / 3 + 1e-9 * k)),
    })),
  };
  const vector: Value = { type: 'vector', samples: Array.from({ length: 50 }, (_, k) => ({ labels: { pod: `p${k}` }, t: 1_700_000_000_123, v: k * 1e22 })) };
  it.each([
    ['a matrix', matrix, []],
    ['a matrix with warnings', matrix, ['PromQL info: metric might not be a counter']],
    ['a vector', vector, []],
    ['a scalar', { type: 'scalar', t: 1_700_000_000_000, v: 0.1 } as Value, []],
  ])('PromQL: %s is byte for byte the whole answer', (_name, value, warnings) => {
    const whole: Record<string, unknown> = { status: 'success', data: formatResult(value) };
    if (warnings.length > 0) whole.warnings = warnings;
    const body = promqlAnswerBody(value, warnings);
    expect(bodyText(body)).toBe(JSON.stringify(whole));
    expect(JSON.parse(bodyText(body))).toEqual(JSON.parse(JSON.stringify(whole)));
  });

  it('writes a piece only once the client took the one before, and stops when the client is gone', async () => {
    const pieces = Array.from({ length: 40 }, (_, i) => `${i}:${'x'.repeat(10_000)}`);
    const expected = pieces.join('');
    let writesWhileFull = 0;
    let received = '';
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        received += chunk.toString();
        setImmediate(callback);
      },
    });
    const write = slow.write.bind(slow);
    slow.write = ((chunk: string) => {
      if (slow.writableNeedDrain) writesWhileFull++;
      return write(chunk);
    }) as typeof slow.write;
    await writeBody(slow, [...pieces]);
    await new Promise((resolve) => slow.on('finish', resolve));
    expect(received).toBe(expected);
    expect(writesWhileFull).toBe(0);

    // A client that goes away after three pieces: the rest is not written.
    const gone = new PassThrough({ highWaterMark: 1 });
    let taken = 0;
    gone.on('data', () => {
      if (++taken === 3) gone.destroy();
    });
    const left = [...pieces];
    await writeBody(gone, left);
    expect(left.filter((p) => p !== '').length).toBeGreaterThan(30);
  });
});
