// The HEP endpoint's UDP reader thread (hep-udp-reader.ts starts it; the messages are typed in hep-udp-protocol.ts).
// Plain JavaScript on purpose: it needs nothing but node:dgram, so it starts in milliseconds without the TypeScript
// loader, and the platform's start waits only for it (the decoder thread, which needs the loader, starts beside it;
// batches wait in their channel until it is up).
//
// It owns the socket and does as little as a datagram allows: it copies it into a batch and hands full batches
// (transferred, not copied) to the decoder (hep-udp-worker.ts). Nothing on the platform's event loop, and no
// decoding, delays its reads, so the kernel's receive buffer drains about as fast as a socket that only counts
// (bench:hep shows both side by side). If the decoder falls behind by maxBacklogPackets, further datagrams are
// dropped and counted rather than held without bound.
import { createSocket } from 'node:dgram';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';

const { options, peer: decoder } = workerData;
const main = parentPort;

// The reader must run whenever datagrams wait, while decoding may lag (the backlog absorbs it): on a busy machine
// the scheduler shares the CPU among all threads alike, so it asks for a higher priority (a negative nice value,
// granted to root only). Linux applies setpriority to the one thread named by its id. A refusal changes nothing.
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, -10);
} catch {
  // Not Linux, or not permitted: the thread keeps the process's priority.
}

// A batch's bytes: room for batchPackets datagrams of the usual size; a larger one starts a new batch.
const batchBytes = Math.max(64 * 1024, options.batchPackets * 1500);
let bytes = new Uint8Array(batchBytes);
let lengths = new Uint32Array(options.batchPackets);
let receivedMs = new Float64Array(options.batchPackets);
let count = 0;
let used = 0;
let shed = 0;
let backlog = 0;
let timer = null;

function handOver() {
  if (timer) clearTimeout(timer);
  timer = null;
  if (count === 0 && shed === 0) return;
  // Only the bytes used travel (copied once, then transferred): the backlog holds what was read, no more.
  const sent = bytes.slice(0, used).buffer;
  decoder.postMessage({ type: 'raw', bytes: sent, lengths, receivedMs, count, shed }, [sent, lengths.buffer, receivedMs.buffer]);
  backlog += count;
  if (bytes.length !== batchBytes) bytes = new Uint8Array(batchBytes);
  lengths = new Uint32Array(options.batchPackets);
  receivedMs = new Float64Array(options.batchPackets);
  count = 0;
  used = 0;
  shed = 0;
}

decoder.on('message', (ack) => {
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
  if (!bound) main.postMessage({ type: 'failed', message: error.message });
});
socket.bind(options.port, options.host, () => {
  bound = true;
  // Linux reports twice the size asked for (the kernel's bookkeeping share), capped at twice net.core.rmem_max.
  main.postMessage({ type: 'bound', receiveBufferBytes: socket.getRecvBufferSize() });
});

main.on('message', (message) => {
  if (message.type === 'flush') {
    handOver();
    decoder.postMessage(message);
  } else if (message.type === 'close') {
    // The listener ends both threads once the decoder has answered 'closed', after the last batch.
    const finish = () => {
      handOver();
      decoder.postMessage(message);
    };
    if (bound) socket.close(finish);
    else finish();
  }
});
