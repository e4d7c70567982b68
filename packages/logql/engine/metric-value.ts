import type { LogQuerier } from '../storage/querier';
import type { Labels } from './labels';
import type { EngineLimits, QueryStats } from './evaluate';

// What the metric query's evaluators pass between them: the query's context and a value over all of its steps
// (a scalar, or series with one value or none per step).

export interface Ctx {
  querier: LogQuerier;
  steps: bigint[];
  stepNs: bigint;
  stats: QueryStats;
  limits: EngineLimits;
  signal?: AbortSignal;
}

export interface Series {
  labels: Labels;
  values: (number | undefined)[];
}

export type Value = { kind: 'scalar'; values: number[] } | { kind: 'vector'; series: Series[]; ordered?: boolean };
