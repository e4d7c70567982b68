// How the explorer shows and names results. The instances answer values as strings with every digit of a float64
// (`0.30000000000000004`), which a table column of hundreds of rows makes unreadable; the screen shows at most
// VALUE_DIGITS significant digits and the downloads keep every digit. The legend's time is to the second when points
// are less than a minute apart (uPlot's default stops at the minute, so neighbouring points looked the same).
import { formatInZone } from './time-zone';

export const VALUE_DIGITS = 6;

/** A sample value for the screen: at most VALUE_DIGITS significant digits; NaN, ±Inf and non-numbers as they came. */
export function displayValue(value: string): string {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) return value;
  return String(Number(n.toPrecision(VALUE_DIGITS)));
}

/** The legend's time in the explorer's zone: to the second when the step is under a minute, else to the minute. */
export function legendTime(epochSeconds: number, stepSeconds: number, zone = 'UTC'): string {
  return formatInZone(epochSeconds * 1000, zone, stepSeconds < 60 ? 'second' : 'minute');
}

/** The smallest gap between neighbouring points, in seconds (the step of a range answer); Infinity for one point. */
export function smallestStep(xs: readonly number[]): number {
  let step = Infinity;
  for (let i = 1; i < xs.length; i++) step = Math.min(step, xs[i]! - xs[i - 1]!);
  return step;
}

/**
 * A download's file name without extension: the query and the instance, then the end of the range read (UTC: the
 * time the data is of, so two downloads of one result have one name), e.g. `rate-http_requests_total-job-api-5m__0123456789abcdef__2026-11-29T07-42-05Z`. Characters file
 * systems refuse or mangle become dashes; the query part is cut at 60 characters.
 */
export function exportName(what: string, instanceUrl: string, at: number): string {
  const slug = (text: string) => text.replace(/[^\w.]+/g, '-').replace(/^-+|-+$/g, '');
  const query = slug(what).slice(0, 60).replace(/-+$/, '') || 'query';
  const instance = slug(instanceUrl.split('/').filter(Boolean).pop() ?? '');
  const time = new Date(at).toISOString().slice(0, 19).replace(/:/g, '-') + 'Z';
  return [query, instance, time].filter(Boolean).join('__');
}
