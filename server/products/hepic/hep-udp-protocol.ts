import type { MessagePort } from 'node:worker_threads';
import type { TsvValue } from '../qryn/storage/storage-client';

// The messages between the HEP listener (main thread) and its two UDP threads (hep-udp-reader-thread.mjs, in plain
// JavaScript, follows these types by hand; hep-udp-worker.ts is the decoder): the reader owns
// the socket and only copies datagrams into batches; the decoder decodes them into rows and hands those to the
// listener. They talk over a MessageChannel of their own.

export interface UdpWorkerOptions {
  host: string;
  port: number;
  /** SO_RCVBUF asked for; the kernel caps it at net.core.rmem_max. */
  receiveBufferBytes: number;
  /** A batch is handed over when it holds this many packets … */
  batchPackets: number;
  /** … or this long after its first packet. */
  batchMs: number;
  /** Datagrams read and not yet decoded, at most; beyond, the reader drops them (counted: backlogShed). */
  maxBacklogPackets: number;
}

export type WorkerData =
  | { role: 'reader'; entry: string; options: UdpWorkerOptions; peer: MessagePort }
  | { role: 'decoder'; entry: string; options: UdpWorkerOptions; peer: MessagePort };

/** Reader → decoder: datagrams back to back in `bytes` (transferred, not copied). */
export interface RawBatch {
  type: 'raw';
  bytes: ArrayBuffer;
  lengths: Uint32Array;
  receivedMs: Float64Array;
  count: number;
  /** Datagrams dropped by the reader since the last batch (the decoder's backlog was full). */
  shed: number;
}
export type ReaderToDecoder = RawBatch | { type: 'flush'; id: number } | { type: 'close' };
/** Decoder → reader: how many datagrams of the backlog it has decoded. */
export interface DecodedAck {
  type: 'done';
  count: number;
}

/** Datagrams read since the last batch: the decoded ones in the order they were read, as rows with their key. */
export interface UdpBatch {
  type: 'batch';
  /** Datagrams read (decoded or not, and those dropped for the backlog). */
  received: number;
  /** Datagrams that did not decode (counted, dropped). */
  malformed: number;
  /** Datagrams dropped because the decoder was behind by maxBacklogPackets. */
  backlogShed: number;
  /** The auth key of each decoded packet ('' when it carries none). */
  keys: string[];
  /** When each was read (ms since the epoch, the wall clock). */
  receivedMs: number[];
  /** Each packet's row (hep-row.ts), its receive time from receivedMs. */
  rows: TsvValue[][];
}

/** To the listener (main thread): 'bound'/'failed' from the reader, the rest from the decoder. */
export type FromWorker =
  | { type: 'bound'; receiveBufferBytes: number }
  | { type: 'failed'; message: string }
  | UdpBatch
  | { type: 'flushed'; id: number }
  | { type: 'closed' };

/** From the listener to the reader (which passes flush and close on to the decoder, after its last batch). */
export type ToWorker = { type: 'flush'; id: number } | { type: 'close' };
