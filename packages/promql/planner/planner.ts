// Which series each selector of a query needs, over which time window (Prometheus' FindMinMaxTime and
// getTimeRangesForSelector): the evaluation times of a node are widened by every enclosing subquery's range and
// offset (or fixed by its @), then by the selector's own offset and its range or the lookback. Identical
// selections are asked for once.
//
// Inside a subquery a selector is evaluated at the subquery's own steps (multiples of its step within its range),
// not at the query's: its hints carry that step and exactly the first and last of those times, so that a store may
// rely on `startMs + rangeMs + offset + k·stepMs` being the evaluation times (the step-window pushdown does).

import type { AtModifier, Expr, VectorSelector } from '../parser/ast';
import type { LabelMatcher, SelectHints } from '../storage/querier';

export interface Selection {
  matchers: LabelMatcher[];
  hints: SelectHints;
}

export interface Plan {
  selections: Selection[];
  /** For every selector node of the query: the index of its selection. */
  selectionOf: Map<VectorSelector, number>;
}

export interface PlanParams {
  startMs: number;
  endMs: number;
  stepMs: number;
  lookbackDeltaMs: number;
  /** Step of subqueries written without one (`[1h:]`); default 1 minute as in the evaluator. */
  subqueryStepMs?: number;
}

/**
 * The evaluation times of a subquery whose enclosing node is evaluated from `lo` to `hi`: the multiples of its step
 * (Go's truncating division, as Prometheus) from `lo − offset − range` to `hi − offset`. Shared by the planner and the
 * evaluator so that both agree on them. `count` is 0 when no multiple falls inside.
 */
export function subquerySteps(lo: number, hi: number, rangeMs: number, offsetMs: number, stepMs: number): { start: number; count: number } {
  const end = hi - offsetMs;
  const startBound = lo - offsetMs - rangeMs;
  let start = stepMs * Math.trunc(startBound / stepMs);
  if (start < startBound) start += stepMs;
  const count = start > end ? 0 : Math.floor((end - start) / stepMs) + 1;
  return { start, count };
}

/** The time `@` names: a fixed time, or the query's start or end. */
export function atTime(at: AtModifier, startMs: number, endMs: number): number {
  if ('time' in at) return at.time;
  return at.startOrEnd === 'start' ? startMs : endMs;
}

export function planQuery(expr: Expr, params: PlanParams): Plan {
  const selections: Selection[] = [];
  const byKey = new Map<string, number>();
  const selectionOf = new Map<VectorSelector, number>();

  const add = (vs: VectorSelector, lo: number, hi: number, stepMs: number, rangeMs: number | undefined, ctx: Ctx) => {
    let evalLo = lo;
    let evalHi = hi;
    if (vs.at) evalLo = evalHi = atTime(vs.at, params.startMs, params.endMs);
    const startMs = evalLo - vs.offsetMs - (rangeMs ?? params.lookbackDeltaMs);
    const endMs = evalHi - vs.offsetMs;
    const hints: SelectHints = { startMs, endMs, stepMs };
    if (ctx.func) hints.func = ctx.func;
    if (rangeMs !== undefined) hints.rangeMs = rangeMs;
    if (ctx.grouping) {
      hints.grouping = ctx.grouping.labels;
      hints.by = ctx.grouping.by;
    }
    const matchers = vs.matchers.map((m) => ({ name: m.name, op: m.op, value: m.value }));
    const key = JSON.stringify([matchers, hints]);
    let index = byKey.get(key);
    if (index === undefined) {
      index = selections.length;
      selections.push({ matchers, hints });
      byKey.set(key, index);
    }
    selectionOf.set(vs, index);
  };

  interface Ctx {
    func?: string;
    grouping?: { labels: string[]; by: boolean };
  }

  const subqueryStep = params.subqueryStepMs ?? 60_000;
  // lo, hi: the first and last evaluation time of the node; step: the distance between them (0: one time).
  const walk = (e: Expr, lo: number, hi: number, step: number, ctx: Ctx): void => {
    switch (e.kind) {
      case 'VectorSelector':
        add(e, lo, hi, step, undefined, ctx);
        return;
      case 'MatrixSelector':
        add(e.selector, lo, hi, step, e.rangeMs, ctx);
        return;
      case 'SubqueryExpr': {
        let l = lo;
        let h = hi;
        if (e.at) l = h = atTime(e.at, params.startMs, params.endMs);
        const inner = e.stepMs || subqueryStep;
        const { start, count } = subquerySteps(l, h, e.rangeMs, e.offsetMs, inner);
        // No evaluation time inside: the evaluator reads nothing, so nothing is asked for.
        if (count === 0) return;
        walk(e.expr, start, start + (count - 1) * inner, inner, {});
        return;
      }
      case 'ParenExpr':
        walk(e.expr, lo, hi, step, ctx);
        return;
      case 'UnaryExpr':
        walk(e.expr, lo, hi, step, {});
        return;
      case 'BinaryExpr':
        walk(e.lhs, lo, hi, step, {});
        walk(e.rhs, lo, hi, step, {});
        return;
      case 'Call':
        for (const a of e.args) walk(a, lo, hi, step, { func: e.func, grouping: ctx.grouping });
        return;
      case 'AggregateExpr':
        if (e.param) walk(e.param, lo, hi, step, {});
        walk(e.expr, lo, hi, step, { func: e.op, grouping: { labels: e.grouping, by: !e.without } });
        return;
      default:
        return;
    }
  };
  walk(expr, params.startMs, params.endMs, params.stepMs, {});
  return { selections, selectionOf };
}
