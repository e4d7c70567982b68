// The values a query answers with (Prometheus' Scalar, String, Vector and Matrix), and the label helpers the
// engine shares.

import type { Labels } from '../storage/querier';

export interface Scalar {
  type: 'scalar';
  t: number;
  v: number;
}

export interface StringValue {
  type: 'string';
  t: number;
  v: string;
}

export interface Sample {
  labels: Labels;
  t: number;
  v: number;
}

export interface Vector {
  type: 'vector';
  samples: Sample[];
}

export interface MatrixSeries {
  labels: Labels;
  timestampsMs: Float64Array;
  values: Float64Array;
}

export interface Matrix {
  type: 'matrix';
  series: MatrixSeries[];
}

export type Value = Scalar | StringValue | Vector | Matrix;

const SEP = '\xff';

/** A label set's identity: its pairs in name order (Prometheus' labels hash, as a string). */
export function labelsKey(labels: Labels): string {
  const names = Object.keys(labels).sort();
  let key = '';
  for (const n of names) key += n + SEP + labels[n] + SEP;
  return key;
}

/** The labels without `__name__` (what functions and arithmetic answer with). */
export function dropName(labels: Labels): Labels {
  if (!('__name__' in labels)) return labels;
  const out: Labels = {};
  for (const n in labels) if (n !== '__name__') out[n] = labels[n];
  return out;
}

/** Labels as Prometheus prints them in messages: `{a="1", b="2"}`. */
export function labelsString(labels: Labels): string {
  const names = Object.keys(labels).sort();
  return `{${names.map((n) => `${n}=${JSON.stringify(labels[n])}`).join(', ')}}`;
}
