import { Batch, IngestError, STALE_NAN_BITS } from './batch';
import { PromWriteRequest } from './protos';

// Prometheus remote write (snappy-compressed prometheus.WriteRequest). Timestamps are milliseconds. Stale markers
// (the NaN Prometheus writes when a series ends) are recognised by their bits here, right after decoding, and carried
// as a flag: a JavaScript NaN's payload is not guaranteed to survive every operation on the way to the writer.
// Metadata (type, help, unit per metric family, which Prometheus sends every minute) is kept for /api/v1/metadata.

interface WriteRequest {
  timeseries?: { labels?: { name?: string; value?: string }[]; samples?: { value?: number; timestamp?: string }[] }[];
  metadata?: { type?: number; metricFamilyName?: string; help?: string; unit?: string }[];
}

const METADATA_TYPES = ['unknown', 'counter', 'gauge', 'histogram', 'gaugehistogram', 'summary', 'info', 'stateset'];

const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
export function isStaleMarker(value: number): boolean {
  if (!Number.isNaN(value)) return false;
  bits[0] = value;
  return words[1] === STALE_NAN_BITS.high && words[0] === STALE_NAN_BITS.low;
}

export function decodeRemoteWrite(bytes: Uint8Array, batch: Batch): void {
  let message: WriteRequest;
  try {
    message = PromWriteRequest.toObject(PromWriteRequest.decode(bytes), { longs: String, defaults: true }) as WriteRequest;
  } catch (error) {
    throw new IngestError(`The body is not a Prometheus WriteRequest: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const series of message.timeseries ?? []) {
    // No prototype: "__proto__" is stored as a label like any other name.
    const labels: Record<string, string> = Object.create(null);
    for (const label of series.labels ?? []) {
      if (!label.name) throw new IngestError('A label has no name.');
      // Own properties only: "constructor", "toString" or "__proto__" are ordinary label names, not duplicates.
      if (Object.hasOwn(labels, label.name)) throw new IngestError(`Label "${label.name}" appears twice in one series.`);
      labels[label.name] = label.value ?? '';
    }
    const fingerprint = batch.addSeries('metrics', labels);
    for (const sample of series.samples ?? []) {
      if (!/^-?\d+$/.test(sample.timestamp ?? '')) throw new IngestError('A sample timestamp is invalid.');
      const value = sample.value ?? 0;
      batch.addMetric(fingerprint, BigInt(sample.timestamp!) * 1_000_000n, value, isStaleMarker(value));
    }
  }
  for (const entry of message.metadata ?? []) {
    if (!entry.metricFamilyName) continue;
    batch.metadata.push({
      metric: entry.metricFamilyName,
      type: METADATA_TYPES[entry.type ?? 0] ?? 'unknown',
      help: entry.help ?? '',
      unit: entry.unit ?? '',
    });
  }
}
