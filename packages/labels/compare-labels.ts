// Prometheus' labels.Compare, which both engines and the store use to order series: label by label in name order,
// name then value, bytewise; a set that is a prefix of the other sorts first.

export function compareLabels(a: Record<string, string>, b: Record<string, string>): number {
  const an = Object.keys(a).sort();
  const bn = Object.keys(b).sort();
  const n = Math.min(an.length, bn.length);
  for (let i = 0; i < n; i++) {
    if (an[i] !== bn[i]) return an[i] < bn[i] ? -1 : 1;
    const av = a[an[i]];
    const bv = b[bn[i]];
    if (av !== bv) return av < bv ? -1 : 1;
  }
  return an.length - bn.length;
}
