import { Batch, IngestError, isRecord, parseRfc3339 } from './batch';

// Elastic-style bulk (POST /_bulk, /{index}/_bulk): NDJSON pairs of an action line ({"index": {...}} or
// {"create": {...}}) and a document. Each document is stored as one JSON log line in the stream {index="<name>"};
// its time is "@timestamp" (RFC 3339 or epoch milliseconds), else the time of arrival.

export interface BulkItem {
  action: 'index' | 'create';
  index: string;
}

export function decodeBulk(text: string, defaultIndex: string | undefined, nowNs: bigint, batch: Batch): BulkItem[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) throw new IngestError('The bulk body is empty.');
  if (lines.length % 2 !== 0) throw new IngestError('The bulk body must be pairs of an action line and a document line.');
  const items: BulkItem[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const action = parseJsonLine(lines[i], i + 1);
    const doc = parseJsonLine(lines[i + 1], i + 2);
    if (!isRecord(action) || Object.keys(action).length !== 1) throw new IngestError(`Line ${i + 1}: an action must be {"index": {...}} or {"create": {...}}.`);
    const [kind, meta] = Object.entries(action)[0];
    if (kind !== 'index' && kind !== 'create') throw new IngestError(`Line ${i + 1}: only index and create actions are supported.`);
    if (meta !== undefined && !isRecord(meta)) throw new IngestError(`Line ${i + 1}: the action metadata must be an object.`);
    const index = (meta?._index as unknown) ?? defaultIndex;
    if (typeof index !== 'string' || index === '') throw new IngestError(`Line ${i + 1}: no index given (in the path or _index).`);
    if (!isRecord(doc)) throw new IngestError(`Line ${i + 2}: a document must be a JSON object.`);
    const stamp = doc['@timestamp'];
    let ts = nowNs;
    if (typeof stamp === 'string') ts = parseRfc3339(stamp.replace(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/, '$1Z'));
    else if (typeof stamp === 'number' && Number.isSafeInteger(stamp)) ts = BigInt(stamp) * 1_000_000n;
    else if (stamp !== undefined) throw new IngestError(`Line ${i + 2}: @timestamp must be RFC 3339 text or epoch milliseconds.`);
    const fingerprint = batch.addSeries('logs', { index });
    batch.addLog(fingerprint, ts, JSON.stringify(doc));
    items.push({ action: kind, index });
  }
  return items;
}

function parseJsonLine(line: string, number: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new IngestError(`Line ${number} is not valid JSON.`);
  }
}
