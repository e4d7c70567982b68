import { IngestError } from './ingest/batch';
import { parseTime } from './read';

// The default time ranges of the read calls: Loki's last hour, Prometheus' last day for its metadata calls.

const HOUR = 3600n * 1_000_000_000n;
const DAY = 86_400n * 1_000_000_000n;

export function lokiRange(params: URLSearchParams, now: bigint) {
  const endNs = parseTime(params.get('end') ?? undefined, now, 'loki');
  const startNs = parseTime(params.get('start') ?? undefined, endNs - HOUR, 'loki');
  if (startNs > endNs) throw new IngestError('The start time must not be after the end time.');
  return { startNs, endNs };
}

export function promRange(params: URLSearchParams, now: bigint) {
  const endNs = parseTime(params.get('end') ?? undefined, now, 'prometheus');
  const startNs = parseTime(params.get('start') ?? undefined, endNs - DAY, 'prometheus');
  if (startNs > endNs) throw new IngestError('The start time must not be after the end time.');
  return { startNs, endNs };
}
