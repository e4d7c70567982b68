// Byte sizes as LogQL reads them, as go-humanize (1KB = 1000, 1KiB = 1024); durations are duration.ts.

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
