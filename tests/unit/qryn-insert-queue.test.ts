import { describe, expect, it } from 'vitest';
import { createInsertQueue, MAX_GROUP_BYTES } from '../../server/products/qryn/ingest/insert-queue';
import type { StorageClient } from '../../server/products/qryn/storage/storage-client';

// The group commit of sample rows: pushes queued while an insert is on its way go together into the next one, and
// each push settles only with the insert that carried its rows (acknowledged means stored).

function fakeClient() {
  const inserts: { table: string; body: Buffer; finish(error?: Error): void }[] = [];
  const client = {
    endpoint: { url: 'http://storage.invalid', user: 'u', password: 'p' },
    insertRowBinary: (table: string, _columns: readonly string[], body: Uint8Array) =>
      new Promise<void>((resolve, reject) => inserts.push({ table, body: Buffer.from(body), finish: (error) => (error ? reject(error) : resolve()) })),
  } as unknown as StorageClient;
  return { client, inserts };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the insert queue', () => {
  it('sends the first push at once and combines the pushes that arrive meanwhile into one insert', async () => {
    const queue = createInsertQueue();
    const { client, inserts } = fakeClient();
    const settled: string[] = [];
    const first = queue.insertRowBinary(client, 'db.log_samples', ['a'], Buffer.from('A')).then(() => settled.push('A'));
    expect(inserts).toHaveLength(1);
    const later = ['B', 'C', 'D'].map((x) => queue.insertRowBinary(client, 'db.log_samples', ['a'], Buffer.from(x)).then(() => settled.push(x)));
    await tick();
    expect(inserts).toHaveLength(1);
    expect(settled).toEqual([]);
    inserts[0].finish();
    await first;
    await tick();
    expect(settled).toEqual(['A']);
    // B, C and D went together, and none of them is answered before that insert is.
    expect(inserts).toHaveLength(2);
    expect(inserts[1].body.toString()).toBe('BCD');
    expect(settled).toEqual(['A']);
    inserts[1].finish();
    await Promise.all(later);
    expect(settled).toEqual(['A', 'B', 'C', 'D']);
    expect(queue.stats).toEqual({ queued: 4, inserts: 2 });
  });

  it('fails exactly the pushes whose insert failed, and goes on with the next ones', async () => {
    const queue = createInsertQueue();
    const { client, inserts } = fakeClient();
    const first = queue.insertRowBinary(client, 't', ['a'], Buffer.from('A'));
    const second = queue.insertRowBinary(client, 't', ['a'], Buffer.from('B'));
    inserts[0].finish(new Error('storage down'));
    await expect(first).rejects.toThrow('storage down');
    await tick();
    const third = queue.insertRowBinary(client, 't', ['a'], Buffer.from('C'));
    inserts[1].finish();
    await expect(second).resolves.toBeUndefined();
    await tick();
    expect(inserts[2].body.toString()).toBe('C');
    inserts[2].finish();
    await expect(third).resolves.toBeUndefined();
  });

  it('keeps tables apart and closes a combined insert at its size bound', async () => {
    const queue = createInsertQueue();
    const { client, inserts } = fakeClient();
    void queue.insertRowBinary(client, 'one', ['a'], Buffer.from('x'));
    void queue.insertRowBinary(client, 'two', ['a'], Buffer.from('y'));
    expect(inserts.map((i) => i.table)).toEqual(['one', 'two']);
    const big = Buffer.alloc(MAX_GROUP_BYTES / 2 - 1);
    const waits = [big, big, big].map((b) => queue.insertRowBinary(client, 'one', ['a'], b));
    inserts[0].finish();
    await tick();
    // Two fit under the bound, the third starts the next insert.
    expect(inserts[2].body.length).toBe(2 * big.length);
    inserts[2].finish();
    await tick();
    expect(inserts[3].body.length).toBe(big.length);
    inserts[3].finish();
    inserts[1].finish();
    await Promise.all(waits);
  });

  it('sends nothing for an empty body', async () => {
    const queue = createInsertQueue();
    const { client, inserts } = fakeClient();
    await queue.insertRowBinary(client, 't', ['a'], new Uint8Array(0));
    expect(inserts).toHaveLength(0);
  });
});
