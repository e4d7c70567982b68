import { parentPort } from 'node:worker_threads';
import { evaluatePromql } from './promql-evaluate';
import type { WorkerMessage, WorkerReply } from './promql-pool';

// A query worker's loop (started by promql-pool.ts through promql-worker-boot.mjs): evaluates each query it is sent,
// concurrently (a query mostly waits on ClickHouse), and aborts one when the gateway says its client went away.

const running = new Map<number, AbortController>();

parentPort!.on('message', (message: WorkerMessage) => {
  if (message.type === 'cancel') {
    running.get(message.id)?.abort();
    return;
  }
  const controller = new AbortController();
  running.set(message.id, controller);
  void evaluatePromql(message.job, message.settings, controller.signal).then((answer) => {
    running.delete(message.id);
    parentPort!.postMessage({ id: message.id, answer } satisfies WorkerReply);
  });
});
