import { createSocket } from 'node:dgram';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { decodeHep } from './hep-decoder';
import { toRow } from './hep-row';
import type { DecodedAck, FromWorker, RawBatch, ReaderToDecoder, ToWorker, UdpBatch, WorkerData } from './hep-udp-protocol';

// The HEP endpoint's UDP side, in two threads of its own (hep-udp-reader.ts starts them):
//
// - the reader owns the socket and does as little as a datagram allows: it copies it into a batch and hands full
//   batches (transferred, not copied) to the decoder. Nothing on the platform's event loop, and no decoding, delays
//   its reads, so the kernel's receive buffer drains about as fast as a socket that only counts (bench:hep shows
//   both side by side). If the decoder falls behind by maxBacklogPackets, further datagrams are dropped and counted
//   rather than held without bound.
// - the decoder decodes each datagram into a row (hep-row.ts) and hands batches of rows, with their keys, to the
//   listener (hep-listener.ts), which checks keys and owns the per-instance queues and inserts.
//
// Order is kept end to end: batches travel one channel each way, in order.

const data = workerData as WorkerData;
const main = parentPort!;
const toMain = (message: FromWorker) => main.postMessage(message);

/**
 * The reader does little per datagram but must run whenever datagrams wait; decoding may lag (the backlog absorbs
 * it). On a busy machine the scheduler shares the CPU among all threads alike, so the reader asks for a higher
 * priority (a negative nice value, granted to root only) and the decoder for a lower one. Linux applies
 * setpriority to the one thread named by its id. Anything refused is left as it is.
 */
function prioritise(nice: number): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // Not Linux, or not permitted: the thread keeps the process's priority.
  }
}

if (data.role === 'reader') {
  prioritise(-10);
  runReader(data.peer);
} else {
  prioritise(5);
  runDecoder(data.peer);
}

function runReader(decoder: MessagePort): void {
  const { options } = data;
  // A batch's bytes: room for batchPackets datagrams of the usual size; a larger one starts a new batch.
  const batchBytes = Math.max(64 * 1024, options.batchPackets * 1500);
  let bytes = new Uint8Array(batchBytes);
  let lengths = new Uint32Array(options.batchPackets);
  let receivedMs = new Float64Array(options.batchPackets);
  let count = 0;
  let used = 0;
  let shed = 0;
  let backlog = 0;
  let timer: NodeJS.Timeout | null = null;

  function handOver(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    if (count === 0 && shed === 0) return;
    // Only the bytes used travel (copied once, then transferred): the backlog holds what was read, no more.
    const sent = bytes.slice(0, used).buffer;
    const batch: RawBatch = { type: 'raw', bytes: sent, lengths, receivedMs, count, shed };
    decoder.postMessage(batch satisfies ReaderToDecoder, [sent, lengths.buffer, receivedMs.buffer]);
    backlog += count;
    if (bytes.length !== batchBytes) bytes = new Uint8Array(batchBytes);
    lengths = new Uint32Array(options.batchPackets);
    receivedMs = new Float64Array(options.batchPackets);
    count = 0;
    used = 0;
    shed = 0;
  }

  decoder.on('message', (ack: DecodedAck) => {
    backlog -= ack.count;
  });

  const socket = createSocket({ type: options.host.includes(':') ? 'udp6' : 'udp4', recvBufferSize: options.receiveBufferBytes });
  socket.on('message', (message) => {
    if (backlog + count >= options.maxBacklogPackets) shed++;
    else {
      if (used + message.length > bytes.length) handOver();
      // A datagram larger than a whole batch (UDP allows 64 kB) gets a batch of its own size.
      if (message.length > bytes.length) bytes = new Uint8Array(message.length);
      bytes.set(message, used);
      used += message.length;
      lengths[count] = message.length;
      receivedMs[count] = Date.now();
      count++;
    }
    if (count >= options.batchPackets) handOver();
    else if (!timer) timer = setTimeout(handOver, options.batchMs);
  });

  let bound = false;
  socket.on('error', (error) => {
    if (!bound) toMain({ type: 'failed', message: error.message });
  });
  socket.bind(options.port, options.host, () => {
    bound = true;
    // Linux reports twice the size asked for (the kernel's bookkeeping share), capped at twice net.core.rmem_max.
    toMain({ type: 'bound', receiveBufferBytes: socket.getRecvBufferSize() });
  });

  main.on('message', (message: ToWorker) => {
    if (message.type === 'flush') {
      handOver();
      decoder.postMessage(message satisfies ReaderToDecoder);
    } else if (message.type === 'close') {
      const finish = () => {
        handOver();
        // The listener ends both threads once the decoder has answered 'closed'.
        decoder.postMessage(message satisfies ReaderToDecoder);
      };
      if (bound) socket.close(finish);
      else finish();
    }
  });
}

function runDecoder(reader: MessagePort): void {
  const empty = (): UdpBatch => ({ type: 'batch', received: 0, malformed: 0, backlogShed: 0, keys: [], receivedMs: [], rows: [] });
  reader.on('message', (message: ReaderToDecoder) => {
    if (message.type === 'raw') {
      const batch = empty();
      batch.received = message.count + message.shed;
      batch.backlogShed = message.shed;
      const bytes = Buffer.from(message.bytes);
      let offset = 0;
      for (let i = 0; i < message.count; i++) {
        const datagram = bytes.subarray(offset, offset + message.lengths[i]);
        offset += message.lengths[i];
        const decoded = decodeHep(datagram);
        if (!decoded.ok) batch.malformed++;
        else {
          batch.keys.push(decoded.packet.authKey ?? '');
          batch.receivedMs.push(message.receivedMs[i]);
          batch.rows.push(toRow(decoded.packet, 'udp', message.receivedMs[i]));
        }
      }
      toMain(batch);
      reader.postMessage({ type: 'done', count: message.count } satisfies DecodedAck);
    } else if (message.type === 'flush') {
      toMain({ type: 'flushed', id: message.id });
    } else if (message.type === 'close') {
      toMain({ type: 'closed' });
    }
  });
}
