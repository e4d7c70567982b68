import { IngestError } from '../ingest/batch';
import { ReadError } from './read-error';
import { parseSecondsOrDurationNs } from '../../../../packages/logql/syntax/duration';

// The time parameters of the read calls: times and steps as Loki and Prometheus clients send them, and the default
// ranges (Loki's last hour, Prometheus' last day for its metadata calls).

const NS_PER_S = 1_000_000_000n;


/**
 * The times a read accepts: from the epoch to the end of 9999 (what RFC 3339 can write). Earlier or later times
 * cannot name stored data (days are partitions of ClickHouse Date, 1970–2105) and would overflow the date
 * arithmetic of the reads: they are refused with a reason (400) rather than failing further on.
 */
export const MIN_TIME_NS = 0n;
export const MAX_TIME_NS = 253_402_300_799n * NS_PER_S;

/** Loki and Prometheus times: nanoseconds (Loki), seconds with fraction, or RFC 3339. */
export function parseTime(value: string | undefined, fallbackNs: bigint, unit: 'loki' | 'prometheus', name = 'time'): bigint {
  if (value === undefined || value === '') return fallbackNs;
  const ns = parseTimeValue(value, unit);
  if (ns < MIN_TIME_NS || ns > MAX_TIME_NS) throw new ReadError(`The ${name} "${value.slice(0, 40)}" is out of range: times between 1970 and 9999 are accepted.`);
  return ns;
}

function parseTimeValue(value: string, unit: 'loki' | 'prometheus'): bigint {
  if (value.length > 64) throw new ReadError(`Invalid time "${value.slice(0, 40)}…".`);
  if (/^\d+$/.test(value) && unit === 'loki' && value.length > 12) return BigInt(value);
  if (/^-?\d+(\.\d+)?$/.test(value)) {
    const [whole, fraction = ''] = value.split('.');
    return BigInt(whole) * NS_PER_S + BigInt(fraction.padEnd(9, '0').slice(0, 9)) * (whole.startsWith('-') ? -1n : 1n);
  }
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ReadError(`Invalid time "${value.slice(0, 40)}".`);
  return BigInt(ms) * 1_000_000n;
}

/** The longest step accepted (a year: a larger one cannot give two points of any range that holds data). */
const MAX_STEP_NS = 366n * 86_400n * NS_PER_S;

/** A Loki step: seconds (with fraction) or a duration such as 15s, 1m30s, 1h (Loki's parseSecondsOrDuration). */
export function parseStep(value: string | undefined): bigint {
  if (!value) throw new ReadError('The step parameter is required.');
  let ns = -1n;
  try {
    if (value.length <= 32) ns = BigInt(parseSecondsOrDurationNs(value));
  } catch {
    // Refused below with the reason.
  }
  if (ns <= 0n) throw new ReadError('The step must be a positive duration.');
  if (ns > MAX_STEP_NS) throw new ReadError('The step must be at most a year (366d).');
  return ns;
}

const clampLow = (ns: bigint) => (ns < MIN_TIME_NS ? MIN_TIME_NS : ns);
const HOUR = 3600n * 1_000_000_000n;
const DAY = 86_400n * 1_000_000_000n;

export function lokiRange(params: URLSearchParams, now: bigint) {
  const endNs = parseTime(params.get('end') ?? undefined, now, 'loki', 'end');
  const startNs = parseTime(params.get('start') ?? undefined, clampLow(endNs - HOUR), 'loki', 'start');
  if (startNs > endNs) throw new IngestError('The start time must not be after the end time.');
  return { startNs, endNs };
}

export function promRange(params: URLSearchParams, now: bigint) {
  const endNs = parseTime(params.get('end') ?? undefined, now, 'prometheus', 'end');
  const startNs = parseTime(params.get('start') ?? undefined, clampLow(endNs - DAY), 'prometheus', 'start');
  if (startNs > endNs) throw new IngestError('The start time must not be after the end time.');
  return { startNs, endNs };
}
