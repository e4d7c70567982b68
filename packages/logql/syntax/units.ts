// Durations and byte sizes as LogQL reads them: ranges take Prometheus' units (ms … y, combined as `1h30m`), label
// filters Go's time.ParseDuration (fractions, ns/us/µs/ms/s/m/h); byte sizes as go-humanize (1KB = 1000, 1KiB = 1024).

const UNIT_NS: Record<string, number> = {
  ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9, d: 86400e9, w: 7 * 86400e9, y: 365 * 86400e9,
};

/** Nanoseconds of a duration, or NaN when it is not one. `extended` allows d, w and y (query ranges). */
export function parseDurationNs(text: string, extended: boolean): number {
  let s = text.trim();
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return NaN;
  let total = 0;
  const re = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h|d|w|y)/;
  while (s.length > 0) {
    const m = re.exec(s);
    if (!m) return NaN;
    if (!extended && (m[2] === 'd' || m[2] === 'w' || m[2] === 'y')) return NaN;
    // Whole nanoseconds, as Go's durations are.
    total += Math.round(Number(m[1]) * UNIT_NS[m[2]]);
    s = s.slice(m[0].length);
  }
  return sign * total;
}

const BYTE_UNITS: Record<string, number> = {
  '': 1, b: 1,
  k: 1e3, kb: 1e3, m: 1e6, mb: 1e6, g: 1e9, gb: 1e9, t: 1e12, tb: 1e12, p: 1e15, pb: 1e15, e: 1e18, eb: 1e18,
  ki: 1024, kib: 1024, mi: 1024 ** 2, mib: 1024 ** 2, gi: 1024 ** 3, gib: 1024 ** 3, ti: 1024 ** 4, tib: 1024 ** 4,
  pi: 1024 ** 5, pib: 1024 ** 5, ei: 1024 ** 6, eib: 1024 ** 6,
};

/** Bytes of a size such as `42`, `1.5KB`, `2 MiB`, or undefined. */
export function parseBytes(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d*)?|\.\d+)\s*([a-zA-Z]*)\s*$/.exec(text.replace(/,/g, ''));
  if (!m) return undefined;
  const unit = BYTE_UNITS[m[2].toLowerCase()];
  return unit === undefined ? undefined : Number(m[1]) * unit;
}
