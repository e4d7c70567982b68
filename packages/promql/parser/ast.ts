// The PromQL syntax tree the engine evaluates (the shapes of Prometheus' promql/parser/ast.go). `@` and `offset`
// are folded into the selector or subquery they modify, as Prometheus does.

import type { LabelMatcher } from '../storage/querier';

export type ValueType = 'scalar' | 'vector' | 'matrix' | 'string';

export interface PosRange {
  start: number;
  end: number;
}

export interface NumberLiteral {
  kind: 'NumberLiteral';
  value: number;
  pos: PosRange;
}

export interface StringLiteral {
  kind: 'StringLiteral';
  value: string;
  pos: PosRange;
}

/** The `@` modifier: a fixed time in ms, or the query's start or end. */
export type AtModifier = { time: number } | { startOrEnd: 'start' | 'end' };

export interface VectorSelector {
  kind: 'VectorSelector';
  /** The metric name when written as `name{…}` (also present as an `=` matcher on `__name__`). */
  name?: string;
  matchers: LabelMatcher[];
  offsetMs: number;
  at?: AtModifier;
  pos: PosRange;
}

export interface MatrixSelector {
  kind: 'MatrixSelector';
  selector: VectorSelector;
  rangeMs: number;
  pos: PosRange;
}

export interface SubqueryExpr {
  kind: 'SubqueryExpr';
  expr: Expr;
  rangeMs: number;
  /** 0 when not written (`[5m:]`): the engine's default subquery step. */
  stepMs: number;
  offsetMs: number;
  at?: AtModifier;
  pos: PosRange;
}

export interface Call {
  kind: 'Call';
  func: string;
  args: Expr[];
  pos: PosRange;
}

export type AggregateOp =
  | 'sum' | 'avg' | 'count' | 'min' | 'max' | 'group' | 'stddev' | 'stdvar' | 'topk' | 'bottomk' | 'quantile' | 'count_values';

export interface AggregateExpr {
  kind: 'AggregateExpr';
  op: AggregateOp;
  expr: Expr;
  param?: Expr;
  grouping: string[];
  without: boolean;
  /** Whether `by`/`without` was written (for printing `sum by () (x)` back faithfully). */
  hasModifier: boolean;
  pos: PosRange;
}

export type BinaryOp =
  | '+' | '-' | '*' | '/' | '%' | '^' | 'atan2'
  | '==' | '!=' | '>' | '<' | '>=' | '<='
  | 'and' | 'or' | 'unless';

export type Cardinality = 'one-to-one' | 'many-to-one' | 'one-to-many' | 'many-to-many';

export interface VectorMatching {
  card: Cardinality;
  /** `on(…)` when true, `ignoring(…)` when false. */
  on: boolean;
  labels: string[];
  /** Labels named in group_left(…)/group_right(…), taken from the "one" side. */
  include: string[];
  /** Whether on/ignoring was written (printing). */
  explicit: boolean;
}

export interface BinaryExpr {
  kind: 'BinaryExpr';
  op: BinaryOp;
  lhs: Expr;
  rhs: Expr;
  returnBool: boolean;
  /** Present when both sides are instant vectors. */
  matching?: VectorMatching;
  pos: PosRange;
  /** Where the operator is written. */
  opPos?: PosRange;
}

export interface UnaryExpr {
  kind: 'UnaryExpr';
  op: '-' | '+';
  expr: Expr;
  pos: PosRange;
}

export interface ParenExpr {
  kind: 'ParenExpr';
  expr: Expr;
  pos: PosRange;
}

export type Expr =
  | NumberLiteral | StringLiteral | VectorSelector | MatrixSelector | SubqueryExpr | Call | AggregateExpr
  | BinaryExpr | UnaryExpr | ParenExpr;

export const COMPARISON_OPS = new Set<BinaryOp>(['==', '!=', '>', '<', '>=', '<=']);

/** Prometheus' operator precedence, loosest first; `^` alone associates to the right. */
export const BINARY_PRECEDENCE: Record<BinaryOp, number> = {
  or: 1, and: 2, unless: 2, '==': 3, '!=': 3, '>': 3, '<': 3, '>=': 3, '<=': 3, '+': 4, '-': 4, '*': 5, '/': 5, '%': 5,
  atan2: 5, '^': 6,
};
export const SET_OPS = new Set<BinaryOp>(['and', 'or', 'unless']);

/** The type an expression evaluates to (Prometheus' Expr.Type()). */
export function typeOf(expr: Expr): ValueType {
  switch (expr.kind) {
    case 'NumberLiteral':
      return 'scalar';
    case 'StringLiteral':
      return 'string';
    case 'VectorSelector':
    case 'AggregateExpr':
      return 'vector';
    case 'MatrixSelector':
    case 'SubqueryExpr':
      return 'matrix';
    case 'Call':
      return FUNCTION_RETURN[expr.func] ?? 'vector';
    case 'BinaryExpr':
      return typeOf(expr.lhs) === 'scalar' && typeOf(expr.rhs) === 'scalar' ? 'scalar' : 'vector';
    case 'UnaryExpr':
    case 'ParenExpr':
      return typeOf(expr.expr);
  }
}

export interface FunctionSignature {
  args: ValueType[];
  /** How many trailing arguments may be left out (date functions: 1; round: 1; label_join: the sources are variadic). */
  optional?: number;
  /** Any number of further arguments of the last type (label_join). */
  variadic?: boolean;
  returns: ValueType;
}

const V: ValueType = 'vector';
const M: ValueType = 'matrix';
const S: ValueType = 'scalar';
const STR: ValueType = 'string';

/** The functions of Prometheus 2.42, with their argument and return types. */
export const FUNCTIONS: Record<string, FunctionSignature> = {
  abs: { args: [V], returns: V },
  absent: { args: [V], returns: V },
  absent_over_time: { args: [M], returns: V },
  acos: { args: [V], returns: V },
  acosh: { args: [V], returns: V },
  asin: { args: [V], returns: V },
  asinh: { args: [V], returns: V },
  atan: { args: [V], returns: V },
  atanh: { args: [V], returns: V },
  avg_over_time: { args: [M], returns: V },
  ceil: { args: [V], returns: V },
  changes: { args: [M], returns: V },
  clamp: { args: [V, S, S], returns: V },
  clamp_max: { args: [V, S], returns: V },
  clamp_min: { args: [V, S], returns: V },
  cos: { args: [V], returns: V },
  cosh: { args: [V], returns: V },
  count_over_time: { args: [M], returns: V },
  days_in_month: { args: [V], optional: 1, returns: V },
  day_of_month: { args: [V], optional: 1, returns: V },
  day_of_week: { args: [V], optional: 1, returns: V },
  day_of_year: { args: [V], optional: 1, returns: V },
  deg: { args: [V], returns: V },
  delta: { args: [M], returns: V },
  deriv: { args: [M], returns: V },
  exp: { args: [V], returns: V },
  floor: { args: [V], returns: V },
  histogram_count: { args: [V], returns: V },
  histogram_fraction: { args: [S, S, V], returns: V },
  histogram_quantile: { args: [S, V], returns: V },
  histogram_sum: { args: [V], returns: V },
  holt_winters: { args: [M, S, S], returns: V },
  hour: { args: [V], optional: 1, returns: V },
  idelta: { args: [M], returns: V },
  increase: { args: [M], returns: V },
  irate: { args: [M], returns: V },
  label_replace: { args: [V, STR, STR, STR, STR], returns: V },
  label_join: { args: [V, STR, STR, STR], variadic: true, optional: 1, returns: V },
  last_over_time: { args: [M], returns: V },
  ln: { args: [V], returns: V },
  log10: { args: [V], returns: V },
  log2: { args: [V], returns: V },
  max_over_time: { args: [M], returns: V },
  min_over_time: { args: [M], returns: V },
  minute: { args: [V], optional: 1, returns: V },
  month: { args: [V], optional: 1, returns: V },
  pi: { args: [], returns: S },
  predict_linear: { args: [M, S], returns: V },
  present_over_time: { args: [M], returns: V },
  quantile_over_time: { args: [S, M], returns: V },
  rad: { args: [V], returns: V },
  rate: { args: [M], returns: V },
  resets: { args: [M], returns: V },
  round: { args: [V, S], optional: 1, returns: V },
  scalar: { args: [V], returns: S },
  sgn: { args: [V], returns: V },
  sin: { args: [V], returns: V },
  sinh: { args: [V], returns: V },
  sort: { args: [V], returns: V },
  sort_desc: { args: [V], returns: V },
  sqrt: { args: [V], returns: V },
  stddev_over_time: { args: [M], returns: V },
  stdvar_over_time: { args: [M], returns: V },
  sum_over_time: { args: [M], returns: V },
  tan: { args: [V], returns: V },
  tanh: { args: [V], returns: V },
  time: { args: [], returns: S },
  timestamp: { args: [V], returns: V },
  vector: { args: [S], returns: V },
  year: { args: [V], optional: 1, returns: V },
};

const FUNCTION_RETURN: Record<string, ValueType> = Object.fromEntries(
  Object.entries(FUNCTIONS).map(([name, sig]) => [name, sig.returns]),
);

/** Prometheus' names of the value types in its messages. */
export function typeName(type: ValueType): string {
  switch (type) {
    case 'scalar':
      return 'scalar';
    case 'string':
      return 'string';
    case 'vector':
      return 'instant vector';
    case 'matrix':
      return 'range vector';
  }
}
