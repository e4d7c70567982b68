import { Batch, IngestError } from './batch';
import { PromWriteRequest } from './protos';

// Prometheus remote write (snappy-compressed prometheus.WriteRequest). Timestamps are milliseconds.

interface WriteRequest {
  timeseries?: { labels?: { name?: string; value?: string }[]; samples?: { value?: number; timestamp?: string }[] }[];
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
      batch.addMetric(fingerprint, BigInt(sample.timestamp!) * 1_000_000n, sample.value ?? 0);
    }
  }
}
