import { describe, expect, it } from 'vitest';
import { createReadScheduler, ReadRefused, ReadTimedOut, type ReadStart } from '../../server/products/qryn/query/read-scheduler';
import { readSchedulerSettings } from '../../server/products/qryn/query/read-scheduler-settings';
import { checkReadSettings } from '../../server/products/qryn/gateway/gateway';

// The read scheduler (server/products/qryn/query/read-scheduler.ts): reads wait in a queue per instance and are started
// in turn, within the global and per-instance caps; a full queue is refused; the deadline counts the time queued;
// a read given up while it waits never runs.

/** A read that runs until the test ends it, recording when it started. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  let start: ReadStart | undefined;
  let signal: AbortSignal | undefined;
  const work = async (s: AbortSignal, st: ReadStart) => {
    log.push(name);
    signal = s;
    start = st;
    await done;
    return name;
  };
  return { work, release, started: () => start, signal: () => signal };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the read scheduler', () => {
  it('serves the instances in turn, however many reads one of them sent first', async () => {
    const scheduler = createReadScheduler({ concurrency: 1, instanceRunning: 1, instanceQueued: 10 });
    const log: string[] = [];
    const reads = ['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'c1'].map((name) => ({ name, ...gate(log, name) }));
    const answers = reads.map((r) => scheduler.run(`instance-${r.name[0]}`, 'promql', r.work, { timeoutMs: 60_000 }));
    expect(scheduler.counters('instance-a')).toMatchObject({ running: 1, queued: 3 });
    // Each read ends in the order the scheduler started them; the order is the round robin over a, b, c.
    for (let i = 0; i < reads.length; i++) {
      await expect.poll(() => log.length).toBe(i + 1);
      reads.find((r) => r.name === log[i])!.release();
    }
    await Promise.all(answers);
    expect(log).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect(scheduler.counters('instance-a')).toMatchObject({ running: 0, queued: 0, refused: 0, timedOut: 0 });
  });

  it("keeps one instance within its share of running reads, so another's read starts at once", async () => {
    const scheduler = createReadScheduler({ concurrency: 4, instanceRunning: 2, instanceQueued: 10 });
    const log: string[] = [];
    const flood = Array.from({ length: 6 }, (_, i) => gate(log, `a${i}`));
    const floodAnswers = flood.map((r) => scheduler.run('a', 'logql', r.work, { timeoutMs: 60_000 }));
    expect(log).toEqual(['a0', 'a1']);
    expect(scheduler.counters('a')).toMatchObject({ running: 2, queued: 4 });
    const b = gate(log, 'b0');
    const bAnswer = scheduler.run('b', 'logql', b.work, { timeoutMs: 60_000 });
    expect(log).toEqual(['a0', 'a1', 'b0']);
    expect(scheduler.counters('b')).toMatchObject({ running: 1, queued: 0 });
    b.release();
    expect(await bAnswer).toBe('b0');
    // a's next read starts only when one of its own ends.
    expect(log).toHaveLength(3);
    flood[0].release();
    await expect.poll(() => log.length).toBe(4);
    for (const r of flood) r.release();
    expect(await Promise.all(floodAnswers)).toHaveLength(6);
  });

  it('marks the reads of an instance with more of its own waiting behind them as background', async () => {
    const scheduler = createReadScheduler({ concurrency: 4, instanceRunning: 1, instanceQueued: 10 });
    const log: string[] = [];
    const reads = Array.from({ length: 3 }, (_, i) => gate(log, `a${i}`));
    const answers = reads.map((r) => scheduler.run('a', 'logql', r.work, { timeoutMs: 60_000 }));
    const other = gate(log, 'b0');
    const otherAnswer = scheduler.run('b', 'promql', other.work, { timeoutMs: 60_000 });
    // The first read started with nothing behind it; so did b's.
    expect(reads[0].started()!.background).toBe(false);
    expect(other.started()!.background).toBe(false);
    reads[0].release();
    // a1 starts with a2 still waiting; a2 starts last, with nothing behind it.
    await expect.poll(() => reads[1].started()).toBeDefined();
    expect(reads[1].started()!.background).toBe(true);
    reads[1].release();
    await expect.poll(() => reads[2].started()).toBeDefined();
    expect(reads[2].started()!.background).toBe(false);
    reads[2].release();
    other.release();
    await Promise.all([...answers, otherAnswer]);
  });

  it("refuses a read past the instance's queue with a Retry-After, and counts it", async () => {
    const scheduler = createReadScheduler({ concurrency: 2, instanceRunning: 1, instanceQueued: 2 });
    const log: string[] = [];
    const reads = Array.from({ length: 3 }, (_, i) => gate(log, `a${i}`));
    const answers = reads.map((r) => scheduler.run('a', 'promql', r.work, { timeoutMs: 60_000 }));
    const refused = scheduler.run('a', 'promql', async () => 'never', { timeoutMs: 60_000 });
    await expect(refused).rejects.toBeInstanceOf(ReadRefused);
    const error = (await refused.catch((e: unknown) => e)) as ReadRefused;
    expect(error.message).toBe('too many outstanding requests');
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(scheduler.counters('a')).toMatchObject({ running: 1, queued: 2, refused: 1 });
    // Another instance is not refused for it.
    await expect(scheduler.run('b', 'promql', async () => 'b', { timeoutMs: 60_000 })).resolves.toBe('b');
    for (const r of reads) r.release();
    await Promise.all(answers);
  });

  it('counts the time queued in the deadline: a read whose deadline passes in the queue is never run', async () => {
    const scheduler = createReadScheduler({ concurrency: 1, instanceRunning: 1, instanceQueued: 10 });
    const log: string[] = [];
    const holder = gate(log, 'holder');
    const held = scheduler.run('a', 'promql', holder.work, { timeoutMs: 60_000 });
    const late = gate(log, 'late');
    const lateAnswer = scheduler.run('b', 'promql', late.work, { timeoutMs: 50 });
    await expect(lateAnswer).rejects.toBeInstanceOf(ReadTimedOut);
    expect(scheduler.counters('b')).toMatchObject({ queued: 0, running: 0, timedOut: 1 });
    // A read that waits starts with its deadline fixed when it was handed over.
    const before = Date.now();
    const waiting = gate(log, 'waiting');
    const waitingAnswer = scheduler.run('c', 'promql', waiting.work, { timeoutMs: 60_000 });
    const after = Date.now();
    holder.release();
    await held;
    await expect.poll(() => waiting.started()).toBeDefined();
    expect(waiting.started()!.deadlineMs).toBeGreaterThanOrEqual(before + 60_000);
    expect(waiting.started()!.deadlineMs).toBeLessThanOrEqual(after + 60_000);
    expect(waiting.started()!.remainingMs()).toBeLessThanOrEqual(60_000);
    waiting.release();
    await waitingAnswer;
    expect(log).toEqual(['holder', 'waiting']);
  });

  it("aborts a running read's signal at its deadline with ReadTimedOut as the reason, and counts it", async () => {
    const scheduler = createReadScheduler({ concurrency: 1, instanceRunning: 1, instanceQueued: 10 });
    const answer = scheduler.run('a', 'logql', (signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason))), { timeoutMs: 30 });
    expect(await answer).toBeInstanceOf(ReadTimedOut);
    expect(scheduler.counters('a')).toMatchObject({ running: 0, timedOut: 1 });
  });

  it('drops a read given up while it waits: it never runs and frees its place in the queue', async () => {
    const scheduler = createReadScheduler({ concurrency: 1, instanceRunning: 1, instanceQueued: 1 });
    const log: string[] = [];
    const holder = gate(log, 'holder');
    const held = scheduler.run('a', 'promql', holder.work, { timeoutMs: 60_000 });
    const client = new AbortController();
    const given = gate(log, 'given-up');
    const givenAnswer = scheduler.run('a', 'promql', given.work, { timeoutMs: 60_000, signal: client.signal });
    expect(scheduler.counters('a').queued).toBe(1);
    client.abort(new Error('client went away'));
    await expect(givenAnswer).rejects.toThrow('client went away');
    expect(scheduler.counters('a').queued).toBe(0);
    // Its place is free again: the next read queues instead of being refused.
    const next = gate(log, 'next');
    const nextAnswer = scheduler.run('a', 'promql', next.work, { timeoutMs: 60_000 });
    holder.release();
    await held;
    await expect.poll(() => log).toEqual(['holder', 'next']);
    next.release();
    await nextAnswer;
    await settle();
    expect(scheduler.counters('a')).toMatchObject({ running: 0, queued: 0, refused: 0, timedOut: 0 });
  });

  it("passes the caller's abort to a running read, and adds the bytes answered", async () => {
    const scheduler = createReadScheduler({ concurrency: 1, instanceRunning: 1, instanceQueued: 1 });
    const client = new AbortController();
    const answer = scheduler.run('a', 'traceql', (signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason))), { timeoutMs: 60_000, signal: client.signal });
    client.abort('gone');
    expect(await answer).toBe('gone');
    scheduler.answered('a', 1200);
    scheduler.answered('a', 34);
    expect(scheduler.counters('a')).toMatchObject({ timedOut: 0, bytesAnswered: 1234 });
  });
});

describe("the read scheduler's settings", () => {
  it('has defaults and reads well-formed values', () => {
    expect(readSchedulerSettings({})).toEqual({ concurrency: 8, instanceRunning: 2, instanceQueued: 16 });
    expect(readSchedulerSettings({ QRYN_READ_CONCURRENCY: '4', QRYN_READ_INSTANCE_RUNNING: '4', QRYN_READ_INSTANCE_QUEUED: '0' })).toEqual({ concurrency: 4, instanceRunning: 4, instanceQueued: 0 });
    expect(readSchedulerSettings({ QRYN_READ_CONCURRENCY: '1' }).instanceRunning).toBe(1);
  });

  it('refuses a malformed setting by name', () => {
    expect(() => readSchedulerSettings({ QRYN_READ_CONCURRENCY: 'many' })).toThrow(/QRYN_READ_CONCURRENCY/);
    expect(() => readSchedulerSettings({ QRYN_READ_CONCURRENCY: '0' })).toThrow(/QRYN_READ_CONCURRENCY/);
    expect(() => readSchedulerSettings({ QRYN_READ_INSTANCE_QUEUED: '-1' })).toThrow(/QRYN_READ_INSTANCE_QUEUED/);
    expect(() => readSchedulerSettings({ QRYN_READ_CONCURRENCY: '2', QRYN_READ_INSTANCE_RUNNING: '3' })).toThrow(/QRYN_READ_INSTANCE_RUNNING/);
  });

  it('are checked with the other read settings when the gateway is made (the platform does not start)', () => {
    expect(() => checkReadSettings({ QRYN_READ_INSTANCE_QUEUED: 'lots' })).toThrow(/QRYN_READ_INSTANCE_QUEUED/);
    expect(() => checkReadSettings({})).not.toThrow();
  });
});
