import { INTRINSIC_TYPES, fieldText, refText, scalarText, type BinaryOp, type FieldExpr, type MetricsExpr, type Pipeline, type Query, type ScalarExpr, type SpansetExpr, type Stage, type ValueType } from './ast';
import { compileRe2, RegexError } from '../re2-pattern/re2-pattern';

// Tempo's checks after parsing (pkg/traceql/ast_validate.go): the type of each side of an operator, what a filter
// must resolve to, what aggregates and by() must reference, regexes compiled now (RE2, as Go's regexp), the
// intrinsics that cannot be nil, and the forms Tempo parses but does not run ("… not yet supported"). The texts
// are Tempo's, with its rendering of the expression.

export class TraceQLValidationError extends Error {}

const fail = (message: string): never => {
  throw new TraceQLValidationError(message);
};
const unsupported = (feature: string): never => fail(`${feature} not yet supported`);

const NUMERIC = new Set<ValueType>(['int', 'float', 'duration']);
const BOOLEAN_OPS = new Set<string>(['&&', '||', '=', '!=', '=~', '!~', '>', '>=', '<', '<=']);

function typeValid(op: BinaryOp, t: ValueType): boolean {
  if (t === 'attribute') return true;
  switch (t) {
    case 'bool':
      return op === '&&' || op === '||' || op === '=' || op === '!=';
    case 'int':
    case 'float':
    case 'duration':
      return ['+', '-', '*', '/', '%', '^', '=', '!=', '>', '>=', '<', '<='].includes(op);
    case 'string':
      return ['=', '!=', '=~', '!~', '>', '>=', '<', '<='].includes(op);
    case 'nil':
    case 'status':
    case 'kind':
      return op === '=' || op === '!=';
  }
}

function matching(a: ValueType, b: ValueType): boolean {
  return a === 'attribute' || b === 'attribute' || a === b || (NUMERIC.has(a) && NUMERIC.has(b)) || a === 'nil' || b === 'nil';
}

/** Tempo's two checks of a binary operation's operands, in its order. */
function checkOperands(op: BinaryOp, l: ValueType, r: ValueType, text: string): void {
  if (!matching(l, r)) fail(`binary operations must operate on the same type: ${text}`);
  if (!typeValid(op, l) || !typeValid(op, r)) fail(`illegal operation for the given types: ${text}`);
}

export function fieldType(expr: FieldExpr): ValueType {
  switch (expr.kind) {
    case 'static':
      return expr.value.type;
    case 'attribute':
      return expr.ref.scope === 'intrinsic' ? INTRINSIC_TYPES[expr.ref.name] : 'attribute';
    case 'binary': {
      if (BOOLEAN_OPS.has(expr.op)) return 'bool';
      const left = fieldType(expr.left);
      return left !== 'attribute' ? left : fieldType(expr.right);
    }
    case 'unary':
      return expr.op === 'exists' || expr.op === 'notExists' ? 'bool' : fieldType(expr.expr);
  }
}

export function referencesSpan(expr: FieldExpr): boolean {
  if (expr.kind === 'attribute') return true;
  if (expr.kind === 'binary') return referencesSpan(expr.left) || referencesSpan(expr.right);
  if (expr.kind === 'unary') return referencesSpan(expr.expr);
  return false;
}

function validateField(expr: FieldExpr): void {
  switch (expr.kind) {
    case 'static':
      return;
    case 'attribute':
      if (expr.ref.parent) unsupported('parent');
      if (expr.ref.scope === 'intrinsic' && expr.ref.name === 'parent') unsupported('intrinsic (parent)');
      return;
    case 'unary': {
      validateField(expr.expr);
      if (expr.op === 'notExists' && expr.expr.kind === 'attribute') {
        const ref = expr.expr.ref;
        if (ref.scope === 'intrinsic') fail(`${refText(ref)}=nil is not valid because intrinsics cannot be nil`);
        if (ref.scope === 'resource' && ref.name === 'service.name' && !ref.parent) fail(`${refText(ref)}=nil is not valid because resource.service.name cannot be nil`);
      }
      const t = fieldType(expr.expr);
      if (t === 'attribute' || expr.op === 'exists' || expr.op === 'notExists') return;
      if (expr.op === '-' ? !NUMERIC.has(t) : t !== 'bool') fail(`illegal operation for the given type: ${fieldText(expr)}`);
      return;
    }
    case 'binary': {
      validateField(expr.left);
      validateField(expr.right);
      checkOperands(expr.op, fieldType(expr.left), fieldType(expr.right), fieldText(expr));
      if (expr.op === '=~' || expr.op === '!~') {
        if (expr.right.kind !== 'static' || expr.right.value.type !== 'string') fail(`invalid type for =~ or !~: ${fieldText(expr.right)}`);
        try {
          compileRe2((expr.right as { value: { value: string } }).value.value);
        } catch (error) {
          if (error instanceof RegexError) fail(`invalid regex: ${fieldText(expr.right)}`);
          throw error;
        }
      }
      return;
    }
  }
}

function validateSpanset(expr: SpansetExpr): void {
  if (expr.kind === 'op') {
    validateSpanset(expr.left);
    validateSpanset(expr.right);
  } else if (expr.kind === 'pipeline') validatePipeline(expr.pipeline);
  else if (expr.expr) {
    validateField(expr.expr);
    const t = fieldType(expr.expr);
    if (t !== 'attribute' && t !== 'bool') fail(`span filter field expressions must resolve to a boolean: { ${fieldText(expr.expr)} }`);
  }
}

function scalarType(expr: ScalarExpr): ValueType {
  if (expr.kind === 'static') return expr.value.type;
  if (expr.kind === 'aggregate') return expr.op === 'count' || !expr.expr ? 'int' : fieldType(expr.expr);
  const left = scalarType(expr.left);
  return left !== 'attribute' ? left : scalarType(expr.right);
}

function validateScalar(expr: ScalarExpr): void {
  if (expr.kind === 'static') return;
  if (expr.kind === 'aggregate') {
    if (!expr.expr) return;
    validateField(expr.expr);
    const t = fieldType(expr.expr);
    if (t !== 'attribute' && !NUMERIC.has(t)) fail(`aggregate field expressions must resolve to a number type: ${scalarText(expr)}`);
    if (!referencesSpan(expr.expr)) fail(`aggregate field expressions must reference the span: ${scalarText(expr)}`);
    return;
  }
  validateScalar(expr.left);
  validateScalar(expr.right);
  checkOperands(expr.op, scalarType(expr.left), scalarType(expr.right), scalarText(expr));
}

/** A constant scalar expression folded to a number (Tempo folds `2 / 6` on the right of a scalar filter). */
export function foldScalar(expr: ScalarExpr): ScalarExpr {
  if (expr.kind !== 'arith') return expr;
  const left = foldScalar(expr.left);
  const right = foldScalar(expr.right);
  if (left.kind === 'static' && right.kind === 'static') {
    const n = (s: typeof left.value) => (s.type === 'duration' ? Number(s.nanos) : s.type === 'int' || s.type === 'float' ? s.value : NaN);
    const a = n(left.value);
    const b = n(right.value);
    const v = { '+': a + b, '-': a - b, '*': a * b, '/': a / b, '%': a % b, '^': a ** b }[expr.op];
    const duration = left.value.type === 'duration' || right.value.type === 'duration';
    if (duration) return { kind: 'static', value: { type: 'duration', nanos: BigInt(Math.trunc(v)) } };
    return { kind: 'static', value: { type: Number.isInteger(v) && left.value.type === 'int' && right.value.type === 'int' ? 'int' : 'float', value: v } };
  }
  return { kind: 'arith', op: expr.op, left, right };
}

function validateStage(stage: Stage): void {
  switch (stage.kind) {
    case 'spanset':
      return validateSpanset(stage.expr);
    case 'scalarFilter': {
      validateScalar(stage.left);
      validateScalar(stage.right);
      checkOperands(stage.op, scalarType(stage.left), scalarType(stage.right), `${scalarText(stage.left)} ${stage.op} ${scalarText(stage.right)}`);
      if (stage.left.kind !== 'aggregate') unsupported('scalar filter lhs of type (%v)');
      if (foldScalar(stage.right).kind !== 'static') unsupported('scalar filter rhs of type (%v)');
      return;
    }
    case 'by':
      for (const e of stage.exprs) {
        if (!referencesSpan(e)) fail(`grouping field expressions must reference the span: by(${fieldText(e)})`);
        validateField(e);
      }
      return;
    case 'select':
      for (const e of stage.exprs) validateField(e);
      return;
    case 'coalesce':
      return;
  }
}

function validatePipeline(pipeline: Pipeline): void {
  for (const stage of pipeline.stages) validateStage(stage);
}

function validateMetrics(expr: MetricsExpr, inMath: boolean): void {
  if (expr.kind === 'number') return;
  for (const s of expr.second) if (s.kind !== 'filter' && s.n <= 0) fail(`${s.kind} limit must be greater than 0: ${s.kind}(${s.n})`);
  if (expr.kind === 'math') {
    validateMetrics(expr.left, true);
    validateMetrics(expr.right, true);
    return;
  }
  validatePipeline(expr.pipeline);
  for (const e of expr.by) {
    if (!referencesSpan(e)) fail(`grouping field expressions must reference the span: by(${fieldText(e)})`);
    validateField(e);
  }
  if (expr.fn.fn === 'compare') {
    validateSpanset(expr.fn.filter);
    if (expr.second.length > 0 || inMath) fail('`compare()` cannot be used with second stage functions');
    // Tempo's MetricsCompare.validate, with its texts.
    const { topN, start = 0n, end = 0n } = expr.fn;
    if (topN <= 0) fail('compare() top number of values must be integer greater than 0');
    if (start !== 0n || end !== 0n) {
      if (start <= 0n || end <= 0n) fail('compare() timestamps must be positive integer unix nanoseconds');
      if (end <= start) fail('compare() end timestamp must be greater than start timestamp');
    }
  }
  if ('attribute' in expr.fn) validateField({ kind: 'attribute', ref: expr.fn.attribute });
}

export function validateQuery(query: Query): void {
  if (query.kind === 'search') validatePipeline(query.pipeline);
  else validateMetrics(query.expr, false);
}
