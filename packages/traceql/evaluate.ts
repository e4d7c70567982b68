import { fieldText, scalarText, type AttributeRef, type FieldExpr, type Pipeline, type ScalarExpr, type SpansetExpr, type SpansetOp, type Stage } from './ast';
import { evalField, spanMatches, staticValue, type EvalSpan, type EvalTrace, type Value } from './field-eval';
import { foldScalar } from './validate';

// A search query evaluated over one trace held in memory, as Tempo's engine does (pkg/traceql/ast_execute.go): the
// pipeline starts with one spanset holding every span of the trace; each stage turns the list of spansets into a
// new one (a spanset expression keeps the spans it matches within each spanset, a scalar filter keeps the spansets
// whose aggregate compares true, by() splits each spanset by a value, coalesce() joins them, select() names
// attributes to answer with). Empty spansets are dropped; the trace matches when one is left.

export interface Spanset {
  spans: EvalSpan[];
  /** by() values and the aggregate a scalar filter computed, answered as the spanset's attributes. */
  attributes: [string, Value][];
  /** Attributes select() asks to be answered with each span. */
  selected: FieldExpr[];
}

const ALL_SPANS = (trace: EvalTrace): Spanset => ({ spans: trace.spans, attributes: [], selected: [] });

export function evaluatePipeline(pipeline: Pipeline, trace: EvalTrace, input: Spanset[] = [ALL_SPANS(trace)]): Spanset[] {
  let sets = input;
  for (const stage of pipeline.stages) {
    sets = evaluateStage(stage, trace, sets).filter((s) => s.spans.length > 0);
    if (sets.length === 0) break;
  }
  return sets;
}

function evaluateStage(stage: Stage, trace: EvalTrace, sets: Spanset[]): Spanset[] {
  switch (stage.kind) {
    case 'spanset':
      return sets.flatMap((set) => evaluateSpanset(stage.expr, trace, set));
    case 'scalarFilter':
      return sets.filter((set) => {
        const left = scalar(stage.left, set, trace);
        const right = scalar(foldScalar(stage.right), set, trace);
        if (left === undefined || right === undefined) return false;
        const c = left < right ? -1 : left > right ? 1 : 0;
        const keep = { '=': c === 0, '!=': c !== 0, '>': c > 0, '>=': c >= 0, '<': c < 0, '<=': c <= 0, '=~': false, '!~': false }[stage.op];
        if (keep && stage.left.kind === 'aggregate') set.attributes.push([scalarText(stage.left), { t: 'number', v: left }]);
        return keep;
      });
    case 'by':
      return sets.flatMap((set) => {
        const groups = new Map<string, Spanset>();
        for (const span of set.spans) {
          const values = stage.exprs.map((e) => evalField(e, span, trace, {}));
          const key = JSON.stringify(values);
          let group = groups.get(key);
          if (!group) {
            group = { spans: [], attributes: [...set.attributes, ...stage.exprs.map((e, i): [string, Value] => [`by(${fieldText(e)})`, values[i]])], selected: set.selected };
            groups.set(key, group);
          }
          group.spans.push(span);
        }
        return [...groups.values()];
      });
    case 'coalesce': {
      if (sets.length === 0) return [];
      const spans = uniqueSpans(sets.flatMap((s) => s.spans));
      return [{ spans, attributes: [], selected: [...new Set(sets.flatMap((s) => s.selected))] }];
    }
    case 'select':
      return sets.map((set) => ({ ...set, selected: [...set.selected, ...stage.exprs] }));
  }
}

function numberOf(v: Value): number | undefined {
  if (!v) return undefined;
  if (v.t === 'number') return v.v;
  if (v.t === 'text' && /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(v.v)) return Number(v.v);
  return undefined;
}

/** An aggregate over a spanset (spans without a numeric value are left out, as Tempo skips nil). */
function scalar(expr: ScalarExpr, set: Spanset, trace: EvalTrace): number | undefined {
  switch (expr.kind) {
    case 'static':
      return numberOf(staticValue(expr.value));
    case 'arith': {
      const a = scalar(expr.left, set, trace);
      const b = scalar(expr.right, set, trace);
      if (a === undefined || b === undefined) return undefined;
      return { '+': a + b, '-': a - b, '*': a * b, '/': a / b, '%': a % b, '^': a ** b }[expr.op];
    }
    case 'aggregate': {
      if (expr.op === 'count') return set.spans.length;
      const values = set.spans.map((s) => numberOf(evalField(expr.expr!, s, trace, {}))).filter((v): v is number => v !== undefined);
      if (values.length === 0) return undefined;
      if (expr.op === 'sum') return values.reduce((a, b) => a + b, 0);
      if (expr.op === 'avg') return values.reduce((a, b) => a + b, 0) / values.length;
      return expr.op === 'min' ? Math.min(...values) : Math.max(...values);
    }
  }
}

function uniqueSpans(spans: EvalSpan[]): EvalSpan[] {
  const seen = new Set<EvalSpan>();
  const out: EvalSpan[] = [];
  for (const s of spans) {
    if (seen.has(s)) continue;
    seen.add(s);
    out.push(s);
  }
  return out;
}

function evaluateSpanset(expr: SpansetExpr, trace: EvalTrace, input: Spanset): Spanset[] {
  switch (expr.kind) {
    case 'filter': {
      const spans = input.spans.filter((s) => spanMatches(expr.expr, s, trace));
      return spans.length ? [{ spans, attributes: input.attributes, selected: input.selected }] : [];
    }
    case 'pipeline':
      return evaluatePipeline(expr.pipeline, trace, [input]);
    case 'op': {
      const left = evaluateSpanset(expr.left, trace, input);
      const right = evaluateSpanset(expr.right, trace, input);
      const leftSpans = uniqueSpans(left.flatMap((s) => s.spans));
      const rightSpans = uniqueSpans(right.flatMap((s) => s.spans));
      const selected = [...new Set([...left, ...right].flatMap((s) => s.selected))];
      const one = (spans: EvalSpan[]): Spanset[] => (spans.length ? [{ spans, attributes: input.attributes, selected }] : []);
      if (expr.op === '&&') return leftSpans.length && rightSpans.length ? one(uniqueSpans([...leftSpans, ...rightSpans])) : [];
      if (expr.op === '||') return one(uniqueSpans([...leftSpans, ...rightSpans]));
      return one(structural(expr.op, leftSpans, rightSpans, trace));
    }
  }
}

function ancestors(span: EvalSpan, trace: EvalTrace): EvalSpan[] {
  const out: EvalSpan[] = [];
  const seen = new Set<string>([span.spanId]);
  let parent = span.parentId ? trace.byId.get(span.parentId) : undefined;
  // A cycle of parent ids (a malformed trace) ends the walk.
  while (parent && !seen.has(parent.spanId)) {
    out.push(parent);
    seen.add(parent.spanId);
    parent = parent.parentId ? trace.byId.get(parent.parentId) : undefined;
  }
  return out;
}

const siblingOf = (a: EvalSpan, b: EvalSpan) => a !== b && a.parentId !== '' && a.parentId === b.parentId;

/**
 * The structural operators: `L > R` the spans of R whose parent is in L, `>>` with an ancestor in L, `<` that are
 * the parent of a span in L, `<<` an ancestor of one, `~` a sibling of one; `!` keeps the spans of R for which the
 * relation does not hold; `&` answers the spans of both sides that take part in the relation.
 */
function structural(op: SpansetOp, left: EvalSpan[], right: EvalSpan[], trace: EvalTrace): EvalSpan[] {
  const inLeft = new Set(left);
  const base = op.replace(/^[!&]/, '');
  const related = (r: EvalSpan): EvalSpan[] => {
    switch (base) {
      case '>': {
        const p = r.parentId ? trace.byId.get(r.parentId) : undefined;
        return p && inLeft.has(p) ? [p] : [];
      }
      case '>>':
        return ancestors(r, trace).filter((a) => inLeft.has(a));
      case '<':
        return (trace.children.get(r.spanId) ?? []).filter((c) => inLeft.has(c));
      case '<<':
        return left.filter((l) => ancestors(l, trace).includes(r));
      default:
        return left.filter((l) => siblingOf(l, r));
    }
  };
  if (op.startsWith('!')) return right.filter((r) => related(r).length === 0);
  if (op.startsWith('&')) {
    const out: EvalSpan[] = [];
    for (const r of right) {
      const partners = related(r);
      if (partners.length) out.push(...partners, r);
    }
    return uniqueSpans(out).sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0));
  }
  return right.filter((r) => related(r).length > 0);
}

/** The attributes a query names (Tempo answers them with each matched span). */
export function referencedAttributes(pipeline: Pipeline): AttributeRef[] {
  const refs: AttributeRef[] = [];
  const field = (e: FieldExpr | null): void => {
    if (!e) return;
    if (e.kind === 'attribute') refs.push(e.ref);
    else if (e.kind === 'binary') {
      field(e.left);
      field(e.right);
    } else if (e.kind === 'unary') field(e.expr);
  };
  const spanset = (e: SpansetExpr): void => {
    if (e.kind === 'filter') field(e.expr);
    else if (e.kind === 'op') {
      spanset(e.left);
      spanset(e.right);
    } else walk(e.pipeline);
  };
  const walk = (p: Pipeline): void => {
    for (const s of p.stages) {
      if (s.kind === 'spanset') spanset(s.expr);
      else if (s.kind === 'select') s.exprs.forEach(field);
    }
  };
  walk(pipeline);
  return [...new Map(refs.map((r) => [`${r.scope}:${r.name}`, r])).values()];
}
