import { createSocket } from 'node:dgram';
import { parentPort, workerData } from 'node:worker_threads';
import { decodeHep } from './hep-decoder';
import { toRow } from './hep-row';
import type { FromWorker, ToWorker, UdpBatch, UdpWorkerOptions } from './hep-udp-protocol';

// The HEP endpoint's UDP side, in its own thread: it owns the socket, reads and decodes every datagram and hands the
// decoded packets to the listener in batches. Nothing on the platform's event loop (API requests, TCP senders,
// inserts, garbage collection of other work) delays the reads, so the kernel's receive buffer drains as fast as
// this one loop can decode. Keys are checked and rows queued by the listener (hep-listener.ts), which owns the
// per-instance queues and the key cache.

const options = workerData.options as UdpWorkerOptions;
const port = parentPort!;
const send = (message: FromWorker) => port.postMessage(message);

const empty = (): UdpBatch => ({ type: 'batch', received: 0, malformed: 0, keys: [], receivedMs: [], rows: [] });
let batch = empty();
let timer: NodeJS.Timeout | null = null;

function handOver(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  if (batch.received === 0) return;
  send(batch);
  batch = empty();
}

const socket = createSocket({ type: options.host.includes(':') ? 'udp6' : 'udp4', recvBufferSize: options.receiveBufferBytes });
socket.on('message', (message) => {
  const now = Date.now();
  batch.received++;
  const decoded = decodeHep(message);
  if (!decoded.ok) batch.malformed++;
  else {
    batch.keys.push(decoded.packet.authKey ?? '');
    batch.receivedMs.push(now);
    batch.rows.push(toRow(decoded.packet, 'udp', now));
  }
  if (batch.received >= options.batchPackets) handOver();
  else if (!timer) timer = setTimeout(handOver, options.batchMs);
});

let bound = false;
socket.on('error', (error) => {
  if (!bound) send({ type: 'failed', message: error.message });
});
socket.bind(options.port, options.host, () => {
  bound = true;
  // Linux reports twice the size asked for (the kernel's bookkeeping share), capped at twice net.core.rmem_max.
  send({ type: 'bound', receiveBufferBytes: socket.getRecvBufferSize() });
});

port.on('message', (message: ToWorker) => {
  if (message.type === 'flush') {
    handOver();
    send({ type: 'flushed', id: message.id });
  } else if (message.type === 'close') {
    socket.close(() => {
      handOver();
      send({ type: 'closed' });
      port.close();
    });
  }
});
