// Which series each selector of a query needs, over which time window (Prometheus' FindMinMaxTime and
// getTimeRangesForSelector): the evaluation times of a node are widened by every enclosing subquery's range and
// offset (or fixed by its @), then by the selector's own offset and its range or the lookback. Identical
// selections are asked for once.

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

  const add = (vs: VectorSelector, lo: number, hi: number, rangeMs: number | undefined, ctx: Ctx) => {
    let evalLo = lo;
    let evalHi = hi;
    if (vs.at) evalLo = evalHi = atTime(vs.at, params.startMs, params.endMs);
    const startMs = evalLo - vs.offsetMs - (rangeMs ?? params.lookbackDeltaMs);
    const endMs = evalHi - vs.offsetMs;
    const hints: SelectHints = { startMs, endMs, stepMs: params.stepMs };
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

  const walk = (e: Expr, lo: number, hi: number, ctx: Ctx): void => {
    switch (e.kind) {
      case 'VectorSelector':
        add(e, lo, hi, undefined, ctx);
        return;
      case 'MatrixSelector':
        add(e.selector, lo, hi, e.rangeMs, ctx);
        return;
      case 'SubqueryExpr': {
        let l = lo;
        let h = hi;
        if (e.at) l = h = atTime(e.at, params.startMs, params.endMs);
        walk(e.expr, l - e.offsetMs - e.rangeMs, h - e.offsetMs, {});
        return;
      }
      case 'ParenExpr':
        walk(e.expr, lo, hi, ctx);
        return;
      case 'UnaryExpr':
        walk(e.expr, lo, hi, {});
        return;
      case 'BinaryExpr':
        walk(e.lhs, lo, hi, {});
        walk(e.rhs, lo, hi, {});
        return;
      case 'Call':
        for (const a of e.args) walk(a, lo, hi, { func: e.func, grouping: ctx.grouping });
        return;
      case 'AggregateExpr':
        if (e.param) walk(e.param, lo, hi, {});
        walk(e.expr, lo, hi, { func: e.op, grouping: { labels: e.grouping, by: !e.without } });
        return;
      default:
        return;
    }
  };
  walk(expr, params.startMs, params.endMs, {});
  return { selections, selectionOf };
}
