import { toClickHouseRegex } from '../re2-pattern/re2-pattern';
import type { AttributeRef, CompareOp, FieldExpr, SpansetExpr, StaticValue } from './parse';

// A TraceQL filter as a ClickHouse (18.16) condition on one row of a spans table with these columns:
//   name, service_name, kind ('SERVER', 'CLIENT', …; '' or 'UNSPECIFIED' when unknown), status_code (0 unset, 1 ok,
//   2 error), duration_ns, trace_id, parent_id ('' for a root span), timestamp_ns,
//   attribute_keys / attribute_values (span attributes), resource_keys / resource_values (resource attributes).
// Attribute values are stored as text, whatever their type was: a number compares numerically with the text of a
// number (`span.http.status_code >= 500` matches "503"), a string compares as text, a boolean as "true"/"false".
// So `= 200` and `= "200"` both match an attribute stored as 200 (Tempo keeps the types apart; the text keeps no type).

export interface SpanTable {
  /** The spans table, qualified (`qryn_x.spans`). */
  table: string;
  /** A condition that bounds the rows trace-level intrinsics look at (the search's days), e.g. `date BETWEEN …`. */
  bound: string;
}

const NUMERIC = `'^-?[0-9]+(\\\\.[0-9]+)?([eE][-+]?[0-9]+)?$'`;

export function sqlString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function numberSql(value: StaticValue): string {
  if (value.type === 'duration') return value.nanos.toString();
  if (value.type === 'int' || value.type === 'float') {
    if (!Number.isFinite(value.value)) return '0';
    return String(value.value);
  }
  return '0';
}

const SQL_OP: Record<CompareOp, string> = { '=': '=', '!=': '!=', '>': '>', '>=': '>=', '<': '<', '<=': '<=', '=~': '', '!~': '' };

/** A comparison of a text expression `v` (an attribute value or a text column) with a static value. */
function textCompare(v: string, op: CompareOp, value: StaticValue): string {
  switch (value.type) {
    case 'string':
      if (op === '=~') return `match(${v}, ${sqlString(toClickHouseRegex(value.value, true))})`;
      if (op === '!~') return `NOT match(${v}, ${sqlString(toClickHouseRegex(value.value, true))})`;
      return `${v} ${SQL_OP[op]} ${sqlString(value.value)}`;
    case 'int':
    case 'float':
    case 'duration':
      return `(match(${v}, ${NUMERIC}) AND toFloat64OrZero(${v}) ${SQL_OP[op]} ${numberSql(value)})`;
    case 'bool':
      return op === '=' ? `${v} = '${value.value}'` : `(${v} IN ('true', 'false') AND ${v} != '${value.value}')`;
    default:
      // Statuses and kinds are refused for attributes by the parser; nil is handled by the caller.
      return '0';
  }
}

function inArrays(keys: string, values: string, name: string, op: CompareOp, value: StaticValue): string {
  if (value.type === 'nil') return op === '=' ? `NOT has(${keys}, ${sqlString(name)})` : `has(${keys}, ${sqlString(name)})`;
  return `arrayExists((k, v) -> k = ${sqlString(name)} AND ${textCompare('v', op, value)}, ${keys}, ${values})`;
}

function serviceColumn(op: CompareOp, value: StaticValue): string {
  if (value.type === 'nil') return op === '=' ? `service_name = ''` : `service_name != ''`;
  return `(service_name != '' AND ${textCompare('service_name', op, value)})`;
}

function resourceCompare(name: string, op: CompareOp, value: StaticValue): string {
  // The service name has its own column (Zipkin spans carry it there only).
  if (name === 'service.name') return serviceColumn(op, value);
  return inArrays('resource_keys', 'resource_values', name, op, value);
}

function attributeCompare(attribute: AttributeRef, op: CompareOp, value: StaticValue, table: SpanTable): string {
  switch (attribute.scope) {
    case 'span':
      return inArrays('attribute_keys', 'attribute_values', attribute.name, op, value);
    case 'resource':
      return resourceCompare(attribute.name, op, value);
    case 'unscoped': {
      // Unscoped: the span's attribute or the resource's. `= nil` means in neither.
      if (value.type === 'nil' && op === '=') {
        return `(${inArrays('attribute_keys', 'attribute_values', attribute.name, op, value)} AND ${attribute.name === 'service.name' ? `service_name = ''` : inArrays('resource_keys', 'resource_values', attribute.name, op, value)})`;
      }
      return `(${inArrays('attribute_keys', 'attribute_values', attribute.name, op, value)} OR ${resourceCompare(attribute.name, op, value)})`;
    }
    case 'intrinsic':
      return intrinsicCompare(attribute.name, op, value, table);
  }
}

const STATUS_CODES = { unset: 0, ok: 1, error: 2 } as const;

function intrinsicCompare(name: AttributeRef['name'], op: CompareOp, value: StaticValue, table: SpanTable): string {
  switch (name) {
    case 'name':
      return textCompare('name', op, value);
    case 'status':
      if (value.type !== 'status') return '0';
      return `status_code ${SQL_OP[op]} ${STATUS_CODES[value.value]}`;
    case 'kind': {
      if (value.type !== 'kind') return '0';
      const kinds = value.value === 'unspecified' ? `('', 'UNSPECIFIED')` : `('${value.value.toUpperCase()}')`;
      return `kind ${op === '=' ? 'IN' : 'NOT IN'} ${kinds}`;
    }
    case 'duration':
      return `duration_ns ${SQL_OP[op]} ${numberSql(value)}`;
    case 'rootName':
      return `trace_id IN (SELECT trace_id FROM ${table.table} WHERE ${table.bound} AND parent_id = '' AND ${textCompare('name', op, value)})`;
    case 'rootServiceName':
      return `trace_id IN (SELECT trace_id FROM ${table.table} WHERE ${table.bound} AND parent_id = '' AND ${textCompare('service_name', op, value)})`;
    case 'traceDuration':
      return `trace_id IN (SELECT trace_id FROM ${table.table} WHERE ${table.bound} GROUP BY trace_id HAVING max(timestamp_ns + duration_ns) - min(timestamp_ns) ${SQL_OP[op]} ${numberSql(value)})`;
    default:
      return '0';
  }
}

/** The condition on a span row for one spanset filter (`null`, the filter `{}`, matches every span). */
export function filterSql(expr: FieldExpr | null, table: SpanTable): string {
  if (!expr) return '1';
  switch (expr.kind) {
    case 'static':
      return expr.value ? '1' : '0';
    case 'not':
      return `NOT (${filterSql(expr.expr, table)})`;
    case 'and':
      return `(${filterSql(expr.left, table)} AND ${filterSql(expr.right, table)})`;
    case 'or':
      return `(${filterSql(expr.left, table)} OR ${filterSql(expr.right, table)})`;
    case 'compare':
      return attributeCompare(expr.attribute, expr.op, expr.value, table);
  }
}

/**
 * A whole query over the spans of a trace: one row condition per spanset filter, and the condition on a trace's
 * group of rows (`{a} && {b}`: some span matches a and some span matches b; `||`: either).
 */
export function spansetSql(expr: SpansetExpr, table: SpanTable): { filters: string[]; having: string } {
  const filters: string[] = [];
  const walk = (e: SpansetExpr): string => {
    if (e.kind === 'filter') {
      filters.push(filterSql(e.expr, table));
      return `countIf(${filters[filters.length - 1]}) > 0`;
    }
    return `(${walk(e.left)} ${e.kind === 'and' ? 'AND' : 'OR'} ${walk(e.right)})`;
  };
  const having = walk(expr);
  return { filters, having };
}
