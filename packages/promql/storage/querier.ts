// The seam between the PromQL engine and a store (as Prometheus' storage.Querier): the engine plans which series
// and which time window each selector needs and asks the store for exactly that; the store may push more of the
// work down (the hints say which function and range the samples are for) but must answer raw samples.

export type MatchOp = '=' | '!=' | '=~' | '!~';

/** A label matcher; `=~` and `!~` are RE2 patterns anchored at both ends (packages/re2-pattern). */
export interface LabelMatcher {
  name: string;
  op: MatchOp;
  value: string;
}

/** A series' labels, the metric name under `__name__`. */
export type Labels = Record<string, string>;

export interface SelectHints {
  /** First and last sample time the selector can need, in ms, both inclusive (lookback, range, offset and @ applied). */
  startMs: number;
  endMs: number;
  /** The query's step in ms (0 for an instant query). */
  stepMs: number;
  /** The function whose argument this selector is (`rate`, `sum_over_time` …), when there is one. */
  func?: string;
  /** The range of a range selector (`[5m]`) in ms. */
  rangeMs?: number;
  /** Labels of an aggregation directly over the selector (`sum by (le)`), and whether they are `by` or `without`. */
  grouping?: string[];
  by?: boolean;
  /**
   * The query's sample budget, shared by all its selectors: the store adds each series' sample count as it reads it,
   * before holding the samples, and stops when `add` throws (the query went past its maxSamples).
   */
  samples?: SampleBudget;
}

export interface SampleBudget {
  add(samples: number): void;
}

export interface Series {
  labels: Labels;
  /** Sample times in ms, ascending, no duplicates. */
  timestampsMs: Float64Array;
  values: Float64Array;
  /**
   * 1 where the sample is a Prometheus stale marker (NaN with the bits 0x7ff0000000000002): it ends the series at
   * that time for instant selection and is dropped from range vectors. Absent when the series has none.
   */
  stale?: Uint8Array;
}

export interface Querier {
  select(matchers: LabelMatcher[], hints: SelectHints, signal?: AbortSignal): Promise<Series[]>;
}
