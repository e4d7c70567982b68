import type { LineFilterStage, LogSelectorExpr, Stage } from '../syntax/ast';

// What of a log query a store can do itself: stream selection by matchers, the time window, and the line filters
// that come before any stage that changes the line (a store sees the stored line, not a formatted one). ip() and
// pattern filters stay in the process. Counting per step is pushed down when the whole pipeline is such filters.

export interface LogPlan {
  pushed: LineFilterStage[];
  /** The stages still to run in the process, in order. */
  rest: Stage[];
  /** True when `rest` is empty: the store's lines are the answer as they are. */
  storeOnly: boolean;
}

const PUSHABLE_OPS = new Set(['|=', '!=', '|~', '!~']);

export function planLogSelector(expr: LogSelectorExpr): LogPlan {
  const pushed: LineFilterStage[] = [];
  let i = 0;
  for (; i < expr.stages.length; i++) {
    const s = expr.stages[i];
    if (s.kind !== 'line_filter') break;
    if (s.ip || !PUSHABLE_OPS.has(s.op)) break;
    pushed.push(s);
  }
  // Line filters after the first non-pushable one still only read the stored line while no stage has changed it;
  // keep them in the process for simplicity (they are rare in that position).
  const rest = expr.stages.slice(i);
  return { pushed, rest, storeOnly: rest.length === 0 };
}
