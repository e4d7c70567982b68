import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker, UdpBatch, UdpWorkerOptions } from './hep-udp-protocol';

// The listener's side of the UDP worker thread (hep-udp-worker.ts): starts it and waits until its socket is bound,
// passes its batches on in order, asks it for what it holds (flush), and stops it (close). A worker that stops on
// its own (it should not: decoding never throws) is started again on the same port a second later, and logged.

export interface UdpReader {
  /** The receive buffer the kernel gave the socket (getsockopt SO_RCVBUF). */
  readonly receiveBufferBytes: number;
  /** Resolves once every packet the worker had read when called has been passed to onBatch. */
  flush(): Promise<void>;
  /** Closes the socket (the port is free when this resolves), passes on what was read, ends the thread. */
  close(): Promise<void>;
}

const RESTART_MS = 1_000;
const CLOSE_TIMEOUT_MS = 2_000;

export async function startUdpReader(options: UdpWorkerOptions, onBatch: (batch: UdpBatch) => void, log: (message: string) => void): Promise<UdpReader> {
  let worker: Worker;
  let receiveBufferBytes = 0;
  let closing = false;
  let nextFlush = 1;
  const flushes = new Map<number, () => void>();
  let closed: (() => void) | null = null;

  function spawn(): Promise<void> {
    const started = new Worker(new URL('./hep-udp-worker-boot.mjs', import.meta.url), {
      workerData: { entry: new URL('./hep-udp-worker.ts', import.meta.url).href, options },
    });
    worker = started;
    // The thread must not keep a process alive on its own: the platform's close() ends it, and so does the process.
    started.unref();
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      started.on('message', (message: FromWorker) => {
        switch (message.type) {
          case 'batch':
            onBatch(message);
            break;
          case 'bound':
            ready = true;
            receiveBufferBytes = message.receiveBufferBytes;
            resolve();
            break;
          case 'failed':
            reject(new Error(message.message));
            void started.terminate();
            break;
          case 'flushed':
            flushes.get(message.id)?.();
            flushes.delete(message.id);
            break;
          case 'closed':
            closed?.();
            break;
        }
      });
      started.on('error', (error) => {
        if (!ready) reject(error);
        else log(`[hepic] the UDP reader failed: ${error.message}`);
      });
      started.on('exit', () => {
        // Pending flushes cannot be answered by this thread any more.
        for (const [, done] of flushes) done();
        flushes.clear();
        closed?.();
        if (!ready) reject(new Error('The UDP reader stopped before its socket was bound.'));
        else if (!closing && worker === started) {
          log(`[hepic] the UDP reader stopped; starting it again on port ${options.port}`);
          setTimeout(() => {
            if (!closing) spawn().catch((error: unknown) => log(`[hepic] the UDP reader did not start again: ${error instanceof Error ? error.message : String(error)}`));
          }, RESTART_MS).unref();
        }
      });
    });
  }

  await spawn();

  const post = (message: ToWorker) => worker.postMessage(message);
  return {
    get receiveBufferBytes() {
      return receiveBufferBytes;
    },
    flush() {
      if (closing) return Promise.resolve();
      const id = nextFlush++;
      return new Promise<void>((resolve) => {
        flushes.set(id, resolve);
        post({ type: 'flush', id });
      });
    },
    async close() {
      if (closing) return;
      closing = true;
      const done = new Promise<void>((resolve) => (closed = resolve));
      post({ type: 'close' });
      // A thread that does not answer (it would be stuck) is ended all the same: shutdown never waits on it.
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref());
      await Promise.race([done, timeout]);
      await worker.terminate();
    },
  };
}
