// Go's time values as Loki's templates use them: formatting with a Go layout (`2006-01-02T15:04:05Z07:00`) and
// time.ParseInLocation, which gives the zero time (year 1) when the value does not fit the layout, as Loki's
// toDate and toDateInZone ignore the error.

/** A time in ns since the epoch; prints as Go's time.Time.String() in UTC. */
export class GoTime {
  constructor(readonly ns: bigint) {}
  toString() {
    return formatGoTime(this.ns, '2006-01-02 15:04:05.999999999 -0700 MST');
  }
}

/** Go's zero time.Time, 0001-01-01 00:00:00 UTC. */
export const ZERO_TIME_NS = -62_135_596_800n * 1_000_000_000n;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const fraction = (ns: bigint) => String(((ns % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n).padStart(9, '0');
/** `.000…` prints that many digits; `.999…` at most that many, trailing zeros (and the dot) dropped. */
const fixed = (digits: number) => (_: Date, ns: bigint) => `.${fraction(ns).slice(0, digits)}`;
const trimmed = (digits: number) => (_: Date, ns: bigint) => {
  const f = fraction(ns).slice(0, digits).replace(/0+$/, '');
  return f ? `.${f}` : '';
};

const GO_LAYOUT: [string, (d: Date, ns: bigint) => string][] = [
  ['2006', (d) => String(d.getUTCFullYear()).padStart(4, '0')],
  ['January', (d) => MONTHS[d.getUTCMonth()]],
  ['Jan', (d) => MONTHS[d.getUTCMonth()].slice(0, 3)],
  ['Monday', (d) => DAYS[d.getUTCDay()]],
  ['Mon', (d) => DAYS[d.getUTCDay()].slice(0, 3)],
  ['MST', () => 'UTC'],
  ['01', (d) => String(d.getUTCMonth() + 1).padStart(2, '0')],
  ['02', (d) => String(d.getUTCDate()).padStart(2, '0')],
  ['15', (d) => String(d.getUTCHours()).padStart(2, '0')],
  ['03', (d) => String(d.getUTCHours() % 12 || 12).padStart(2, '0')],
  ['04', (d) => String(d.getUTCMinutes()).padStart(2, '0')],
  ['05', (d) => String(d.getUTCSeconds()).padStart(2, '0')],
  ['06', (d) => String(d.getUTCFullYear() % 100).padStart(2, '0')],
  ['-0700', () => '+0000'],
  ['-07:00', () => '+00:00'],
  ['Z07:00', () => 'Z'],
  ['PM', (d) => (d.getUTCHours() >= 12 ? 'PM' : 'AM')],
  ['.000000000', fixed(9)], ['.999999999', trimmed(9)], ['.000000', fixed(6)], ['.999999', trimmed(6)],
  ['.000', fixed(3)], ['.999', trimmed(3)],
  ['1', (d) => String(d.getUTCMonth() + 1)],
  ['2', (d) => String(d.getUTCDate())],
  ['3', (d) => String(d.getUTCHours() % 12 || 12)],
  ['4', (d) => String(d.getUTCMinutes())],
  ['5', (d) => String(d.getUTCSeconds())],
];

/** Formats a time (ns since the epoch, UTC) with a Go layout such as `2006-01-02T15:04:05Z07:00`. */
export function formatGoTime(ns: bigint, layout: string): string {
  const d = new Date(Number(ns / 1_000_000n));
  let out = '';
  let i = 0;
  outer: while (i < layout.length) {
    for (const [token, f] of GO_LAYOUT) {
      if (layout.startsWith(token, i)) {
        out += f(d, ns);
        i += token.length;
        continue outer;
      }
    }
    out += layout[i++];
  }
  return out;
}

// Layout elements read by time.Parse: [element, pattern, field].
const PARSE_PARTS: [string, string, string][] = [
  ['2006', '(\\d{4})', 'Y'], ['01', '(\\d{2})', 'M'], ['02', '(\\d{2})', 'D'], ['15', '(\\d{2})', 'h'], ['04', '(\\d{2})', 'm'],
  ['05', '(\\d{2})', 's'], ['.000000000', '\\.(\\d{9})', 'f'], ['.999999999', '(?:\\.(\\d+))?', 'f'], ['.000000', '\\.(\\d{6})', 'f'],
  ['.999999', '(?:\\.(\\d+))?', 'f'], ['.000', '\\.(\\d{3})', 'f'], ['.999', '(?:\\.(\\d+))?', 'f'],
  ['Z07:00', '(Z|[+-]\\d{2}:\\d{2})', 'z'], ['-07:00', '([+-]\\d{2}:\\d{2})', 'z'], ['-0700', '([+-]\\d{4})', 'z'], ['MST', '([A-Z]{3,4})', 'Z'],
];

/**
 * time.ParseInLocation: the value read with the layout, in `zone` (an IANA name; unknown names are UTC) unless the
 * value names its offset. As Go, seconds may be followed by a fraction the layout does not show.
 */
export function parseGoTime(layout: string, value: string, zone = 'UTC'): GoTime {
  const fields: string[] = [];
  let re = '';
  let i = 0;
  outer: while (i < layout.length) {
    for (const [token, pattern, name] of PARSE_PARTS) {
      if (layout.startsWith(token, i)) {
        re += pattern;
        fields.push(name);
        i += token.length;
        if (name === 's' && !/^[.,][09]/.test(layout.slice(i))) {
          re += '(?:[.,](\\d+))?';
          fields.push('f');
        }
        continue outer;
      }
    }
    re += layout[i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    i++;
  }
  const m = new RegExp(`^${re}$`).exec(value);
  if (!m) return new GoTime(ZERO_TIME_NS);
  const get = (n: string) => {
    for (let k = 0; k < fields.length; k++) if (fields[k] === n && m[k + 1] !== undefined) return m[k + 1];
    return undefined;
  };
  const wall = Date.UTC(Number(get('Y') ?? 0), Number(get('M') ?? 1) - 1, Number(get('D') ?? 1), Number(get('h') ?? 0), Number(get('m') ?? 0), Number(get('s') ?? 0));
  let ms = wall;
  const z = get('z');
  if (z && z !== 'Z') {
    const sign = z[0] === '-' ? -1 : 1;
    const digits = z.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  } else if (!z) ms -= zoneOffsetMs(zone, wall);
  const frac = get('f');
  return new GoTime(BigInt(ms) * 1_000_000n + (frac ? BigInt(frac.slice(0, 9).padEnd(9, '0')) : 0n));
}

/** The offset of an IANA zone from UTC at (about) a wall-clock time, in ms; 0 for UTC and unknown zones. */
function zoneOffsetMs(zone: string, wallMs: number): number {
  if (zone === 'UTC' || zone === '') return 0;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  } catch {
    return 0;
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(wallMs)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return asUtc - wallMs;
}
