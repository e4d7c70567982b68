import type { AggregateOp, AttributeRef, CompareOp, FieldExpr, Intrinsic, MetricsExpr, MetricsFunction, Pipeline, Query, ScalarExpr, SecondStage, SpansetExpr, SpansetOp, Stage, Static } from './ast';
import { KINDS, STATUSES } from './ast';
import { describe, durationNanos, lex, TraceQLParseError, type Token } from './lex';
import { validateQuery } from './validate';

// TraceQL as Tempo reads it (grafana/tempo pkg/traceql/expr.y), by recursive descent with the same precedence:
// a pipeline `stage | stage | …` is the loosest; between spanset operands `&&` and `||` bind looser than the
// structural operators (`>`, `>>`, `<`, `<<`, `~`, their `!` and `&` forms); inside a filter `&&` and `||` share
// the loosest level (left to right), then comparisons, `+ -`, prefix `!`, `* / %`, `^` (right), unary minus.
// Metrics queries end a pipeline with a metrics function, optional by(…), second stages (topk, bottomk, a
// comparison with a number) and `with(…)` hints; arithmetic combines parenthesised metrics queries and numbers.
// After parsing, validate.ts applies Tempo's type rules. Grafana's @grafana/lezer-traceql is an editor grammar
// that lacks metrics arithmetic, metrics comparisons and sampling hints, so the server reads queries here.

export { TraceQLParseError } from './lex';

const INTRINSICS = new Map<string, Intrinsic>(Object.entries({
  duration: 'duration', childCount: 'childCount', name: 'name', status: 'status', statusMessage: 'statusMessage', kind: 'kind',
  rootName: 'rootName', rootServiceName: 'rootServiceName', traceDuration: 'traceDuration',
  nestedSetLeft: 'nestedSetLeft', nestedSetRight: 'nestedSetRight', nestedSetParent: 'nestedSetParent', parent: 'parent',
  'span:duration': 'duration', 'span:name': 'name', 'span:status': 'status', 'span:statusMessage': 'statusMessage', 'span:kind': 'kind',
  'span:id': 'spanId', 'span:parentID': 'parentId', 'span:childCount': 'childCount',
  'trace:duration': 'traceDuration', 'trace:rootName': 'rootName', 'trace:rootService': 'rootServiceName', 'trace:id': 'traceId',
  'event:name': 'eventName', 'event:timeSinceStart': 'eventTimeSinceStart', 'link:traceID': 'linkTraceId', 'link:spanID': 'linkSpanId',
  'instrumentation:name': 'instrumentationName', 'instrumentation:version': 'instrumentationVersion',
} satisfies Record<string, Intrinsic>));

const COMPARE_OPS = new Set(['=', '!=', '>', '>=', '<', '<=', '=~', '!~']);
const STRUCTURAL = new Set(['>', '>>', '<', '<<', '~', '!>', '!>>', '!<', '!<<', '!~', '&>', '&>>', '&<', '&<<', '&~']);
const AGGREGATES = new Set(['count', 'avg', 'min', 'max', 'sum']);
const METRICS = new Set(['rate', 'count_over_time', 'min_over_time', 'max_over_time', 'avg_over_time', 'sum_over_time', 'quantile_over_time', 'histogram_over_time', 'compare']);

class Parser {
  pos = 0;
  constructor(readonly tokens: Token[]) {}

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)];
  }
  next(): Token {
    return this.tokens[Math.min(this.pos++, this.tokens.length - 1)];
  }
  is(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return (t.kind === 'punct' || t.kind === 'ident') && t.text === text;
  }
  fail(token: Token = this.peek(), reason?: string): never {
    throw new TraceQLParseError(token.line, token.col, reason ?? `syntax error: unexpected ${describe(token)}`);
  }
  expect(text: string): Token {
    if (!this.is(text)) this.fail();
    return this.next();
  }

  // --- the root ---

  root(): Query {
    const start = this.pos;
    const startsMath = this.is('(') || this.is('-') || this.peek().kind === 'int' || this.peek().kind === 'float';
    if (startsMath) {
      try {
        const expr = this.metricsMath();
        if (!hasMetrics(expr)) this.fail();
        const hints = this.hints();
        if (this.peek().kind !== 'eof') this.fail();
        return { kind: 'metrics', expr, hints };
      } catch (mathError) {
        if (!(mathError instanceof TraceQLParseError)) throw mathError;
        const mathReached = this.pos;
        this.pos = start;
        try {
          return this.pipelineRoot();
        } catch (pipelineError) {
          // The reading that got further explains the query better.
          if (pipelineError instanceof TraceQLParseError && this.pos < mathReached) throw mathError;
          throw pipelineError;
        }
      }
    }
    return this.pipelineRoot();
  }

  pipelineRoot(): Query {
    const pipeline = this.pipeline();
    if (this.is('|') && this.peek(1).kind === 'ident' && METRICS.has(this.peek(1).text)) {
      const expr = this.metricsTail(pipeline);
      const hints = this.hints();
      if (this.peek().kind !== 'eof') this.fail();
      return { kind: 'metrics', expr, hints };
    }
    this.hints();
    if (this.peek().kind !== 'eof') this.fail();
    return { kind: 'search', pipeline };
  }

  hints(): Record<string, Static> {
    const hints: Record<string, Static> = {};
    if (!this.is('with')) return hints;
    this.next();
    this.expect('(');
    do {
      const name = this.next();
      if (name.kind !== 'ident') this.fail(name);
      this.expect('=');
      hints[name.text] = this.staticValue();
    } while (this.is(',') && this.next());
    this.expect(')');
    return hints;
  }

  // --- pipelines and spanset expressions ---

  pipeline(): Pipeline {
    const stages: Stage[] = [this.stage(true)];
    while (this.is('|') && !(this.peek(1).kind === 'ident' && (METRICS.has(this.peek(1).text) || this.peek(1).text === 'topk' || this.peek(1).text === 'bottomk'))) {
      this.next();
      stages.push(this.stage(false));
    }
    return { stages };
  }

  stage(first: boolean): Stage {
    const t = this.peek();
    if (t.kind === 'ident') {
      if (AGGREGATES.has(t.text) && this.is('(', 1)) return this.scalarFilter();
      if (t.text === 'by' && this.is('(', 1)) return { kind: 'by', exprs: this.fieldList('by') };
      if (t.text === 'select' && this.is('(', 1)) return { kind: 'select', exprs: this.fieldList('select') };
      if (t.text === 'coalesce' && this.is('(', 1) && !first) {
        this.next();
        this.expect('(');
        this.expect(')');
        return { kind: 'coalesce' };
      }
      return this.fail();
    }
    if (t.kind === 'int' || t.kind === 'float' || t.kind === 'duration' || this.is('-')) return this.scalarFilter();
    return { kind: 'spanset', expr: this.spansetOr() };
  }

  fieldList(word: string): FieldExpr[] {
    this.expect(word);
    this.expect('(');
    const exprs = [this.fieldOr()];
    while (this.is(',')) {
      this.next();
      exprs.push(this.fieldOr());
    }
    this.expect(')');
    return exprs;
  }

  spansetOr(): SpansetExpr {
    let left = this.spansetStructural();
    while (this.is('&&') || this.is('||')) {
      const op = this.next().text as SpansetOp;
      left = { kind: 'op', op, left, right: this.spansetStructural() };
    }
    return left;
  }

  spansetStructural(): SpansetExpr {
    let left = this.spansetPrimary();
    while (this.peek().kind === 'punct' && STRUCTURAL.has(this.peek().text)) {
      const op = this.next().text as SpansetOp;
      left = { kind: 'op', op, left, right: this.spansetPrimary() };
    }
    return left;
  }

  spansetPrimary(): SpansetExpr {
    if (this.is('(')) {
      this.next();
      const pipeline = this.pipeline();
      this.expect(')');
      const only = pipeline.stages[0];
      if (pipeline.stages.length === 1 && only.kind === 'spanset') return only.expr;
      return { kind: 'pipeline', pipeline };
    }
    this.expect('{');
    if (this.is('}')) {
      this.next();
      return { kind: 'filter', expr: null };
    }
    const expr = this.fieldOr();
    this.expect('}');
    return { kind: 'filter', expr };
  }

  // --- field expressions (inside `{ }`, by, select, aggregates) ---

  fieldOr(): FieldExpr {
    let left = this.fieldCompare();
    while (this.is('&&') || this.is('||')) {
      const op = this.next().text as '&&' | '||';
      left = { kind: 'binary', op, left, right: this.fieldCompare() };
    }
    return left;
  }

  fieldCompare(): FieldExpr {
    let left = this.fieldAdd();
    while (this.peek().kind === 'punct' && COMPARE_OPS.has(this.peek().text)) {
      const op = this.next().text as CompareOp;
      const nil = this.is('nil');
      const isNil = (e: FieldExpr) => e.kind === 'static' && e.value.type === 'nil';
      if ((op === '=' || op === '!=') && (nil || isNil(left))) {
        // `x = nil` and `x != nil` test presence (Tempo's OpNotExists / OpExists).
        const operand = nil ? left : this.fieldAdd();
        if (nil) this.next();
        left = { kind: 'unary', op: op === '=' ? 'notExists' : 'exists', expr: operand };
        continue;
      }
      left = { kind: 'binary', op, left, right: this.fieldAdd() };
    }
    return left;
  }

  fieldAdd(): FieldExpr {
    let left = this.fieldNot();
    while (this.is('+') || this.is('-')) {
      const op = this.next().text as '+' | '-';
      left = { kind: 'binary', op, left, right: this.fieldNot() };
    }
    return left;
  }

  fieldNot(): FieldExpr {
    if (this.is('!')) {
      this.next();
      return { kind: 'unary', op: '!', expr: this.fieldNot() };
    }
    return this.fieldMul();
  }

  fieldMul(): FieldExpr {
    let left = this.fieldPow();
    while (this.is('*') || this.is('/') || this.is('%')) {
      const op = this.next().text as '*' | '/' | '%';
      left = { kind: 'binary', op, left, right: this.fieldPow() };
    }
    return left;
  }

  fieldPow(): FieldExpr {
    const base = this.fieldNegate();
    if (this.is('^')) {
      this.next();
      return { kind: 'binary', op: '^', left: base, right: this.fieldPow() };
    }
    return base;
  }

  fieldNegate(): FieldExpr {
    if (this.is('-')) {
      this.next();
      const inner = this.fieldNegate();
      if (inner.kind === 'static') {
        const v = inner.value;
        if (v.type === 'int' || v.type === 'float') return { kind: 'static', value: { type: v.type, value: -v.value } };
        if (v.type === 'duration') return { kind: 'static', value: { type: 'duration', nanos: -v.nanos } };
      }
      return { kind: 'unary', op: '-', expr: inner };
    }
    return this.fieldPrimary();
  }

  fieldPrimary(): FieldExpr {
    if (this.is('(')) {
      this.next();
      const inner = this.fieldOr();
      this.expect(')');
      return inner;
    }
    const ref = this.attribute();
    if (ref) return { kind: 'attribute', ref };
    return { kind: 'static', value: this.staticValue() };
  }

  attribute(): AttributeRef | undefined {
    const t = this.peek();
    if (t.kind === 'attribute') {
      this.next();
      return { scope: t.scope!, name: t.value!, ...(t.parent ? { parent: true } : {}) };
    }
    if (t.kind === 'ident' && INTRINSICS.has(t.text)) {
      this.next();
      return { scope: 'intrinsic', name: INTRINSICS.get(t.text)! };
    }
    return undefined;
  }

  staticValue(): Static {
    const t = this.next();
    switch (t.kind) {
      case 'string':
        return { type: 'string', value: t.value! };
      case 'int':
        return { type: 'int', value: Number(t.text) };
      case 'float':
        return { type: 'float', value: Number(t.text) };
      case 'duration':
        return { type: 'duration', nanos: durationNanos(t.text) };
      case 'ident':
        if (t.text === 'true' || t.text === 'false') return { type: 'bool', value: t.text === 'true' };
        if (t.text === 'nil') return { type: 'nil' };
        if ((STATUSES as readonly string[]).includes(t.text)) return { type: 'status', value: t.text as 'ok' };
        if ((KINDS as readonly string[]).includes(t.text)) return { type: 'kind', value: t.text as 'server' };
        return this.fail(t);
      default:
        return this.fail(t);
    }
  }

  // --- scalar filters (`count() > 2`, `avg(duration) > 1s`) ---

  scalarFilter(): Stage {
    const at = this.peek();
    const left = this.scalarAdd();
    const opToken = this.peek();
    if (opToken.kind !== 'punct' || !COMPARE_OPS.has(opToken.text)) this.fail();
    this.next();
    const right = this.scalarAdd();
    // A comparison of numbers alone is not a filter on spans (Tempo's grammar has no such production).
    if (!hasAggregate(left) && !hasAggregate(right)) this.fail(at);
    return { kind: 'scalarFilter', op: opToken.text as CompareOp, left, right };
  }

  scalarAdd(): ScalarExpr {
    let left = this.scalarMul();
    while (this.is('+') || this.is('-')) {
      const op = this.next().text as '+' | '-';
      left = { kind: 'arith', op, left, right: this.scalarMul() };
    }
    return left;
  }

  scalarMul(): ScalarExpr {
    let left = this.scalarPow();
    while (this.is('*') || this.is('/') || this.is('%')) {
      const op = this.next().text as '*' | '/' | '%';
      left = { kind: 'arith', op, left, right: this.scalarPow() };
    }
    return left;
  }

  scalarPow(): ScalarExpr {
    const base = this.scalarPrimary();
    if (this.is('^')) {
      this.next();
      return { kind: 'arith', op: '^', left: base, right: this.scalarPow() };
    }
    return base;
  }

  scalarPrimary(): ScalarExpr {
    const t = this.peek();
    if (this.is('(')) {
      this.next();
      const inner = this.scalarAdd();
      this.expect(')');
      return inner;
    }
    if (this.is('-')) {
      this.next();
      const n = this.next();
      if (n.kind === 'int' || n.kind === 'float') return { kind: 'static', value: { type: n.kind, value: -Number(n.text) } };
      if (n.kind === 'duration') return { kind: 'static', value: { type: 'duration', nanos: -durationNanos(n.text) } };
      return this.fail(n);
    }
    if (t.kind === 'int' || t.kind === 'float' || t.kind === 'duration') return { kind: 'static', value: this.staticValue() };
    if (t.kind === 'ident' && AGGREGATES.has(t.text) && this.is('(', 1)) {
      this.next();
      this.next();
      if (t.text === 'count') {
        this.expect(')');
        return { kind: 'aggregate', op: 'count', expr: null };
      }
      const expr = this.fieldOr();
      this.expect(')');
      return { kind: 'aggregate', op: t.text as AggregateOp, expr };
    }
    return this.fail();
  }

  // --- metrics ---

  metricsTail(pipeline: Pipeline): MetricsExpr {
    this.expect('|');
    const fn = this.metricsFunction();
    const by = this.is('by') ? this.fieldList('by') : [];
    return { kind: 'metrics', pipeline, fn, by, second: this.secondStages() };
  }

  metricsFunction(): MetricsFunction {
    const word = this.next();
    this.expect('(');
    let fn: MetricsFunction;
    switch (word.text) {
      case 'rate':
      case 'count_over_time':
        fn = { fn: word.text };
        break;
      case 'min_over_time':
      case 'max_over_time':
      case 'avg_over_time':
      case 'sum_over_time':
      case 'histogram_over_time':
        fn = { fn: word.text, attribute: this.attribute() ?? this.fail() };
        break;
      case 'quantile_over_time': {
        const attribute = this.attribute() ?? this.fail();
        const quantiles: number[] = [];
        do {
          this.expect(',');
          const q = this.next();
          if (q.kind !== 'int' && q.kind !== 'float') this.fail(q);
          quantiles.push(Number(q.text));
        } while (this.is(','));
        fn = { fn: 'quantile_over_time', attribute, quantiles };
        break;
      }
      case 'compare': {
        const filter = this.spansetPrimary();
        if (filter.kind !== 'filter') this.fail();
        const ints: bigint[] = [];
        while (this.is(',')) {
          this.next();
          const n = this.next();
          if (n.kind !== 'int') this.fail(n);
          ints.push(BigInt(n.text));
        }
        if (ints.length !== 0 && ints.length !== 1 && ints.length !== 3) this.fail();
        fn = { fn: 'compare', filter, topN: ints.length ? Number(ints[0]) : 10, start: ints[1], end: ints[2] };
        break;
      }
      default:
        return this.fail(word);
    }
    this.expect(')');
    return fn;
  }

  secondStages(): SecondStage[] {
    const out: SecondStage[] = [];
    for (;;) {
      if (this.peek().kind === 'punct' && COMPARE_OPS.has(this.peek().text) && !this.is('=~') && !this.is('!~')) {
        const op = this.next().text as CompareOp;
        out.push({ kind: 'filter', op, value: this.numberExpr() });
      } else if (this.is('|') && (this.is('topk', 1) || this.is('bottomk', 1))) {
        this.next();
        const kind = this.next().text as 'topk' | 'bottomk';
        this.expect('(');
        const n = this.next();
        if (n.kind !== 'int') this.fail(n);
        this.expect(')');
        out.push({ kind, n: Number(n.text) });
      } else return out;
    }
  }

  /** A number a metrics result is compared with: constant arithmetic, or one duration (as seconds). */
  numberExpr(): number {
    if (this.peek().kind === 'duration') return Number(durationNanos(this.next().text)) / 1e9;
    return this.numberAdd();
  }
  numberAdd(): number {
    let v = this.numberMul();
    while (this.is('+') || this.is('-')) v = this.next().text === '+' ? v + this.numberMul() : v - this.numberMul();
    return v;
  }
  numberMul(): number {
    let v = this.numberPrimary();
    while (this.is('*') || this.is('/')) v = this.next().text === '*' ? v * this.numberPrimary() : v / this.numberPrimary();
    return v;
  }
  numberPrimary(): number {
    if (this.is('-')) {
      this.next();
      return -this.numberPrimary();
    }
    if (this.is('(')) {
      this.next();
      const v = this.numberAdd();
      this.expect(')');
      return v;
    }
    const t = this.next();
    if (t.kind !== 'int' && t.kind !== 'float') this.fail(t);
    return Number(t.text);
  }

  /** Arithmetic (+ - * /) between parenthesised metrics queries and numbers. */
  metricsMath(): MetricsExpr {
    let left = this.mathTerm();
    while (this.is('+') || this.is('-')) {
      const op = this.next().text as '+' | '-';
      left = { kind: 'math', op, left, right: this.mathTerm(), second: [] };
    }
    const second = this.secondStages();
    if (second.length === 0) return left;
    if (left.kind === 'number') this.fail();
    return { ...left, second: [...left.second, ...second] } as MetricsExpr;
  }

  mathTerm(): MetricsExpr {
    let left = this.mathFactor();
    while (this.is('*') || this.is('/')) {
      const op = this.next().text as '*' | '/';
      left = { kind: 'math', op, left, right: this.mathFactor(), second: [] };
    }
    return left;
  }

  mathFactor(): MetricsExpr {
    if (this.is('-')) {
      this.next();
      const n = this.next();
      if (n.kind !== 'int' && n.kind !== 'float') this.fail(n);
      return { kind: 'number', value: -Number(n.text) };
    }
    const t = this.peek();
    if (t.kind === 'int' || t.kind === 'float') {
      this.next();
      return { kind: 'number', value: Number(t.text) };
    }
    this.expect('(');
    const start = this.pos;
    let inner: MetricsExpr;
    try {
      const pipeline = this.pipeline();
      if (!(this.is('|') && this.peek(1).kind === 'ident' && METRICS.has(this.peek(1).text))) this.fail();
      inner = this.metricsTail(pipeline);
    } catch (error) {
      if (!(error instanceof TraceQLParseError)) throw error;
      this.pos = start;
      inner = this.metricsMath();
    }
    this.expect(')');
    return inner;
  }
}

function hasAggregate(expr: ScalarExpr): boolean {
  if (expr.kind === 'aggregate') return true;
  if (expr.kind === 'arith') return hasAggregate(expr.left) || hasAggregate(expr.right);
  return false;
}

function hasMetrics(expr: MetricsExpr): boolean {
  if (expr.kind === 'metrics') return true;
  if (expr.kind === 'math') return hasMetrics(expr.left) || hasMetrics(expr.right);
  return false;
}

/** Parses and validates a TraceQL query (an empty query means `{}`); throws TraceQLParseError or TraceQLValidationError. */
export function parseQuery(query: string): Query {
  if (query.trim() === '') return { kind: 'search', pipeline: { stages: [{ kind: 'spanset', expr: { kind: 'filter', expr: null } }] } };
  const parsed = new Parser(lex(query)).root();
  validateQuery(parsed);
  return parsed;
}

/**
 * A tag as the v2 tag values call names it: `span.http.method`, `resource.service.name`, `.foo`, `event.x`, or an
 * intrinsic (`name`, `status`, `kind`, `duration`, `event:name`, …). Undefined when it is none of these.
 */
export function parseAttributeRef(tag: string): AttributeRef | undefined {
  try {
    const parser = new Parser(lex(tag));
    const ref = parser.attribute();
    return ref && parser.peek().kind === 'eof' && !ref.parent ? ref : undefined;
  } catch {
    return undefined;
  }
}
