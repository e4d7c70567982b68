import { parentPort } from 'node:worker_threads';
import type { QueryWorkerMessage, QueryWorkerReply } from './query-pool';
import { storageClient, type StorageClient } from '../storage/storage-client';
import type { StorageEndpoint } from '../storage/storage-server';

// A query worker's loop (query-pool.ts starts the worker; its entry module calls this with its language's
// evaluation): evaluates each query it is sent, concurrently (a query mostly waits on ClickHouse), and aborts one
// when the gateway says its client went away.

export function serveQueries<Job, Answer>(evaluate: (job: Job, signal: AbortSignal) => Promise<Answer>): void {
  const running = new Map<number, AbortController>();
  parentPort!.on('message', (message: QueryWorkerMessage<Job>) => {
    if (message.type === 'cancel') {
      running.get(message.id)?.abort();
      return;
    }
    const controller = new AbortController();
    running.set(message.id, controller);
    void evaluate(message.job, controller.signal).then((answer) => {
      running.delete(message.id);
      parentPort!.postMessage({ id: message.id, answer } satisfies QueryWorkerReply<Answer>);
    });
  });
}

const clients = new Map<string, StorageClient>();

/** A worker's storage client for an endpoint, kept between queries (its connections stay open). */
export function workerStorageClient(endpoint: StorageEndpoint): StorageClient {
  const key = `${endpoint.url}|${endpoint.user}|${endpoint.password}`;
  let client = clients.get(key);
  if (!client) {
    if (clients.size > 100) clients.clear();
    clients.set(key, (client = storageClient(endpoint)));
  }
  return client;
}

/**
 * What of an endpoint crosses to a query worker: its address, credentials and statement timeouts (the shared server's
 * endpoint object carries methods) and, for a cluster, its nodes' URLs, so that a read the worker stops is killed on
 * every node.
 */
export async function workerEndpoint(endpoint: StorageEndpoint): Promise<StorageEndpoint> {
  const { url, user, password, timeouts, readLimits } = endpoint;
  const nodeUrls = endpoint.nodeUrls ?? (endpoint.cluster ? await endpoint.cluster.nodes().then((nodes) => nodes.map((node) => node.url), () => undefined) : undefined);
  return { url, user, password, ...(timeouts ? { timeouts } : {}), ...(nodeUrls ? { nodeUrls } : {}), ...(readLimits ? { readLimits } : {}) };
}
