// Label sets as the engine keys and prints them.

export type Labels = Record<string, string>;

/** A canonical key of a label set (sorted names). */
export function labelsKey(labels: Labels): string {
  const names = Object.keys(labels).sort();
  let out = '';
  for (const n of names) out += `${n}\u0000${labels[n]}\u0001`;
  return out;
}

/** `{a="b", c="d"}` as Loki and Prometheus print a label set (the order of streams and series in answers). */
export function labelsString(labels: Labels): string {
  return `{${Object.keys(labels).sort().map((n) => `${n}=${JSON.stringify(labels[n])}`).join(', ')}}`;
}

export function sortedLabels(labels: Labels): Labels {
  const out: Labels = {};
  for (const n of Object.keys(labels).sort()) out[n] = labels[n];
  return out;
}

/** A sample value as Prometheus and Loki print it (Go's FormatFloat 'f', -1: no exponent). */
export function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  const s = String(v);
  if (!s.includes('e')) return s;
  const [mant, expText] = s.split('e');
  const exp = Number(expText);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  const point = (mant.replace('-', '').indexOf('.') < 0 ? mant.replace('-', '').length : mant.replace('-', '').indexOf('.')) + exp;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (neg ? '-' : '') + out;
}

/** A step time in seconds as a JSON number (Loki answers `[1700000000.5, "1"]`, milliseconds precision). */
export function stepSeconds(ns: bigint): number {
  return Number(ns / 1_000_000n) / 1000;
}
