import { toClickHouseRegex } from '../re2-pattern/re2-pattern';
import type { AttributeRef, CompareOp, FieldExpr, Pipeline, SpansetExpr, Static } from './ast';

// The pushdown of a TraceQL search into ClickHouse (18.16): which traces can answer at all. Each spanset filter whose
// conditions translate exactly becomes a condition on a span row; the query becomes a condition on a trace's group
// of rows that every answering trace satisfies (`{a} && {b}`: a span matching a and one matching b; a structural
// `{a} > {b}` needs both; a later pipeline filter `| {c}` needs a span matching c). The evaluator (evaluate.ts) then
// runs the whole query on the spans of those traces, so what is not translated (`!`, arithmetic, events, links,
// scalar filters) only widens the candidates, never changes an answer. The spans table's columns:
//   name, service_name, kind ('SERVER', 'CLIENT', …; '' or 'UNSPECIFIED' when unknown), status_code (0 unset, 1 ok,
//   2 error), duration_ns, trace_id, parent_id ('' for a root span), timestamp_ns,
//   attribute_keys / attribute_values (span attributes), resource_keys / resource_values (resource attributes).
// Values are text; comparisons follow field-eval.ts's rules (a number compares with text that reads as a number).

export interface SpanTable {
  /** The spans table, qualified (`qryn_x.spans`). */
  table: string;
  /** A condition that bounds the rows trace-level intrinsics look at (the search's days), e.g. `date BETWEEN …`. */
  bound: string;
  /**
   * The condition on the rows the evaluator reads (the search's or the metrics' range). Relations between spans
   * (`&&` of spansets, structural operators) are pushed down only when it is given: they must see the same spans.
   */
  rows?: string;
}

const NUMERIC = `'^-?[0-9]+(\\\\.[0-9]+)?([eE][-+]?[0-9]+)?$'`;

export function sqlString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function numberSql(value: Static): string | null {
  if (value.type === 'duration') return value.nanos.toString();
  if ((value.type === 'int' || value.type === 'float') && Number.isFinite(value.value)) return String(value.value);
  return null;
}

const ORDER_OPS = new Set<CompareOp>(['=', '!=', '>', '>=', '<', '<=']);

/** A text expression `v` compared with a static value, or null when not translated. */
function textCompare(v: string, op: CompareOp, value: Static): string | null {
  switch (value.type) {
    case 'string':
      if (op === '=~') return `match(${v}, ${sqlString(toClickHouseRegex(value.value, true))})`;
      if (op === '!~') return `NOT match(${v}, ${sqlString(toClickHouseRegex(value.value, true))})`;
      // Ordering of strings is left to the evaluator (byte order here, code units there).
      return op === '=' || op === '!=' ? `${v} ${op} ${sqlString(value.value)}` : null;
    case 'int':
    case 'float':
    case 'duration': {
      const n = numberSql(value);
      return n === null || !ORDER_OPS.has(op) ? null : `(match(${v}, ${NUMERIC}) AND toFloat64OrZero(${v}) ${op} ${n})`;
    }
    case 'bool':
      if (op === '=') return `${v} = '${value.value}'`;
      if (op === '!=') return `(${v} IN ('true', 'false') AND ${v} != '${value.value}')`;
      return null;
    default:
      return null;
  }
}

/**
 * The stored types a comparison with this static can hold for (field-eval.ts: a typed value compares only with its
 * own kind; an untyped one — older rows, lists — as text; arrays are compared by arrayCompare).
 */
function typeCondition(value: Static, t = 't'): string {
  if (value.type === 'string') return `${t} NOT IN ('i', 'd', 'b')`;
  if (value.type === 'bool') return `${t} NOT IN ('s', 'i', 'd')`;
  return `${t} NOT IN ('s', 'b')`;
}

/**
 * The elements of a stored array attribute `v` (the ingest writes a JSON array of the elements' texts): each JSON
 * string in turn, left to right, as its escaped text. The scan takes whole strings (an escaped quote stays inside),
 * so the list is the elements; an element's escaped text is its text unless it holds a quote, a backslash or a
 * control character. (The regex's `\\` is written `\\\\` in the SQL literal and twice that in this template.)
 */
const ELEMENTS = `extractAll(v, '"((?:[^"\\\\\\\\]|\\\\\\\\.)*)"')`;
/**
 * The elements' types, by position: the stored type's letters after its `a` (field-eval.ts's elementType: nested
 * arrays and lists, and arrays stored before element types were, are '' — untyped).
 */
const ELEMENT_TYPES = `arrayMap(elem_pos -> if(substring(t, elem_pos + 1, 1) IN ('s', 'i', 'd', 'b'), substring(t, elem_pos + 1, 1), ''), arrayEnumerate(${ELEMENTS}))`;

/**
 * A stored array compared with a static as field-eval.ts's compareArray does: `!=` and `!~` when every element
 * satisfies them, the others when one does; an element compares only when its type may (typeCondition). Exact for strings (`=`, `!=`: the element's escaped text against the
 * static's, both JSON escapes), numbers (an element with an escape never reads as one) and booleans; a regex is
 * tried on the escaped text, and an element that holds an escape is let through (wider: the evaluator decides).
 */
function arrayCompare(op: CompareOp, value: Static): string | null {
  const some = (c: string) => `arrayExists((e, elem_type) -> ${typeCondition(value, 'elem_type')} AND ${c}, ${ELEMENTS}, ${ELEMENT_TYPES})`;
  const every = (c: string) => `arrayAll((e, elem_type) -> ${typeCondition(value, 'elem_type')} AND ${c}, ${ELEMENTS}, ${ELEMENT_TYPES})`;
  const escaped = (text: string) => sqlString(JSON.stringify(text).slice(1, -1));
  if (value.type === 'string') {
    if (op === '=') return some(`e = ${escaped(value.value)}`);
    if (op === '!=') return every(`e != ${escaped(value.value)}`);
    const re = sqlString(toClickHouseRegex(value.value, true));
    if (op === '=~') return some(`(match(e, ${re}) OR position(e, '\\\\') > 0)`);
    if (op === '!~') return every(`(NOT match(e, ${re}) OR position(e, '\\\\') > 0)`);
    return null;
  }
  const c = textCompare('e', op, value);
  if (c === null) return null;
  return op === '!=' ? every(c) : some(c);
}

/** Whether arrayCompare's condition is the evaluator's (not only wider). */
const arrayCompareExact = (op: CompareOp) => op !== '=~' && op !== '!~';

function inArrays(keys: string, values: string, types: string, name: string, op: CompareOp, value: Static): string | null {
  const c = textCompare('v', op, value);
  const a = arrayCompare(op, value);
  // Rows stored before types were have no types: each value is then untyped ('').
  const typeList = `if(empty(${types}), arrayMap(x -> '', ${keys}), ${types})`;
  if (c === null || a === null) return null;
  return `arrayExists((k, v, t) -> k = ${sqlString(name)} AND if(substring(t, 1, 1) = 'a', ${a}, ${typeCondition(value)} AND ${c}), ${keys}, ${values}, ${typeList})`;
}

const SPAN = ['attribute_keys', 'attribute_values', 'attribute_types'] as const;
const RESOURCE = ['resource_keys', 'resource_values', 'resource_types'] as const;
const SCOPE = ['scope_keys', 'scope_values', 'scope_types'] as const;

function resourceCompare(name: string, op: CompareOp, value: Static): string | null {
  // The service name has its own column (Zipkin spans carry it there only).
  if (name === 'service.name') {
    const c = textCompare('service_name', op, value);
    return c === null ? null : `(service_name != '' AND ${c})`;
  }
  return inArrays(...RESOURCE, name, op, value);
}

const STATUS_CODES = { unset: 0, ok: 1, error: 2 } as const;

function compareSql(ref: AttributeRef, op: CompareOp, value: Static, table: SpanTable): string | null {
  switch (ref.scope) {
    case 'span':
      return inArrays(...SPAN, ref.name, op, value);
    case 'resource':
      return resourceCompare(ref.name, op, value);
    case 'instrumentation':
      return inArrays(...SCOPE, ref.name, op, value);
    case 'unscoped': {
      const a = inArrays(...SPAN, ref.name, op, value);
      const b = resourceCompare(ref.name, op, value);
      return a === null || b === null ? null : `(${a} OR ${b})`;
    }
    case 'intrinsic':
      switch (ref.name) {
        case 'name':
          return textCompare('name', op, value);
        case 'status':
          return value.type === 'status' && (op === '=' || op === '!=') ? `status_code ${op} ${STATUS_CODES[value.value]}` : null;
        case 'kind': {
          if (value.type !== 'kind' || (op !== '=' && op !== '!=')) return null;
          const kinds = value.value === 'unspecified' ? `('', 'UNSPECIFIED')` : `('${value.value.toUpperCase()}')`;
          return `kind ${op === '=' ? 'IN' : 'NOT IN'} ${kinds}`;
        }
        case 'duration': {
          const n = numberSql(value);
          return n === null || !ORDER_OPS.has(op) ? null : `duration_ns ${op} ${n}`;
        }
        case 'instrumentationName':
        case 'instrumentationVersion': {
          // Spans without a scope (Zipkin's, older rows) hold '' there: no value, as the evaluator reads it.
          const column = ref.name === 'instrumentationName' ? 'scope_name' : 'scope_version';
          const c = textCompare(column, op, value);
          return c === null ? null : `(${column} != '' AND ${c})`;
        }
        case 'rootName':
        case 'rootServiceName': {
          const c = textCompare(ref.name === 'rootName' ? 'name' : 'service_name', op, value);
          return c === null ? null : `trace_id IN (SELECT trace_id FROM ${table.table} WHERE ${table.bound} AND parent_id = '' AND ${c})`;
        }
        case 'traceDuration': {
          // Only lower bounds: the subquery sees the whole days, so a trace's duration there is at least the one the
          // evaluator computes from the spans in the range.
          const n = numberSql(value);
          return n === null || (op !== '>' && op !== '>=')
            ? null
            : `trace_id IN (SELECT trace_id FROM ${table.table} WHERE ${table.bound} GROUP BY trace_id HAVING max(timestamp_ns + duration_ns) - min(timestamp_ns) ${op} ${n})`;
        }
        default:
          return null;
      }
    default:
      return null;
  }
}

function presenceSql(ref: AttributeRef, present: boolean): string | null {
  const has = (keys: string) => `has(${keys}, ${sqlString(ref.name)})`;
  const service = ref.name === 'service.name';
  let sql: string;
  if (ref.scope === 'span') sql = has(SPAN[0]);
  else if (ref.scope === 'resource') sql = service ? `service_name != ''` : has(RESOURCE[0]);
  else if (ref.scope === 'instrumentation') sql = has(SCOPE[0]);
  else if (ref.scope === 'unscoped') sql = `(${has(SPAN[0])} OR ${service ? `service_name != ''` : has(RESOURCE[0])})`;
  else return null;
  return present ? sql : `NOT ${sql}`;
}

/** A condition on a span row that every span matching the filter satisfies; null when nothing narrower is known. */
export function filterSql(expr: FieldExpr | null, table: SpanTable): string | null {
  if (!expr) return null;
  switch (expr.kind) {
    case 'static':
      return expr.value.type === 'bool' ? (expr.value.value ? null : '0') : null;
    case 'attribute':
      return null;
    case 'unary':
      if (expr.expr.kind === 'attribute' && (expr.op === 'exists' || expr.op === 'notExists')) return presenceSql(expr.expr.ref, expr.op === 'exists');
      // `!` and unary minus are left to the evaluator (a negation would turn a wider condition into a narrower one).
      return null;
    case 'binary': {
      if (expr.op === '&&') {
        const l = filterSql(expr.left, table);
        const r = filterSql(expr.right, table);
        return l === null ? r : r === null ? l : `(${l} AND ${r})`;
      }
      if (expr.op === '||') {
        const l = filterSql(expr.left, table);
        const r = filterSql(expr.right, table);
        return l === null || r === null ? null : `(${l} OR ${r})`;
      }
      const flipped: Partial<Record<CompareOp, CompareOp>> = { '=': '=', '!=': '!=', '>': '<', '>=': '<=', '<': '>', '<=': '>=' };
      let { left, right } = expr;
      let op = expr.op as CompareOp;
      if (left.kind === 'static' && right.kind === 'attribute' && flipped[op]) {
        [left, right] = [right, left];
        op = flipped[op]!;
      }
      if (left.kind !== 'attribute' || right.kind !== 'static' || left.ref.parent) return null;
      return compareSql(left.ref, op, right.value, table);
    }
  }
}

/**
 * The condition on a span row that holds exactly for the spans a spanset expression answers (one stage, so one
 * spanset), or null: exactly translated filters; `||` (a span of either side); `&&` (a span of either side in a trace
 * that holds both); `L > R` (a span of R whose parent is in L), `L < R` (a span of R that is the parent of one in L)
 * and their negations, each an IN over (trace_id, parent_id or span_id) of the rows the evaluator reads. Rows that
 * share a span id in one trace (a span pushed twice) are each a parent here where the evaluator takes the last: the
 * same answer while the copies agree. Descendants, ancestors and siblings are left to the evaluator.
 */
export function spansetRowSql(e: SpansetExpr, table: SpanTable): string | null {
  if (e.kind === 'filter') {
    if (e.expr === null) return '1';
    const sql = filterSql(e.expr, table);
    return sql !== null && isExactField(e.expr) ? sql : null;
  }
  if (e.kind !== 'op') return null;
  const l = spansetRowSql(e.left, table);
  const r = l === null ? null : spansetRowSql(e.right, table);
  if (l === null || r === null) return null;
  if (e.op === '||') return `(${l} OR ${r})`;
  const rows = table.rows;
  if (rows === undefined) return null;
  const from = (columns: string, where: string) => `SELECT ${columns} FROM ${table.table} WHERE ${rows} AND ${where}`;
  switch (e.op) {
    case '&&':
      return `((${l} OR ${r}) AND trace_id IN (${from('trace_id', l)}) AND trace_id IN (${from('trace_id', r)}))`;
    case '>':
      return `(${r} AND parent_id != '' AND (trace_id, parent_id) IN (${from('trace_id, span_id', l)}))`;
    case '!>':
      return `(${r} AND (parent_id = '' OR (trace_id, parent_id) NOT IN (${from('trace_id, span_id', l)})))`;
    case '<':
      return `(${r} AND (trace_id, span_id) IN (${from('trace_id, parent_id', `parent_id != '' AND ${l}`)}))`;
    case '!<':
      return `(${r} AND (trace_id, span_id) NOT IN (${from('trace_id, parent_id', `parent_id != '' AND ${l}`)}))`;
    default:
      return null;
  }
}

/**
 * A condition on span rows that keeps the rows of the traces that may answer, when the pipeline's first stage is a
 * spanset expression with an exact row condition (every answering trace holds a span it selects): the search then
 * groups only those traces' rows. Null otherwise, and for `{}`.
 */
export function traceRowsSql(pipeline: Pipeline, table: SpanTable): string | null {
  const first = pipeline.stages[0];
  if (!first || first.kind !== 'spanset' || table.rows === undefined) return null;
  const c = spansetRowSql(first.expr, table);
  return c === null || c === '1' ? null : `trace_id IN (SELECT trace_id FROM ${table.table} WHERE ${table.rows} AND ${c})`;
}

/** The condition on a trace's group of span rows (a HAVING clause); null when every trace may answer. */
export function traceConditionSql(pipeline: Pipeline, table: SpanTable): string | null {
  const and = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : `(${a} AND ${b})`);
  const spanset = (e: SpansetExpr): string | null => {
    if (e.kind === 'filter') {
      const f = filterSql(e.expr, table);
      return f === null ? null : `countIf(${f}) > 0`;
    }
    if (e.kind === 'pipeline') return stages(e.pipeline);
    const exact = e.op === '&&' || e.op === '||' ? null : spansetRowSql(e, table);
    if (exact !== null) return `countIf(${exact}) > 0`;
    const l = spanset(e.left);
    const r = spanset(e.right);
    if (e.op === '||') return l === null || r === null ? null : `(${l} OR ${r})`;
    // A negated structural operator answers spans of its right side only.
    if (e.op.startsWith('!')) return r;
    return and(l, r);
  };
  const stages = (p: Pipeline): string | null =>
    p.stages.reduce<string | null>((acc, s) => (s.kind === 'spanset' ? and(acc, spanset(s.expr)) : acc), null);
  return stages(pipeline);
}

/**
 * Whether the trace condition alone decides the answer: plain filters combined with && and ||, and the structural
 * relations spansetRowSql answers exactly, all translated.
 */
export function conditionIsExact(pipeline: Pipeline, table: SpanTable): boolean {
  if (pipeline.stages.length !== 1 || pipeline.stages[0].kind !== 'spanset') return false;
  const exact = (e: SpansetExpr): boolean => {
    if (e.kind === 'op' && (e.op === '&&' || e.op === '||')) return exact(e.left) && exact(e.right);
    return spansetRowSql(e, table) !== null;
  };
  return exact(pipeline.stages[0].expr);
}

/** A filter whose translation is not only wider but the same condition (no part left out by `&&`). */
export function isExactField(e: FieldExpr): boolean {
  if (e.kind === 'binary' && (e.op === '&&' || e.op === '||')) return isExactField(e.left) && isExactField(e.right);
  if (e.kind === 'binary') {
    if (e.left.kind !== 'attribute' || e.right.kind !== 'static') return false;
    const ref = e.left.ref;
    // An attribute may hold an array, whose regex comparison is only wider (arrayCompare).
    if (ref.scope === 'span' || ref.scope === 'instrumentation' || (ref.scope === 'resource' && ref.name !== 'service.name')) return arrayCompareExact(e.op as CompareOp);
    return ref.scope === 'resource' || (ref.scope === 'intrinsic' && ['name', 'status', 'kind', 'duration'].includes(ref.name));
  }
  if (e.kind === 'unary') return e.op === 'exists' || e.op === 'notExists';
  return e.kind === 'static' && e.value.type === 'bool';
}
