// The LogQL syntax tree, as Loki's pkg/logql/syntax defines the language: a log query is a stream selector and a
// pipeline; a metric query aggregates log ranges over time and then across series.

export type MatchOp = '=' | '!=' | '=~' | '!~';

/** A label matcher; `=~` and `!~` are RE2 patterns anchored at both ends. */
export interface LabelMatcher {
  name: string;
  op: MatchOp;
  value: string;
}

export type LineFilterOp = '|=' | '!=' | '|~' | '!~' | '|>' | '!>';

/** `|= "a" or "b"`: the values are or-ed for the positive operators, and-ed (none may match) for the negative. */
export interface LineFilterStage {
  kind: 'line_filter';
  op: LineFilterOp;
  values: string[];
  /** `|= ip("…")`: the values are IP addresses, ranges or CIDR blocks (true when any value is an ip()). */
  ip: boolean;
  /**
   * Only when plain strings and ip() are or-ed in one filter (`|= "a" or ip("10.0.0.0/8")`, Loki 3): which values
   * are ip(); absent, `ip` holds for every value.
   */
  ipValues?: boolean[];
}

export type CompareOp = '==' | '!=' | '>' | '>=' | '<' | '<=';

export type LabelFilter =
  | { type: 'string'; matcher: LabelMatcher }
  | { type: 'number'; name: string; op: CompareOp; value: number }
  /** Durations in nanoseconds. */
  | { type: 'duration'; name: string; op: CompareOp; value: number }
  | { type: 'bytes'; name: string; op: CompareOp; value: number }
  | { type: 'ip'; name: string; op: '=' | '!='; value: string }
  | { type: 'and' | 'or'; left: LabelFilter; right: LabelFilter };

/** `json a="b.c"` / `logfmt a="b"` / `logfmt a`: the label and the path (or key) it is extracted from. */
export interface LabelExtraction {
  label: string;
  path: string;
}

export type Stage =
  | LineFilterStage
  | { kind: 'json'; extractions: LabelExtraction[] }
  | { kind: 'logfmt'; strict: boolean; keepEmpty: boolean; extractions: LabelExtraction[] }
  | { kind: 'regexp'; pattern: string }
  | { kind: 'pattern'; pattern: string }
  | { kind: 'unpack' }
  | { kind: 'label_filter'; filter: LabelFilter }
  | { kind: 'line_format'; template: string }
  /** `dst=src` renames, `dst="{{…}}"` templates. */
  | { kind: 'label_format'; items: { dst: string; src?: string; template?: string }[] }
  | { kind: 'drop'; items: { name: string; matcher?: LabelMatcher }[] }
  | { kind: 'keep'; items: { name: string; matcher?: LabelMatcher }[] }
  | { kind: 'decolorize' };

export interface LogSelectorExpr {
  kind: 'log';
  matchers: LabelMatcher[];
  stages: Stage[];
}

export type UnwrapConv = 'bytes' | 'duration' | 'duration_seconds';

export interface LogRangeExpr {
  selector: LogSelectorExpr;
  rangeNs: bigint;
  offsetNs: bigint;
  unwrap?: { label: string; conv?: UnwrapConv; filters: LabelFilter[] };
}

export type RangeOp =
  | 'count_over_time' | 'rate' | 'bytes_over_time' | 'bytes_rate' | 'absent_over_time'
  | 'sum_over_time' | 'avg_over_time' | 'min_over_time' | 'max_over_time' | 'stddev_over_time' | 'stdvar_over_time'
  | 'quantile_over_time' | 'first_over_time' | 'last_over_time' | 'rate_counter';

export type VectorOp = 'sum' | 'avg' | 'min' | 'max' | 'count' | 'stddev' | 'stdvar' | 'topk' | 'bottomk' | 'sort' | 'sort_desc';

export interface Grouping {
  without: boolean;
  labels: string[];
}

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '^' | '==' | '!=' | '>' | '>=' | '<' | '<=' | 'and' | 'or' | 'unless';

export type MetricExpr =
  | { kind: 'range_agg'; op: RangeOp; range: LogRangeExpr; param?: number; grouping?: Grouping }
  | { kind: 'vector_agg'; op: VectorOp; expr: MetricExpr; param?: number; grouping?: Grouping }
  | {
      kind: 'binary';
      op: BinaryOp;
      left: MetricExpr;
      right: MetricExpr;
      bool: boolean;
      matching?: { on: boolean; labels: string[]; group?: 'left' | 'right'; include: string[] };
    }
  | { kind: 'literal'; value: number }
  | { kind: 'vector'; value: number }
  | { kind: 'label_replace'; expr: MetricExpr; dst: string; replacement: string; src: string; regex: string };

export type Expr = LogSelectorExpr | MetricExpr;
