import { describe, expect, it } from 'vitest';
import { createWriter } from '../../server/products/qryn/ingest/writer';
import { Batch } from '../../server/products/qryn/ingest/batch';
import type { StorageClient } from '../../server/products/qryn/storage/storage-client';

// A push with new series: time_series and series_labels are sent together (one round trip, not two), the samples
// are queued only once both are stored, and a failed series insert fails the push with nothing of it queued.

function fakeClient(failTable?: string) {
  const calls: { table: string; finish(): void }[] = [];
  const sent: string[] = [];
  const client = {
    endpoint: { url: 'http://storage.invalid', user: 'u', password: 'p' },
    insert: (table: string, _columns: readonly string[], rows: readonly unknown[]) => {
      if (rows.length === 0) return Promise.resolve();
      sent.push(table);
      return new Promise<void>((resolve, reject) =>
        calls.push({ table, finish: () => (table === failTable ? reject(new Error(`${table} refused`)) : resolve()) }),
      );
    },
    insertRowBinary: (table: string) => {
      sent.push(table);
      return Promise.resolve();
    },
  } as unknown as StorageClient;
  return { client, calls, sent };
}

function pushBatch(): Batch {
  const batch = new Batch();
  const fp = batch.addSeries('logs', { job: 'a' });
  batch.addLog(fp, BigInt(Date.now()) * 1_000_000n, 'hello');
  return batch;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the writer with new series', () => {
  it('sends both series inserts before either is answered, and queues the samples after both', async () => {
    const writer = createWriter(() => Date.now());
    const { client, calls, sent } = fakeClient();
    const done = writer.write({ id: 'i', database: 'db', client, fingerprintLimit: 0 }, pushBatch());
    await tick();
    expect(calls.map((c) => c.table)).toEqual(['db.time_series', 'db.series_labels']);
    calls[0].finish();
    await tick();
    expect(sent).not.toContain('db.log_samples');
    calls[1].finish();
    await done;
    expect(sent).toEqual(['db.time_series', 'db.series_labels', 'db.log_samples']);
  });

  it('fails the push when the series insert fails, without queueing its samples or remembering its series', async () => {
    const writer = createWriter(() => Date.now());
    const failing = fakeClient('db.time_series');
    const done = writer.write({ id: 'i', database: 'db', client: failing.client, fingerprintLimit: 0 }, pushBatch());
    await tick();
    for (const call of failing.calls) call.finish();
    await expect(done).rejects.toThrow('db.time_series refused');
    expect(failing.sent).not.toContain('db.log_samples');
    // The series was not remembered as written: the next push sends it again.
    const ok = fakeClient();
    const again = writer.write({ id: 'i', database: 'db', client: ok.client, fingerprintLimit: 0 }, pushBatch());
    await tick();
    for (const call of ok.calls) call.finish();
    await again;
    expect(ok.sent).toEqual(['db.time_series', 'db.series_labels', 'db.log_samples']);
  });
});
