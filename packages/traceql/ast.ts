// The syntax tree of a TraceQL query, shaped as Tempo's (grafana/tempo pkg/traceql/ast.go): a pipeline of stages
// (spanset expressions, scalar filters, by, select, coalesce), spanset operators between pipelines, and metrics
// queries (a pipeline ending in a metrics function, second stages, arithmetic between metrics queries).

/** The static types Tempo's validation reasons with; `attribute` is a value whose type is known only per span. */
export type ValueType = 'string' | 'int' | 'float' | 'duration' | 'bool' | 'status' | 'kind' | 'nil' | 'attribute';

export type Status = 'error' | 'ok' | 'unset';
export type Kind = 'unspecified' | 'internal' | 'server' | 'client' | 'producer' | 'consumer';

export type Static =
  | { type: 'string'; value: string }
  | { type: 'int' | 'float'; value: number }
  | { type: 'duration'; nanos: bigint }
  | { type: 'bool'; value: boolean }
  | { type: 'status'; value: Status }
  | { type: 'kind'; value: Kind }
  | { type: 'nil' };

export type Intrinsic =
  | 'duration' | 'name' | 'status' | 'statusMessage' | 'kind' | 'childCount' | 'spanId' | 'parentId'
  | 'traceId' | 'rootName' | 'rootServiceName' | 'traceDuration'
  | 'eventName' | 'eventTimeSinceStart' | 'linkTraceId' | 'linkSpanId'
  | 'instrumentationName' | 'instrumentationVersion'
  | 'nestedSetLeft' | 'nestedSetRight' | 'nestedSetParent' | 'parent';

export type AttributeScope = 'span' | 'resource' | 'event' | 'link' | 'instrumentation' | 'unscoped';

export type AttributeRef =
  | { scope: AttributeScope; name: string; parent?: boolean }
  | { scope: 'intrinsic'; name: Intrinsic; parent?: boolean };

export type CompareOp = '=' | '!=' | '>' | '>=' | '<' | '<=' | '=~' | '!~';
export type ArithOp = '+' | '-' | '*' | '/' | '%' | '^';
export type BinaryOp = CompareOp | ArithOp | '&&' | '||';

/** Inside `{ … }`, by(…), select(…) and aggregates. `exists` / `notExists` are `!= nil` / `= nil`, as Tempo reads them. */
export type FieldExpr =
  | { kind: 'static'; value: Static }
  | { kind: 'attribute'; ref: AttributeRef }
  | { kind: 'binary'; op: BinaryOp; left: FieldExpr; right: FieldExpr }
  | { kind: 'unary'; op: '!' | '-' | 'exists' | 'notExists'; expr: FieldExpr };

export type AggregateOp = 'count' | 'avg' | 'min' | 'max' | 'sum';

export type ScalarExpr =
  | { kind: 'aggregate'; op: AggregateOp; expr: FieldExpr | null }
  | { kind: 'static'; value: Static }
  | { kind: 'arith'; op: ArithOp; left: ScalarExpr; right: ScalarExpr };

/** The spanset operators: `&&`, `||`, the structural ones and their negated (`!>`) and union (`&>`) forms. */
export type SpansetOp =
  | '&&' | '||'
  | '>' | '>>' | '<' | '<<' | '~'
  | '!>' | '!>>' | '!<' | '!<<' | '!~'
  | '&>' | '&>>' | '&<' | '&<<' | '&~';

export type SpansetExpr =
  | { kind: 'filter'; expr: FieldExpr | null }
  | { kind: 'op'; op: SpansetOp; left: SpansetExpr; right: SpansetExpr }
  /** A parenthesised pipeline used as an operand of a spanset operator. */
  | { kind: 'pipeline'; pipeline: Pipeline };

export type Stage =
  | { kind: 'spanset'; expr: SpansetExpr }
  | { kind: 'scalarFilter'; op: CompareOp; left: ScalarExpr; right: ScalarExpr }
  | { kind: 'by'; exprs: FieldExpr[] }
  | { kind: 'select'; exprs: FieldExpr[] }
  | { kind: 'coalesce' };

export interface Pipeline {
  stages: Stage[];
}

export type MetricsFunction =
  | { fn: 'rate' | 'count_over_time' }
  | { fn: 'min_over_time' | 'max_over_time' | 'avg_over_time' | 'sum_over_time' | 'histogram_over_time'; attribute: AttributeRef }
  | { fn: 'quantile_over_time'; attribute: AttributeRef; quantiles: number[] }
  | { fn: 'compare'; filter: SpansetExpr; topN: number; start?: bigint; end?: bigint };
  // start and end are unix nanoseconds, beyond a double's exact integers, hence bigint.

export type SecondStage = { kind: 'topk' | 'bottomk'; n: number } | { kind: 'filter'; op: CompareOp; value: number };

export type MetricsExpr =
  | { kind: 'metrics'; pipeline: Pipeline; fn: MetricsFunction; by: FieldExpr[]; second: SecondStage[] }
  | { kind: 'number'; value: number }
  | { kind: 'math'; op: '+' | '-' | '*' | '/'; left: MetricsExpr; right: MetricsExpr; second: SecondStage[] };

export type Query =
  | { kind: 'search'; pipeline: Pipeline }
  | { kind: 'metrics'; expr: MetricsExpr; hints: Record<string, Static> };

export const STATUSES: readonly Status[] = ['error', 'ok', 'unset'];
export const KINDS: readonly Kind[] = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];

/** The type each intrinsic has (Tempo's Attribute.impliedType). */
export const INTRINSIC_TYPES: Record<Intrinsic, ValueType> = {
  duration: 'duration', traceDuration: 'duration', eventTimeSinceStart: 'duration',
  name: 'string', statusMessage: 'string', rootName: 'string', rootServiceName: 'string', spanId: 'string', parentId: 'string',
  traceId: 'string', eventName: 'string', linkTraceId: 'string', linkSpanId: 'string', instrumentationName: 'string', instrumentationVersion: 'string',
  status: 'status', kind: 'kind',
  childCount: 'int', nestedSetLeft: 'int', nestedSetRight: 'int', nestedSetParent: 'int',
  parent: 'nil',
};

/** How an intrinsic is written (the bare form where there is one, Tempo's String()). */
export const INTRINSIC_NAMES: Record<Intrinsic, string> = {
  duration: 'duration', name: 'name', status: 'status', statusMessage: 'statusMessage', kind: 'kind', childCount: 'childCount',
  spanId: 'span:id', parentId: 'span:parentID', traceId: 'trace:id', rootName: 'rootName', rootServiceName: 'rootServiceName',
  traceDuration: 'traceDuration', eventName: 'event:name', eventTimeSinceStart: 'event:timeSinceStart', linkTraceId: 'link:traceID',
  linkSpanId: 'link:spanID', instrumentationName: 'instrumentation:name', instrumentationVersion: 'instrumentation:version',
  nestedSetLeft: 'nestedSetLeft', nestedSetRight: 'nestedSetRight', nestedSetParent: 'nestedSetParent', parent: 'parent',
};

export function refText(ref: AttributeRef): string {
  if (ref.scope === 'intrinsic') return INTRINSIC_NAMES[ref.name];
  const name = /^[^\s{}()=~!<>&|^,"]+$/.test(ref.name) ? ref.name : JSON.stringify(ref.name);
  return `${ref.parent ? 'parent.' : ''}${ref.scope === 'unscoped' ? '' : ref.scope}.${name}`;
}

export function staticText(value: Static): string {
  switch (value.type) {
    case 'string':
      return JSON.stringify(value.value);
    case 'int':
    case 'float':
      return String(value.value);
    case 'duration':
      return formatDuration(value.nanos);
    case 'bool':
      return String(value.value);
    case 'nil':
      return 'nil';
    default:
      return value.value;
  }
}

function formatDuration(nanos: bigint): string {
  const units: [string, bigint][] = [['h', 3_600_000_000_000n], ['m', 60_000_000_000n], ['s', 1_000_000_000n], ['ms', 1_000_000n], ['µs', 1_000n], ['ns', 1n]];
  for (const [unit, size] of units) if (nanos % size === 0n && nanos !== 0n) return `${nanos / size}${unit}`;
  return '0s';
}

/** Tempo's rendering of a field expression (what its error messages quote). */
export function fieldText(expr: FieldExpr): string {
  switch (expr.kind) {
    case 'static':
      return staticText(expr.value);
    case 'attribute':
      return refText(expr.ref);
    case 'binary':
      return `(${fieldText(expr.left)} ${expr.op} ${fieldText(expr.right)})`;
    case 'unary':
      if (expr.op === 'exists') return `${fieldText(expr.expr)} != nil`;
      if (expr.op === 'notExists') return `${fieldText(expr.expr)} = nil`;
      return `${expr.op}${fieldText(expr.expr)}`;
  }
}

export function scalarText(expr: ScalarExpr): string {
  switch (expr.kind) {
    case 'aggregate':
      return `${expr.op}(${expr.expr ? fieldText(expr.expr) : ''})`;
    case 'static':
      return staticText(expr.value);
    case 'arith':
      return `(${scalarText(expr.left)} ${expr.op} ${scalarText(expr.right)})`;
  }
}
