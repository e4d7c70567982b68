// PromQL's one duration grammar, as Prometheus 2.42 reads durations: literals (`[5m]`, `offset 1h30m`) and settings
// with model.ParseDuration (units y w d h m s ms, each at most once and in that order, whole numbers, `0`), and
// its HTTP API's parameters (`step`, `timeout`, `lookback_delta`) as seconds with a fraction or such a duration.

const DURATION_RE = /^(?:(\d+)y)?(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;
const UNITS: [string, number][] = [
  ['y', 365 * 86_400_000], ['w', 7 * 86_400_000], ['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000], ['ms', 1],
];
/** model.Duration is a count of nanoseconds in an int64. */
const MAX_MS = 9_223_372_036_854.775;

/** A duration in ms (`1h30m`, `5m`, `500ms`, `0`), or undefined when model.ParseDuration refuses it. */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const m = text === '' ? null : DURATION_RE.exec(text);
  if (!m) return undefined;
  let ms = 0;
  for (let i = 0; i < UNITS.length; i++) if (m[i + 1] !== undefined) ms += Number(m[i + 1]) * UNITS[i][1];
  return ms > MAX_MS ? undefined : ms;
}

/** A duration as Prometheus prints it (model.Duration.String): `1h30m`, `1w`, `0s`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  let out = '';
  let rest = ms;
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      out += `${n}${unit}`;
      rest -= n * size;
    }
  }
  return out;
}

// Go's strconv.ParseFloat: decimal with exponent, hexadecimal with a binary exponent, inf, infinity, nan.
const GO_FLOAT_RE = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+|inf|infinity|nan)$/i;

function goFloat(text: string): number | undefined {
  if (!GO_FLOAT_RE.test(text)) return undefined;
  const t = text.toLowerCase().replace(/^\+/, '');
  if (/^-?inf(inity)?$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (t === 'nan' || t === '-nan') return NaN;
  if (t.includes('0x')) {
    const neg = t.startsWith('-');
    const [mant, exp] = t.replace(/^-?0x/, '').split('p');
    const [int, frac = ''] = mant.split('.');
    const value = (parseInt(int || '0', 16) + (frac ? parseInt(frac, 16) / 16 ** frac.length : 0)) * 2 ** Number(exp);
    return neg ? -value : value;
  }
  return Number(t);
}

/**
 * An API duration parameter in ms, as Prometheus' parseDuration: a float is seconds (Go's ParseFloat syntax), else
 * model.ParseDuration. Throws the reference's reason (the caller adds `invalid parameter "<name>": `).
 */
export function parseSecondsOrDuration(text: string): number {
  const seconds = goFloat(text);
  if (seconds !== undefined) {
    const ns = seconds * 1e9;
    if (Number.isNaN(ns) || ns > 2 ** 63 - 1 || ns < -(2 ** 63)) {
      throw new Error(`cannot parse ${goQuote(text)} to a valid duration. It overflows int64`);
    }
    // time.Duration keeps whole nanoseconds.
    return Math.trunc(ns) / 1e6;
  }
  const ms = parseDuration(text);
  if (ms === undefined) throw new Error(`cannot parse ${goQuote(text)} to a valid duration`);
  return ms;
}

function goQuote(text: string): string {
  return JSON.stringify(text.length > 60 ? text.slice(0, 60) : text);
}
