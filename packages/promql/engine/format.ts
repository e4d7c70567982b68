// The `data` object of Prometheus' HTTP API for a query result, numbers written as Prometheus writes them.

import type { Labels } from '../storage/querier';
import type { Value } from './value';

export type FormattedPoint = [number, string];

export interface FormattedResult {
  resultType: 'matrix' | 'vector' | 'scalar' | 'string';
  result: unknown;
}

export function formatResult(value: Value): FormattedResult {
  switch (value.type) {
    case 'scalar':
      return { resultType: 'scalar', result: [value.t / 1000, formatValue(value.v)] };
    case 'string':
      return { resultType: 'string', result: [value.t / 1000, value.v] };
    case 'vector':
      return {
        resultType: 'vector',
        result: value.samples.map((s) => ({ metric: copyLabels(s.labels), value: [s.t / 1000, formatPointValue(s.v)] })),
      };
    case 'matrix':
      return {
        resultType: 'matrix',
        result: value.series.map((s) => {
          const values: FormattedPoint[] = new Array(s.values.length);
          for (let i = 0; i < s.values.length; i++) values[i] = [s.timestampsMs[i] / 1000, formatPointValue(s.values[i])];
          return { metric: copyLabels(s.labels), values };
        }),
      };
  }
}

function copyLabels(labels: Labels): Labels {
  const out: Labels = {};
  for (const n of Object.keys(labels).sort()) out[n] = labels[n];
  return out;
}

/**
 * A sample value of a vector or matrix as Prometheus 2.42 writes it (its jsonutil.MarshalValue): as formatValue,
 * but in exponent form (Go's 'e' format: `1e-07`, `1.23e+22`) below 1e-6 and from 1e21 in magnitude. Scalars are
 * written by formatValue alone (`1e21` → "1000000000000000000000"), as 2.42 does.
 */
export function formatPointValue(v: number): string {
  const abs = Math.abs(v);
  if (abs !== 0 && Number.isFinite(v) && (abs < 1e-6 || abs >= 1e21)) {
    const [mantissa, exp] = v.toExponential().split('e');
    const e = Number(exp);
    return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  return formatValue(v);
}

/**
 * A float64 as Go's strconv.FormatFloat(v, 'f', -1, 64) writes it: the shortest digits that read back to the same
 * number, never an exponent (1e21 → "1000000000000000000000", 1e-7 → "0.0000001"); NaN, +Inf, -Inf as Prometheus.
 */
export function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const s = String(v);
  const e = s.indexOf('e');
  if (e < 0) return s;
  const negative = s[0] === '-';
  const mantissa = s.slice(negative ? 1 : 0, e);
  const exp = Number(s.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  // Position of the decimal point after the first digit, moved by the exponent.
  const point = (dot < 0 ? mantissa.length : dot) + exp;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${out}` : out;
}
