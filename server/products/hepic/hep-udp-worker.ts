import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { decodeHep } from './hep-decoder';
import { toRow } from './hep-row';
import type { DecodedAck, FromWorker, ReaderToDecoder, UdpBatch, WorkerData } from './hep-udp-protocol';

// The HEP endpoint's UDP decoder thread (hep-udp-reader.ts starts it beside the reader thread,
// hep-udp-reader-thread.mjs, which owns the socket and hands it raw batches):
//
// - the decoder decodes each datagram into a row (hep-row.ts) and hands batches of rows, with their keys, to the
//   listener (hep-listener.ts), which checks keys and owns the per-instance queues and inserts.
//
// Order is kept end to end: batches travel one channel each way, in order.

const data = workerData as WorkerData;
const main = parentPort!;
const toMain = (message: FromWorker) => main.postMessage(message);

/**
 * Decoding may lag (the reader's backlog absorbs it), reading may not: on a busy machine the decoder asks for a
 * lower priority than the reader (hep-udp-reader-thread.mjs). Linux applies setpriority to the one thread named by
 * its id. Anything refused is left as it is.
 */
function prioritise(nice: number): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // Not Linux, or not permitted: the thread keeps the process's priority.
  }
}

prioritise(5);
runDecoder(data.peer);

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
