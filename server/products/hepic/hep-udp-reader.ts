import { MessageChannel, Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker, UdpBatch, UdpWorkerOptions, WorkerData } from './hep-udp-protocol';

// The listener's side of the UDP threads (hep-udp-reader-thread.mjs, the reader that owns the socket, and
// hep-udp-worker.ts, the decoder): starts them
// and waits until the socket is bound, passes the decoder's batches on in order, asks for what they hold (flush),
// and stops them (close). Threads that stop on their own (they should not: decoding never throws) are started again
// on the same port a second later, and logged.

export interface UdpReader {
  /** The receive buffer the kernel gave the socket (getsockopt SO_RCVBUF). */
  readonly receiveBufferBytes: number;
  /** Resolves once every datagram the reader had read when called has been passed to onBatch. */
  flush(): Promise<void>;
  /** Closes the socket (the port is free when this resolves), passes on what was read, ends both threads. */
  close(): Promise<void>;
}

const RESTART_MS = 1_000;
const CLOSE_TIMEOUT_MS = 2_000;

interface Pair {
  reader: Worker;
  decoder: Worker;
}

export async function startUdpReader(options: UdpWorkerOptions, onBatch: (batch: UdpBatch) => void, log: (message: string) => void): Promise<UdpReader> {
  let pair: Pair;
  let receiveBufferBytes = 0;
  let closing = false;
  let nextFlush = 1;
  const flushes = new Map<number, () => void>();
  // Pairs whose thread stopped (the other one is ended, a new pair started): their other exit changes nothing.
  const stopped = new WeakSet<Pair>();
  let closed: (() => void) | null = null;

  function thread(role: WorkerData['role'], peer: MessageChannel['port1']): Worker {
    const data: WorkerData = { role, entry: new URL('./hep-udp-worker.ts', import.meta.url).href, options, peer };
    // The reader is plain JavaScript (it starts at once, without the TypeScript loader); the decoder is TypeScript.
    const file = role === 'reader' ? './hep-udp-reader-thread.mjs' : './hep-udp-worker-boot.mjs';
    const worker = new Worker(new URL(file, import.meta.url), { workerData: data, transferList: [peer] });
    // The threads must not keep a process alive on their own: the platform's close() ends them, and so does the process.
    worker.unref();
    return worker;
  }

  function spawn(): Promise<void> {
    const channel = new MessageChannel();
    const started: Pair = { decoder: thread('decoder', channel.port2), reader: thread('reader', channel.port1) };
    pair = started;
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      const onMessage = (message: FromWorker) => {
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
            void started.reader.terminate();
            void started.decoder.terminate();
            break;
          case 'flushed':
            flushes.get(message.id)?.();
            flushes.delete(message.id);
            break;
          case 'closed':
            closed?.();
            break;
        }
      };
      for (const worker of [started.reader, started.decoder]) {
        worker.on('message', onMessage);
        worker.on('error', (error) => {
          if (!ready) reject(error);
          else log(`[hepic] a UDP thread failed: ${error.message}`);
        });
        worker.on('exit', () => {
          if (!ready) {
            reject(new Error('The UDP reader stopped before its socket was bound.'));
            void started.reader.terminate();
            void started.decoder.terminate();
            return;
          }
          if (closing || stopped.has(started)) return;
          stopped.add(started);
          // One thread stopped: end the other (it holds the port or the backlog), answer waiting flushes, start
          // a new pair.
          void started.reader.terminate();
          void started.decoder.terminate();
          for (const [, done] of flushes) done();
          flushes.clear();
          log(`[hepic] a UDP thread stopped; starting the UDP reader again on port ${options.port}`);
          setTimeout(() => {
            if (!closing) spawn().catch((error: unknown) => log(`[hepic] the UDP reader did not start again: ${error instanceof Error ? error.message : String(error)}`));
          }, RESTART_MS).unref();
        });
      }
    });
  }

  await spawn();

  const post = (message: ToWorker) => pair.reader.postMessage(message);
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
      // Threads that do not answer (they would be stuck) are ended all the same: shutdown never waits on them.
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref());
      await Promise.race([done, timeout]);
      await Promise.all([pair.reader.terminate(), pair.decoder.terminate()]);
      for (const [, resolve] of flushes) resolve();
      flushes.clear();
    },
  };
}
