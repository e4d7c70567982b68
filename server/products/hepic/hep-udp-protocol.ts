import type { TsvValue } from '../qryn/storage-client';

// The messages between the HEP listener (main thread) and its UDP worker thread (hep-udp-worker.ts).

export interface UdpWorkerOptions {
  host: string;
  port: number;
  /** SO_RCVBUF asked for; the kernel caps it at net.core.rmem_max. */
  receiveBufferBytes: number;
  /** A batch is handed over when it holds this many packets … */
  batchPackets: number;
  /** … or this long after its first packet. */
  batchMs: number;
}

/** Datagrams read since the last batch: the decoded ones in the order they were read, as rows with their key. */
export interface UdpBatch {
  type: 'batch';
  /** Datagrams read (decoded or not). */
  received: number;
  /** Datagrams that did not decode (counted, dropped). */
  malformed: number;
  /** The auth key of each decoded packet ('' when it carries none). */
  keys: string[];
  /** When each was read (ms since the epoch, the wall clock). */
  receivedMs: number[];
  /** Each packet's row (hep-row.ts), its receive time from receivedMs. */
  rows: TsvValue[][];
}

export type FromWorker =
  | { type: 'bound'; receiveBufferBytes: number }
  | { type: 'failed'; message: string }
  | UdpBatch
  | { type: 'flushed'; id: number }
  | { type: 'closed' };

export type ToWorker = { type: 'flush'; id: number } | { type: 'close' };
