// The range a range query is evaluated over. Prometheus and Loki evaluate at start, start+step, … up to end, so with
// a step that does not divide the range the last point falls short of the end: "Last 7 days" at the auto step of
// 2,420 s ended 37 minutes before now, and a `count_over_time(…[7d])` there missed those minutes. The start is moved
// forward instead (by less than one step), so that the last point is the range's end, as the person asked.
import type { RangeMs } from '../../../../services/qryn-explorer';

export function endAlignedRange(range: RangeMs, stepSeconds: number): RangeMs {
  const stepMs = stepSeconds * 1000;
  if (!(stepMs > 0) || range.to <= range.from) return range;
  return { from: range.to - Math.floor((range.to - range.from) / stepMs) * stepMs, to: range.to };
}
