import { describe, expect, it } from 'vitest';
import { Batch } from '../../server/products/qryn/ingest/batch';
import { createFailedPushes, DEFAULT_PUSH_RETRY_WINDOW_S, pushIdentity, pushRetryWindowMs } from '../../server/products/qryn/ingest/push-retries';
import { withoutStored } from '../../server/products/qryn/ingest/stored-rows';
import { createHash } from 'node:crypto';
import { createWriter, logSamplesRowBinary, metricSamplesRowBinary } from '../../server/products/qryn/ingest/writer';
import { StorageError, type StorageClient } from '../../server/products/qryn/storage/storage-client';

// The memory of failed pushes: an identity per instance and decoded rows, kept for the window after the last failed
// attempt, forgotten once stored, bounded in number; and what a retry writes of a push that is partly stored.

const T0 = 1_780_000_000_000;
const NS = BigInt(T0) * 1_000_000n;

function logs(lines: string[], labels: Record<string, string> = { job: 'a' }): Batch {
  const batch = new Batch();
  const fp = batch.addSeries('logs', labels);
  lines.forEach((line, i) => batch.addLog(fp, NS + BigInt(i), line));
  return batch;
}
const identityOf = (instance: string, batch: Batch) => pushIdentity(instance, logSamplesRowBinary(batch.logs), metricSamplesRowBinary(batch.metrics), batch);

describe('the retry window setting', () => {
  it('defaults to ten minutes, takes whole seconds, 0 turns it off, and names itself when malformed', () => {
    expect(pushRetryWindowMs({})).toBe(DEFAULT_PUSH_RETRY_WINDOW_S * 1000);
    expect(DEFAULT_PUSH_RETRY_WINDOW_S).toBe(600);
    expect(pushRetryWindowMs({ QRYN_PUSH_RETRY_WINDOW_S: '30' })).toBe(30_000);
    expect(pushRetryWindowMs({ QRYN_PUSH_RETRY_WINDOW_S: '0' })).toBe(0);
    for (const bad of ['-1', '1.5', 'ten']) expect(() => pushRetryWindowMs({ QRYN_PUSH_RETRY_WINDOW_S: bad })).toThrow(/QRYN_PUSH_RETRY_WINDOW_S/);
  });
});

describe('the identity of a push', () => {
  it('is the same for the same rows of the same instance, and differs by instance, line, timestamp and span', () => {
    expect(identityOf('i1', logs(['a', 'b']))).toBe(identityOf('i1', logs(['a', 'b'])));
    expect(identityOf('i1', logs(['a', 'b']))).not.toBe(identityOf('i2', logs(['a', 'b'])));
    expect(identityOf('i1', logs(['a', 'b']))).not.toBe(identityOf('i1', logs(['a', 'c'])));
    expect(identityOf('i1', logs(['a', 'b']))).not.toBe(identityOf('i1', logs(['b', 'a'])));
    const span = (payload: string) => {
      const batch = new Batch();
      batch.addSpan({ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), parentId: '', name: 'n', serviceName: 's', kind: 'server', timestampNs: NS, durationNs: 1n, statusCode: 0, attributes: [], source: 'otlp', payload });
      return batch;
    };
    expect(identityOf('i1', span('{"a":1}'))).toBe(identityOf('i1', span('{"a":1}')));
    expect(identityOf('i1', span('{"a":1}'))).not.toBe(identityOf('i1', span('{"a":2}')));
  });
});

describe('the failed pushes', () => {
  it('keeps a failure for the window after its last failed attempt, with the query ids of every attempt', () => {
    let now = T0;
    const failed = createFailedPushes(60_000, () => now);
    expect(failed.any('i1')).toBe(false);
    failed.failed('p', 'i1', ['q1']);
    expect(failed.any('i1')).toBe(true);
    expect(failed.any('i2')).toBe(false);
    now += 50_000;
    failed.failed('p', 'i1', ['q2', 'q3']);
    expect(failed.get('p')).toEqual({ instanceId: 'i1', atMs: now, queryIds: ['q1', 'q2', 'q3'] });
    now += 59_999;
    expect(failed.get('p')?.queryIds).toEqual(['q1', 'q2', 'q3']);
    now += 1;
    expect(failed.get('p')).toBeUndefined();
    expect(failed.any('i1')).toBe(false);
    expect(failed.size).toBe(0);
  });

  it('forgets a push once it is stored, so that sending it again is a new push', () => {
    const failed = createFailedPushes(60_000, () => T0);
    failed.failed('p', 'i1', []);
    failed.failed('o', 'i1', []);
    failed.stored('p');
    expect(failed.get('p')).toBeUndefined();
    expect(failed.any('i1')).toBe(true);
    failed.stored('o');
    expect(failed.any('i1')).toBe(false);
  });

  it('holds at most its bound, forgetting the oldest failure first, and at most 32 query ids per push', () => {
    let now = T0;
    const failed = createFailedPushes(60_000, () => now, 3);
    for (const id of ['a', 'b', 'c']) {
      failed.failed(id, 'i1', []);
      now++;
    }
    failed.failed('a', 'i1', []); // failed again: now the newest
    failed.failed('d', 'i2', []);
    expect(failed.size).toBe(3);
    expect(failed.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((id) => failed.get(id) !== undefined)).toEqual([true, true, true]);
    for (let i = 0; i < 40; i++) failed.failed('a', 'i1', [`q${i}`]);
    expect(failed.get('a')?.queryIds).toHaveLength(32);
    expect(failed.get('a')?.queryIds.at(-1)).toBe('q39');
  });

  it("holds at most its share per instance, so one instance failing many pushes keeps another's failures", () => {
    let now = T0;
    const failed = createFailedPushes(60_000, () => now, 10, 3);
    failed.failed('b1', 'i2', ['qb']);
    // More than the whole bound: without a share per instance, i2's failure (the oldest) would be forgotten.
    for (let i = 0; i < 12; i++) {
      now++;
      failed.failed(`a${i}`, 'i1', []);
    }
    // i1 keeps its 3 newest; i2's older failure is still known, so its retry is recognised.
    expect(['a9', 'a10', 'a11'].map((id) => failed.get(id) !== undefined)).toEqual([true, true, true]);
    expect(failed.get('a8')).toBeUndefined();
    expect(failed.get('b1')?.queryIds).toEqual(['qb']);
    expect(failed.size).toBe(4);
  });

  it('remembers nothing with a window of 0', () => {
    const failed = createFailedPushes(0, () => T0);
    failed.failed('p', 'i1', ['q']);
    expect(failed.any('i1')).toBe(false);
    expect(failed.size).toBe(0);
  });
});

const md5 = (line: string) => createHash('md5').update(line).digest('hex').toUpperCase();

describe('a retry of a partly stored push', () => {
  it('keeps only the rows not found stored, counting repeated rows one by one', () => {
    const batch = logs(['x', 'x', 'y', 'z']);
    const fp = [...batch.series.keys()][0];
    // One 'x' at NS stored, the second 'x' (NS+1) not; 'y' stored; 'z' not.
    const stored = new Map([
      [`logs|${fp}|${NS}|${md5('x')}`, 1],
      [`logs|${fp}|${NS + 2n}|${md5('y')}`, 1],
    ]);
    const rest = withoutStored(batch, stored);
    expect(rest.logs.map((l) => [l.line, l.timestampNs - NS])).toEqual([
      ['x', 1n],
      ['z', 3n],
    ]);
    expect([...rest.series.keys()]).toEqual([fp]);
  });

  it('drops a sample or a span found stored', () => {
    const batch = new Batch();
    const fp = batch.addSeries('metrics', { __name__: 'up' });
    batch.addMetric(fp, NS, 1);
    batch.addMetric(fp, NS + 1n, 1);
    const span = { traceId: 'ab'.repeat(16), parentId: '', name: 'n', serviceName: 's', kind: 'server', timestampNs: NS, durationNs: 1n, statusCode: 0, attributes: [], source: 'otlp' as const, payload: '{}' };
    batch.addSpan({ ...span, spanId: '01'.repeat(8) });
    batch.addSpan({ ...span, spanId: '02'.repeat(8) });
    const rest = withoutStored(batch, new Map([[`metrics|${fp}|${NS + 1n}`, 1], [`spans|${span.traceId}|${'01'.repeat(8)}|${NS}`, 1]]));
    expect(rest.metrics.map((m) => m.timestampNs - NS)).toEqual([0n]);
    expect(rest.spans.map((s) => s.spanId)).toEqual(['02'.repeat(8)]);
  });
});

/** A storage that refuses sample inserts while `down` (the series were stored) and answers the queries a retry makes (stored rows from `stored`). */
function fakeStorage() {
  const state = { down: false, inserted: [] as string[], queries: [] as string[], running: 0, stored: [] as Record<string, string>[] };
  const client = {
    endpoint: { url: 'http://storage.invalid', user: 'u', password: 'p' },
    insert: async (table: string, _c: unknown, rows: unknown[]) => {
      if (rows.length > 0) state.inserted.push(table);
    },
    insertRowBinary: async (table: string) => {
      if (state.down) throw new StorageError('did not answer', 503, undefined);
      state.inserted.push(table);
    },
    query: async (sql: string) => {
      state.queries.push(sql);
      if (sql.includes('system.processes')) return [{ running: String(state.running) }];
      return sql.includes('log_samples') ? state.stored : [];
    },
  } as unknown as StorageClient;
  return { client, state };
}

describe('the writer with a failed push', () => {
  const target = (client: StorageClient) => ({ id: 'i1', database: 'qryn_i1', client, fingerprintLimit: 0 });

  it('writes a retry only after the earlier attempt ended, and only what it did not store', async () => {
    const { client, state } = fakeStorage();
    const writer = createWriter(() => T0, { retryWindowMs: 60_000 });
    state.down = true;
    await expect(writer.write(target(client), logs(['a', 'b']))).rejects.toThrow('did not answer');
    state.down = false;
    // An insert of the failed attempt still runs: the retry is refused, nothing written.
    state.running = 1;
    state.inserted = [];
    await expect(writer.write(target(client), logs(['a', 'b']))).rejects.toMatchObject({ status: 503 });
    expect(state.inserted).toEqual([]);
    // It ended, having stored 'a': the retry writes 'b' only.
    state.running = 0;
    const fp = [...logs(['a']).series.keys()][0];
    state.stored = [{ f: fp, t: String(NS), h: md5('a'), c: '1' }];
    const written: string[] = [];
    const original = client.insertRowBinary.bind(client);
    client.insertRowBinary = async (table, columns, body, options) => {
      written.push(Buffer.from(body).toString('latin1'));
      return original(table, columns, body, options);
    };
    await writer.write(target(client), logs(['a', 'b']));
    expect(written).toHaveLength(1);
    expect(written[0].endsWith('\u0001b')).toBe(true);
    expect(written[0]).not.toContain('\u0001a');
    // Stored: the same push sent again is a new push, written whole without looking at the storage.
    state.queries = [];
    written.length = 0;
    await writer.write(target(client), logs(['a', 'b']));
    expect(state.queries).toEqual([]);
    expect(written).toHaveLength(1);
    expect(written[0]).toContain('\u0001a');
  });

  it('refuses a second retry of a push while the first is being written', async () => {
    const { client, state } = fakeStorage();
    const writer = createWriter(() => T0, { retryWindowMs: 60_000 });
    state.down = true;
    await expect(writer.write(target(client), logs(['a']))).rejects.toThrow('did not answer');
    state.down = false;
    const held: (() => void)[] = [];
    const release = () => held.forEach((resolve) => resolve());
    const query = client.query.bind(client);
    client.query = (async (sql: string) => {
      if (sql.includes('system.processes')) await new Promise<void>((resolve) => held.push(resolve));
      return query(sql);
    }) as StorageClient['query'];
    state.inserted = [];
    const first = writer.write(target(client), logs(['a']));
    const second = writer.write(target(client), logs(['a']));
    release();
    await expect(second).rejects.toThrow('being retried already');
    await first;
    expect(state.inserted.filter((t) => t.endsWith('log_samples'))).toHaveLength(1);
  });

  it('writes a push that succeeded again when it is sent again, without asking the storage', async () => {
    const { client, state } = fakeStorage();
    const writer = createWriter(() => T0, { retryWindowMs: 60_000 });
    await writer.write(target(client), logs(['a']));
    await writer.write(target(client), logs(['a']));
    expect(state.inserted.filter((t) => t.endsWith('log_samples'))).toHaveLength(2);
    expect(state.queries).toEqual([]);
  });
});
