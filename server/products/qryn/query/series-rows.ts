import { STALE_NAN_BITS } from '../ingest/batch';
import { storageErrorOf } from '../storage/storage-stream';

// The RowBinary rows of the metrics querier's select (`fingerprint UInt64, t Array(UInt32 | Int64), v32
// Array(Float32), v64 Array(Float64), labels String`; one of v32 and v64 is empty), read as the body arrives: each
// complete row is handed on at once, and a row cut by a chunk's end waits for the bytes it still needs (known from
// its lengths), so the chunks are joined about once per row, not once per chunk.

export interface SeriesRow {
  labels: string;
  times: Float64Array;
  values: Float64Array;
  stale: Uint8Array | undefined;
}

/** Thrown inside the parser when the buffer ends before the row: `need` bytes from the row's start are needed. */
class Incomplete {
  constructor(readonly need: number) {}
}

/** `n` 4-byte elements of `buf` from `at`: a view when the offset is aligned, else an aligned copy. */
function view32<T extends Uint32Array | Float32Array>(Type: { new (b: ArrayBufferLike, o: number, n: number): T; new (n: number): T }, buf: Buffer, at: number, n: number): T {
  const offset = buf.byteOffset + at;
  if (offset % 4 === 0) return new Type(buf.buffer, offset, n);
  const copy = new Type(n);
  new Uint8Array(copy.buffer).set(buf.subarray(at, at + n * 4));
  return copy;
}

/** One row from `start`; returns the row and where the next one starts. */
function parseRow(buf: Buffer, start: number, baseMs: number | undefined, beforeValues: (samples: number) => void): { row: SeriesRow; next: number } {
  let at = start;
  const ensure = (bytes: number) => {
    if (at + bytes > buf.length) throw new Incomplete(at + bytes - start);
  };
  const varint = () => {
    let value = 0;
    let shift = 0;
    for (;;) {
      ensure(1);
      const byte = buf[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
      shift += 7;
    }
  };
  ensure(8);
  at += 8; // the fingerprint
  const n = varint();
  // Counted before its samples are copied: a budget that refuses stops the read here.
  beforeValues(n);
  const times = new Float64Array(n);
  if (baseMs !== undefined) {
    ensure(n * 4);
    // Little-endian words (every platform Node runs on here is little-endian), read in place when aligned.
    const words = view32(Uint32Array, buf, at, n);
    for (let i = 0; i < n; i++) times[i] = baseMs + words[i];
    at += n * 4;
  } else {
    ensure(n * 8);
    for (let i = 0; i < n; i++) times[i] = Number(buf.readBigInt64LE(at + i * 8));
    at += n * 8;
  }
  const narrowCount = varint();
  let values: Float64Array;
  let stale: Uint8Array | undefined;
  if (narrowCount > 0) {
    // Float32 values: exact (ClickHouse sent them only when every value converts back to itself), never NaN.
    ensure(narrowCount * 4 + 1);
    const floats = view32(Float32Array, buf, at, narrowCount);
    values = new Float64Array(narrowCount);
    for (let i = 0; i < narrowCount; i++) values[i] = floats[i];
    at += narrowCount * 4;
    at += 1; // the empty Float64 array's length
  } else {
    const m = varint();
    ensure(m * 8);
    // A copy into an aligned buffer: the bytes are the stored doubles, NaN payloads included.
    const raw = new Uint8Array(m * 8);
    raw.set(buf.subarray(at, at + m * 8));
    at += m * 8;
    values = new Float64Array(raw.buffer);
    const words = new Uint32Array(raw.buffer);
    for (let i = 0; i < m; i++) {
      if (values[i] !== values[i] && words[2 * i + 1] === STALE_NAN_BITS.high && words[2 * i] === STALE_NAN_BITS.low) {
        stale ??= new Uint8Array(m);
        stale[i] = 1;
      }
    }
  }
  const length = varint();
  ensure(length);
  const labels = buf.toString('utf8', at, at + length);
  at += length;
  return { row: { labels, times, values, stale }, next: at };
}

/**
 * The rows of a RowBinary body as its chunks arrive. `beforeValues` is told each row's sample count before its
 * samples are read (it may throw to stop the read). ClickHouse writes an error that happens after the first block
 * into the body as text: what is left over at the end is read as that error.
 */
export async function* seriesRows(chunks: AsyncIterable<Uint8Array>, baseMs: number | undefined, beforeValues: (samples: number) => void = () => undefined): AsyncGenerator<SeriesRow> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let need = 1;
  for await (const chunk of chunks) {
    pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    pendingBytes += chunk.byteLength;
    if (pendingBytes < need) continue;
    const buf = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
    let at = 0;
    need = 1;
    while (at < buf.length) {
      let parsed: { row: SeriesRow; next: number };
      try {
        parsed = parseRow(buf, at, baseMs, beforeValues);
      } catch (error) {
        if (!(error instanceof Incomplete)) throw error;
        need = error.need;
        break;
      }
      at = parsed.next;
      yield parsed.row;
    }
    pending = at < buf.length ? [buf.subarray(at)] : [];
    pendingBytes = buf.length - at;
  }
  if (pendingBytes > 0) {
    const text = Buffer.concat(pending, pendingBytes).toString('utf8');
    const error = /Code: \d+[\s\S]*/.exec(text);
    throw storageErrorOf(error ? error[0] : `The storage's answer ended inside a row (${pendingBytes} bytes left).`, 500);
  }
}

/** A row's labels; a row made of an error's text (see seriesRows) surfaces as that error. */
export function rowLabels(row: SeriesRow): Record<string, string> {
  try {
    return JSON.parse(row.labels) as Record<string, string>;
  } catch {
    throw storageErrorOf(/Code: \d+/.test(row.labels) ? row.labels : `The storage answered a series without readable labels: ${row.labels.slice(0, 200)}`, 500);
  }
}
