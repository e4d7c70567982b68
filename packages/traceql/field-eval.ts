import type { AttributeRef, FieldExpr, Kind, Static, Status } from './ast';
import { compileAnchored } from '../re2-pattern/re2-pattern';

// A field expression evaluated on one span of a trace held in memory. Attribute values are stored as text whatever
// their OTLP type was, so a stored value is `text`: compared with a string it is a string, with a number it is that
// number when it reads as one (else the comparison is false), with a boolean it is `true`/`false`. A comparison with
// a missing value (nil) is false, whatever the operator. The SQL pushdown (clickhouse.ts) follows the same rules.

export interface SpanEventRow {
  name: string;
  timeNs: bigint;
  attributes: Map<string, string>;
  types?: Map<string, string>;
}
export interface SpanLinkRow {
  traceId: string;
  spanId: string;
  attributes: Map<string, string>;
  types?: Map<string, string>;
}

/** A span of a trace as the evaluator sees it. */
export interface EvalSpan {
  traceId: string;
  spanId: string;
  parentId: string;
  name: string;
  service: string;
  kind: Kind;
  status: Status;
  statusMessage: string;
  startNs: bigint;
  durationNs: bigint;
  attributes: Map<string, string>;
  resource: Map<string, string>;
  /** The OTLP type of each attribute ('s', 'i', 'd', 'b', …); absent for spans stored before types were. */
  attributeTypes?: Map<string, string>;
  resourceTypes?: Map<string, string>;
  events: SpanEventRow[];
  links: SpanLinkRow[];
  scopeName?: string;
  scopeVersion?: string;
  /** The instrumentation scope's attributes and their OTLP types (TraceQL's `instrumentation.` scope). */
  scopeAttributes?: Map<string, string>;
  scopeTypes?: Map<string, string>;
}

/** The trace a span belongs to: what trace-level intrinsics and structural operators read. */
export interface EvalTrace {
  traceId: string;
  spans: EvalSpan[];
  byId: Map<string, EvalSpan>;
  children: Map<string, EvalSpan[]>;
  root: EvalSpan | undefined;
  startNs: bigint;
  durationNs: bigint;
}

export function buildTrace(traceId: string, spans: EvalSpan[]): EvalTrace {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const children = new Map<string, EvalSpan[]>();
  for (const s of spans) {
    if (!s.parentId) continue;
    const list = children.get(s.parentId) ?? [];
    list.push(s);
    children.set(s.parentId, list);
  }
  let start = spans.length ? spans[0].startNs : 0n;
  let end = start;
  for (const s of spans) {
    if (s.startNs < start) start = s.startNs;
    if (s.startNs + s.durationNs > end) end = s.startNs + s.durationNs;
  }
  return { traceId, spans, byId, children, root: spans.find((s) => !s.parentId), startNs: start, durationNs: end - start };
}

export type Value =
  | { t: 'string'; v: string }
  | { t: 'text'; v: string }
  | { t: 'number'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'status'; v: Status }
  | { t: 'kind'; v: Kind }
  // An OTLP array attribute: `v` is its stored text (a JSON array of the elements' texts, as the ingest writes it),
  // `elems` the elements' texts and `types` their OTLP types ('' where unknown: arrays stored before element types
  // were, whose elements compare as untyped text).
  | { t: 'array'; v: string; elems: string[]; types: string[] }
  | undefined;

/** Which event or link a condition on `event.`/`link.` reads (the filter holds if it holds for some event or link). */
export interface Focus {
  event?: SpanEventRow;
  link?: SpanLinkRow;
}

export function staticValue(s: Static): Value {
  switch (s.type) {
    case 'string':
      return { t: 'string', v: s.value };
    case 'int':
    case 'float':
      return { t: 'number', v: s.value };
    case 'duration':
      return { t: 'number', v: Number(s.nanos) };
    case 'bool':
      return { t: 'bool', v: s.value };
    case 'status':
      return { t: 'status', v: s.value };
    case 'kind':
      return { t: 'kind', v: s.value };
    case 'nil':
      return undefined;
  }
}


/**
 * A stored attribute value with its OTLP type: compared as Tempo compares that type. Without a type (spans stored
 * before types were, and lists) it is text, compared as the other side's type when it reads as one; an array compares
 * element by element (compareArray).
 */
function typed(v: string | undefined, type: string | undefined): Value {
  if (v === undefined) return undefined;
  switch (type) {
    case 's':
      return { t: 'string', v };
    case 'i':
    case 'd': {
      const n = Number(v);
      return Number.isFinite(n) ? { t: 'number', v: n } : { t: 'text', v };
    }
    case 'b':
      return { t: 'bool', v: v === 'true' };
    default:
      return type?.startsWith('a') ? arrayValue(v, type) : { t: 'text', v };
  }
}
/** The type an array element compares with: a scalar's letter; nested arrays and lists are untyped text. */
export const elementType = (letter: string | undefined) => (letter && 'sidb'.includes(letter) ? letter : '');
/** The elements' texts of a stored array (the ingest's JSON array of strings), or undefined when it is not one. */
export function arrayElements(v: string): string[] | undefined {
  try {
    const elems: unknown = JSON.parse(v);
    return Array.isArray(elems) && elems.every((e) => typeof e === 'string') ? elems : undefined;
  } catch {
    return undefined;
  }
}
function arrayValue(v: string, type: string): Value {
  const elems = arrayElements(v);
  // Not the ingest's form: compared as text, as before arrays were compared element by element.
  return elems ? { t: 'array', v, elems, types: elems.map((_e, i) => elementType(type[i + 1])) } : { t: 'text', v };
}
const spanAttr = (span: EvalSpan, name: string) => typed(span.attributes.get(name), span.attributeTypes?.get(name));
const resourceAttr = (span: EvalSpan, name: string) => typed(span.resource.get(name), span.resourceTypes?.get(name));
const str = (v: string | undefined): Value => (v === undefined ? undefined : { t: 'string', v });

export function attributeValue(ref: AttributeRef, span: EvalSpan, trace: EvalTrace, focus: Focus): Value {
  switch (ref.scope) {
    case 'span':
      return spanAttr(span, ref.name);
    case 'resource':
      if (ref.name === 'service.name') return str(span.resource.get('service.name') ?? (span.service || undefined));
      return resourceAttr(span, ref.name);
    case 'unscoped':
      if (span.attributes.has(ref.name)) return spanAttr(span, ref.name);
      if (span.resource.has(ref.name)) return resourceAttr(span, ref.name);
      return ref.name === 'service.name' && span.service ? str(span.service) : undefined;
    case 'event':
      return typed(focus.event?.attributes.get(ref.name), focus.event?.types?.get(ref.name));
    case 'link':
      return typed(focus.link?.attributes.get(ref.name), focus.link?.types?.get(ref.name));
    case 'instrumentation':
      return typed(span.scopeAttributes?.get(ref.name), span.scopeTypes?.get(ref.name));
    case 'intrinsic':
      switch (ref.name) {
        case 'duration':
          return { t: 'number', v: Number(span.durationNs) };
        case 'name':
          return str(span.name);
        case 'status':
          return { t: 'status', v: span.status };
        case 'statusMessage':
          return str(span.statusMessage);
        case 'kind':
          return { t: 'kind', v: span.kind };
        case 'childCount':
          return { t: 'number', v: trace.children.get(span.spanId)?.length ?? 0 };
        case 'spanId':
          return str(span.spanId);
        case 'parentId':
          return span.parentId ? str(span.parentId) : undefined;
        case 'traceId':
          return str(trace.traceId);
        case 'rootName':
          return trace.root ? str(trace.root.name) : undefined;
        case 'rootServiceName':
          return trace.root ? str(trace.root.service) : undefined;
        case 'traceDuration':
          return { t: 'number', v: Number(trace.durationNs) };
        case 'eventName':
          return str(focus.event?.name);
        case 'eventTimeSinceStart':
          return focus.event ? { t: 'number', v: Number(focus.event.timeNs - span.startNs) } : undefined;
        case 'linkTraceId':
          return str(focus.link?.traceId);
        case 'linkSpanId':
          return str(focus.link?.spanId);
        case 'instrumentationName':
          return str(span.scopeName);
        case 'instrumentationVersion':
          return str(span.scopeVersion);
        default:
          return undefined;
      }
  }
}

const NUMBER_TEXT = /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;

function asNumber(v: Value): number | undefined {
  if (!v) return undefined;
  if (v.t === 'number') return v.v;
  if (v.t === 'text' && NUMBER_TEXT.test(v.v)) return Number(v.v);
  return undefined;
}

function asBool(v: Value): boolean | undefined {
  if (!v) return undefined;
  if (v.t === 'bool') return v.v;
  if (v.t === 'text' && (v.v === 'true' || v.v === 'false')) return v.v === 'true';
  return undefined;
}

const regexCache = new Map<string, (value: string) => boolean>();
function regex(pattern: string): (value: string) => boolean {
  let re = regexCache.get(pattern);
  if (!re) {
    if (regexCache.size > 1000) regexCache.clear();
    re = compileAnchored(pattern);
    regexCache.set(pattern, re);
  }
  return re;
}

function order(op: string, c: number): boolean {
  switch (op) {
    case '=':
      return c === 0;
    case '!=':
      return c !== 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    default:
      return false;
  }
}

function compare(op: string, a: Value, b: Value): boolean {
  if (!a || !b) return false;
  if (a.t === 'array' || b.t === 'array') return compareArray(op, a, b);
  if (op === '=~' || op === '!~') {
    if ((a.t !== 'string' && a.t !== 'text') || (b.t !== 'string' && b.t !== 'text')) return false;
    return regex(b.v)(a.v) === (op === '=~');
  }
  const textual = (x: NonNullable<Value>) => x.t === 'string' || x.t === 'text';
  if (textual(a) && textual(b)) {
    const x = (a as { v: string }).v;
    const y = (b as { v: string }).v;
    return order(op, x < y ? -1 : x > y ? 1 : 0);
  }
  if (a.t === 'number' || b.t === 'number') {
    const x = asNumber(a);
    const y = asNumber(b);
    if (x === undefined || y === undefined || Number.isNaN(x) || Number.isNaN(y)) return false;
    return order(op, x < y ? -1 : x > y ? 1 : 0);
  }
  if (a.t === 'bool' || b.t === 'bool') {
    const x = asBool(a);
    const y = asBool(b);
    if (x === undefined || y === undefined || (op !== '=' && op !== '!=')) return false;
    return (x === y) === (op === '=');
  }
  if ((a.t === 'status' && b.t === 'status') || (a.t === 'kind' && b.t === 'kind')) {
    if (op !== '=' && op !== '!=') return false;
    return (a.v === b.v) === (op === '=');
  }
  return false;
}

/**
 * Tempo's array comparison (pkg/traceql/ast_execute.go): a scalar against each element, the operands kept in place
 * (so a regex on the right applies to each element); `!=` and `!~` mean "none is" (every element satisfies the
 * negated operator), the others "one is". Two arrays never compare.
 */
function compareArray(op: string, a: NonNullable<Value>, b: NonNullable<Value>): boolean {
  if (a.t === 'array' && b.t === 'array') return false;
  const array = (a.t === 'array' ? a : b) as { elems: string[]; types: string[] };
  // Each element with its own type, compared as a scalar attribute of that type is (an int element is not "5").
  const each = (e: string, i: number) => {
    const element = typed(e, array.types[i]);
    return a.t === 'array' ? compare(op, element, b) : compare(op, a, element);
  };
  return op === '!=' || op === '!~' ? array.elems.every(each) : array.elems.some(each);
}

function arithmetic(op: string, a: Value, b: Value): Value {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x === undefined || y === undefined) return undefined;
  const v = op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : op === '/' ? x / y : op === '%' ? x % y : x ** y;
  return Number.isFinite(v) ? { t: 'number', v } : undefined;
}

export function evalField(expr: FieldExpr, span: EvalSpan, trace: EvalTrace, focus: Focus): Value {
  switch (expr.kind) {
    case 'static':
      return staticValue(expr.value);
    case 'attribute':
      return attributeValue(expr.ref, span, trace, focus);
    case 'unary': {
      const v = evalField(expr.expr, span, trace, focus);
      if (expr.op === 'exists') return { t: 'bool', v: v !== undefined };
      if (expr.op === 'notExists') return { t: 'bool', v: v === undefined };
      if (expr.op === '!') {
        const b = asBool(v);
        return b === undefined ? undefined : { t: 'bool', v: !b };
      }
      const n = asNumber(v);
      return n === undefined ? undefined : { t: 'number', v: -n };
    }
    case 'binary': {
      if (expr.op === '&&' || expr.op === '||') {
        const l = asBool(evalField(expr.left, span, trace, focus)) === true;
        if (expr.op === '&&' && !l) return { t: 'bool', v: false };
        if (expr.op === '||' && l) return { t: 'bool', v: true };
        return { t: 'bool', v: asBool(evalField(expr.right, span, trace, focus)) === true };
      }
      const l = evalField(expr.left, span, trace, focus);
      const r = evalField(expr.right, span, trace, focus);
      if (['+', '-', '*', '/', '%', '^'].includes(expr.op)) return arithmetic(expr.op, l, r);
      return { t: 'bool', v: compare(expr.op, l, r) };
    }
  }
}

function usesScope(expr: FieldExpr, scope: 'event' | 'link'): boolean {
  if (expr.kind === 'attribute') {
    const r = expr.ref;
    if (r.scope === scope) return true;
    return r.scope === 'intrinsic' && (scope === 'event' ? r.name === 'eventName' || r.name === 'eventTimeSinceStart' : r.name === 'linkTraceId' || r.name === 'linkSpanId');
  }
  if (expr.kind === 'binary') return usesScope(expr.left, scope) || usesScope(expr.right, scope);
  if (expr.kind === 'unary') return usesScope(expr.expr, scope);
  return false;
}

/** Whether a span satisfies a filter: for a filter that reads events or links, for some event (link) of the span. */
export function spanMatches(expr: FieldExpr | null, span: EvalSpan, trace: EvalTrace): boolean {
  if (!expr) return true;
  const events: (SpanEventRow | undefined)[] = usesScope(expr, 'event') ? (span.events.length ? span.events : [undefined]) : [undefined];
  const links: (SpanLinkRow | undefined)[] = usesScope(expr, 'link') ? (span.links.length ? span.links : [undefined]) : [undefined];
  for (const event of events) {
    for (const link of links) if (asBool(evalField(expr, span, trace, { event, link })) === true) return true;
  }
  return false;
}
