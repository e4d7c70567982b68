// LogQL's one duration grammar, as Loki reads durations (nanoseconds; NaN when not a duration):
// - a range `[5m]`: Prometheus' model.ParseDuration (units y w d h m s ms, each at most once, in that order);
// - literals (`offset 1h30m`, label filters `| latency > 1.5s`, `| age > 2d`): model.ParseDuration, else Go's
//   time.ParseDuration (fractions, ns us µs ms s m h, units repeated in any order, a sign);
// - values read from log lines (`duration` label filters, `unwrap duration()`, templates): Go's time.ParseDuration;
// - API parameters (`step`, `interval`): seconds as a float, else model.ParseDuration.

const MODEL_RE = /^(?:(\d+)y)?(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;
const MODEL_UNITS_NS = [365 * 86_400e9, 7 * 86_400e9, 86_400e9, 3_600e9, 60e9, 1e9, 1e6];
const GO_UNITS_NS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3_600e9 };
/** Both grammars keep a duration in an int64 of nanoseconds. */
const MAX_NS = 2 ** 63 - 1;

/** model.ParseDuration: `0`, or whole numbers with y w d h m s ms in that order, each at most once. */
export function parseModelDurationNs(text: string): number {
  if (text === '0') return 0;
  const m = text === '' ? null : MODEL_RE.exec(text);
  if (!m) return NaN;
  let ns = 0;
  for (let i = 0; i < MODEL_UNITS_NS.length; i++) if (m[i + 1] !== undefined) ns += Number(m[i + 1]) * MODEL_UNITS_NS[i];
  return ns > MAX_NS ? NaN : ns;
}

/** Go's time.ParseDuration: `[-+]` then numbers with a fraction and a unit each (`1h30m`, `1.5s`, `2m2m`), or `0`. */
export function parseGoDurationNs(text: string): number {
  let s = text;
  let sign = 1;
  if (s[0] === '-' || s[0] === '+') {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return NaN;
  let total = 0;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?([^\d.]*)/.exec(s)!;
    const [all, whole, frac, unit] = m;
    if (whole === '' && (frac === undefined || frac === '')) return NaN;
    const size = GO_UNITS_NS[unit];
    if (size === undefined) return NaN;
    // Whole nanoseconds: Go adds the fraction as its digits times the unit over their scale, truncated.
    total += Number(whole || '0') * size + (frac ? Math.trunc(Number(frac) * (size / 10 ** frac.length)) : 0);
    if (total > MAX_NS + 1) return NaN;
    s = s.slice(all.length);
  }
  return sign * total;
}

/** A duration literal of a query (offset, label filters): model.ParseDuration first, then Go's. */
export function parseDurationLiteralNs(text: string): number {
  const ns = parseModelDurationNs(text);
  return Number.isNaN(ns) ? parseGoDurationNs(text) : ns;
}

/**
 * An API step or interval, as Loki's parseSecondsOrDuration: seconds (a float) or model.ParseDuration. Throws the
 * reference's reason; the caller names the parameter.
 */
export function parseSecondsOrDurationNs(text: string): number {
  if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text) || /^[+-]?(inf|infinity)$/i.test(text)) {
    const ns = Number(text.replace(/^\+?(inf|infinity)$/i, 'Infinity').replace(/^-(inf|infinity)$/i, '-Infinity')) * 1e9;
    if (Math.abs(ns) > MAX_NS) throw new Error(`cannot parse "${text}" to a valid duration. It overflows int64`);
    return Math.trunc(ns);
  }
  const ns = parseModelDurationNs(text);
  if (Number.isNaN(ns)) throw new Error(`cannot parse "${text}" to a valid duration`);
  return ns;
}
