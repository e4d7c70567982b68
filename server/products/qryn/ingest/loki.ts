import { Batch, IngestError, isRecord, parseNanos, parseRfc3339 } from './batch';
import { LokiPushRequest, longText } from './protos';
import { parseStreamLabels } from './selectors';

// Loki push (POST /loki/api/v1/push): JSON `{streams: [{stream: {labels}, values: [["<ns>", "line", {metadata}?]]}]}`
// (and the older `{streams: [{labels: "{…}", entries: [{ts, line}]}]}`), or protobuf logproto.PushRequest.

export function decodeLokiJson(body: unknown, batch: Batch): void {
  if (!isRecord(body) || !Array.isArray(body.streams)) throw new IngestError('The body must be {"streams": [...]}.');
  for (const stream of body.streams) {
    if (!isRecord(stream)) throw new IngestError('Each stream must be an object.');
    if (stream.stream !== undefined || stream.values !== undefined) {
      if (!isRecord(stream.stream)) throw new IngestError('stream.stream must be an object of labels.');
      if (!Array.isArray(stream.values)) throw new IngestError('stream.values must be an array.');
      const fingerprint = batch.addSeries('logs', stream.stream as Record<string, string>);
      for (const value of stream.values) {
        if (!Array.isArray(value) || value.length < 2 || value.length > 3) throw new IngestError('Each value must be ["<timestamp ns>", "<line>"].');
        if (value.length === 3 && !isRecord(value[2])) throw new IngestError('Structured metadata must be an object.');
        batch.addLog(fingerprint, parseNanos(value[0]), value[1] as string);
      }
    } else {
      if (typeof stream.labels !== 'string') throw new IngestError('Each stream needs "stream" labels or a "labels" selector.');
      if (!Array.isArray(stream.entries)) throw new IngestError('stream.entries must be an array.');
      const fingerprint = batch.addSeries('logs', parseStreamLabels(stream.labels));
      for (const entry of stream.entries) {
        if (!isRecord(entry)) throw new IngestError('Each entry must be an object.');
        const ts = entry.ts ?? entry.timestamp;
        batch.addLog(fingerprint, typeof ts === 'string' && ts.includes('T') ? parseRfc3339(ts) : parseNanos(ts), entry.line as string);
      }
    }
  }
}

interface ProtoPush {
  streams?: { labels?: string; entries?: { timestamp?: { seconds?: unknown; nanos?: number }; line?: string }[] }[];
}

export function decodeLokiProto(bytes: Uint8Array, batch: Batch): void {
  let message: ProtoPush;
  try {
    message = LokiPushRequest.decode(bytes) as ProtoPush;
  } catch (error) {
    throw new IngestError(`The body is not a Loki PushRequest: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const stream of message.streams ?? []) {
    const fingerprint = batch.addSeries('logs', parseStreamLabels(stream.labels ?? ''));
    for (const entry of stream.entries ?? []) {
      const seconds = BigInt(longText(entry.timestamp?.seconds ?? 0));
      const nanos = BigInt(entry.timestamp?.nanos ?? 0);
      if (nanos < 0n || nanos > 999_999_999n) throw new IngestError('An entry timestamp has invalid nanoseconds.');
      batch.addLog(fingerprint, seconds * 1_000_000_000n + nanos, entry.line ?? '');
    }
  }
}
