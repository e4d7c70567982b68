import type { LogQuerier } from '../storage/querier';
import type { Labels } from './labels';
import type { EngineLimits, QueryStats } from './evaluate';

// What the metric query's step evaluators pass between them: the query's context, and one step's value at a time
// (a scalar, or a vector of labelled samples), as Loki's StepEvaluator: no evaluator holds the values of all steps.

export interface Ctx {
  querier: LogQuerier;
  steps: bigint[];
  stepNs: bigint;
  stats: QueryStats;
  limits: EngineLimits;
  signal?: AbortSignal;
}

/** One series' value at one step. */
export interface StepSample {
  labels: Labels;
  value: number;
}

/**
 * One step's value. `ordered`: the samples are in the answer's order (sort, sort_desc of an instant query), not to be
 * sorted by labels.
 */
export type StepValue = { kind: 'scalar'; value: number } | { kind: 'vector'; samples: StepSample[]; ordered?: boolean };

/**
 * Yields one value per step of the query, in step order; returning it early (`return()`) ends the reads it has
 * open.
 */
export type StepEvaluator = AsyncGenerator<StepValue, void, undefined>;
