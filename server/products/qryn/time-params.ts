import { IngestError } from './ingest/batch';
import { ReadError } from './read-error';

// The time parameters of the read calls: times and steps as Loki and Prometheus clients send them, and the default
// ranges (Loki's last hour, Prometheus' last day for its metadata calls).

const NS_PER_S = 1_000_000_000n;


/** Loki and Prometheus times: nanoseconds (Loki), seconds with fraction, or RFC 3339. */
export function parseTime(value: string | undefined, fallbackNs: bigint, unit: 'loki' | 'prometheus'): bigint {
  if (value === undefined || value === '') return fallbackNs;
  if (/^\d+$/.test(value) && unit === 'loki' && value.length > 12) return BigInt(value);
  if (/^-?\d+(\.\d+)?$/.test(value)) {
    const [whole, fraction = ''] = value.split('.');
    return BigInt(whole) * NS_PER_S + BigInt(fraction.padEnd(9, '0').slice(0, 9)) * (whole.startsWith('-') ? -1n : 1n);
  }
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ReadError(`Invalid time "${value.slice(0, 40)}".`);
  return BigInt(ms) * 1_000_000n;
}

/** A Prometheus step: seconds (with fraction) or a duration such as 15s, 1m, 1h. */
export function parseStep(value: string | undefined): bigint {
  if (!value) throw new ReadError('The step parameter is required.');
  const units: Record<string, bigint> = { ms: 1_000_000n, s: NS_PER_S, m: 60n * NS_PER_S, h: 3600n * NS_PER_S, d: 86_400n * NS_PER_S };
  const duration = /^(\d+)(ms|s|m|h|d)$/.exec(value);
  const ns = duration ? BigInt(duration[1]) * units[duration[2]] : /^\d+(\.\d+)?$/.test(value) ? parseTime(value, 0n, 'prometheus') : -1n;
  if (ns <= 0n) throw new ReadError('The step must be a positive duration.');
  return ns;
}

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
