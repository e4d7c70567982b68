// PromQL text → the engine's syntax tree. The Prometheus project's own grammar (@prometheus-io/lezer-promql) finds
// the structure; this module turns its tree into ./ast.ts nodes, refuses what Prometheus 2.42 does not accept (the
// grammar also knows later additions) and checks the types with Prometheus' messages. Errors read as Prometheus'
// (`1:7: parse error: …`) and carry the character range, so an editor can underline it.

import { parser as grammar } from '@prometheus-io/lezer-promql';
import type { SyntaxNode } from '@lezer/common';
import type { LabelMatcher, MatchOp } from '../storage/querier';
import { compileAnchored, matcherAcceptsEmpty, RegexError } from '../../re2-pattern/re2-pattern';
import { withOwnKeywordsOnly } from '../../lezer-keywords/own-keywords';
import {
  BINARY_PRECEDENCE, COMPARISON_OPS, FUNCTIONS, SET_OPS, typeName, typeOf,
  type AggregateOp, type AtModifier, type BinaryExpr, type BinaryOp, type Expr, type PosRange, type ValueType, type VectorMatching,
  type VectorSelector,
} from './ast';
import { parseDuration } from './duration';
import { DES, grammarText, HOLT, HOLT_SHIFT } from './grammar-text';
import { describeToken, nextTokenEnd, parseError } from './parse-error';
import { LABEL_NAME_RE, parseNumber, unquoteString } from './lex';

// `constructor` and `__proto__` are names like any other (packages/lezer-keywords).
const parser = withOwnKeywordsOnly(grammar);

/** Parses and type-checks a PromQL expression; throws PromQLError (bad_data) with Prometheus' message. */
export function parseExpr(query: string): Expr {
  const p = new Converter(query);
  return p.run();
}

const AGGREGATE_OPS: Record<string, AggregateOp> = {
  Sum: 'sum', Avg: 'avg', Count: 'count', Min: 'min', Max: 'max', Group: 'group', Stddev: 'stddev',
  Stdvar: 'stdvar', Topk: 'topk', Bottomk: 'bottomk', Quantile: 'quantile', CountValues: 'count_values',
};

const BINARY_OPS: Record<string, BinaryOp> = {
  Add: '+', Sub: '-', Mul: '*', Div: '/', Mod: '%', Pow: '^', Atan2: 'atan2', Eql: '==', Neq: '!=', Gtr: '>',
  Lss: '<', Gte: '>=', Lte: '<=', And: 'and', Or: 'or', Unless: 'unless',
};

const MATCH_OPS: Record<string, MatchOp> = { EqlSingle: '=', Neq: '!=', EqlRegex: '=~', NeqRegex: '!~' };

// The grammar's node names that are expressions (its `expr` group).
const EXPR_NODES = new Set([
  'AggregateExpr', 'BinaryExpr', 'FunctionCall', 'MatrixSelector', 'NumberDurationLiteral', 'OffsetExpr',
  'AnchoredExpr', 'SmoothedExpr', 'ParenExpr', 'StringLiteral', 'SubqueryExpr', 'UnaryExpr', 'VectorSelector',
  'StepInvariantExpr',
]);

class Converter {
  /** What the grammar reads. */
  private readonly text: string;
  /** The query at the grammar's positions. */
  private readonly exact: string;
  private readonly shifts: number[];
  /** Binary expressions an offset, @ or range was moved into: written without parentheses, open to rebinding. */
  private readonly loose = new WeakSet<Expr>();

  constructor(private readonly query: string) {
    ({ text: this.text, exact: this.exact, shifts: this.shifts } = grammarText(query));
  }

  /** A position in the read text → the position in the query. */
  private orig(pos: number): number {
    let shift = 0;
    for (const end of this.shifts) if (pos >= end) shift += HOLT_SHIFT;
    return pos - shift;
  }

  private range(node: { from: number; to: number }): PosRange {
    return { start: this.orig(node.from), end: this.orig(node.to) };
  }

  private fail(node: { from: number; to: number }, message: string): never {
    throw parseError(this.query, this.range(node), message);
  }

  private src(node: SyntaxNode): string {
    return this.exact.slice(node.from, node.to);
  }

  run(): Expr {
    if (this.query.trim() === '') throw parseError(this.query, { start: 0, end: 0 }, 'no expression found in input');
    const tree = parser.parse(this.text);
    const top = tree.topNode;
    this.checkSyntax(top);
    const exprs = children(top).filter((c) => EXPR_NODES.has(c.name));
    if (exprs.length !== 1) this.fail(top, 'no expression found in input');
    const expr = this.expr(exprs[0]);
    this.check(expr);
    return expr;
  }

  /** The first error node of the grammar's tree, as Prometheus words it. */
  private checkSyntax(top: SyntaxNode): void {
    let err: SyntaxNode | undefined;
    top.cursor().iterate((n) => {
      if (err) return false;
      if (n.type.isError) {
        err = n.node;
        return false;
      }
      return true;
    });
    if (!err) return;
    const at = err.from;
    if (at >= this.exact.length || this.exact.slice(at).trim() === '') {
      // Unclosed brackets or a dangling operator.
      const opened = this.unclosed(at);
      const context = /\boffset\s*$/.test(this.exact.slice(0, at)) ? ' in offset, expected duration' : '';
      this.fail({ from: Math.min(at, this.exact.length), to: this.exact.length }, opened ?? `unexpected end of input${context}`);
    }
    // An identifier followed by "(" that the grammar does not know as a function.
    const before = /([A-Za-z_:][A-Za-z0-9_:]*)\s*$/.exec(this.exact.slice(0, at));
    if (before && this.exact.slice(at).trimStart().startsWith('(')) {
      const from = at - before[0].length;
      this.fail({ from, to: from + before[1].length }, `unknown function with name "${before[1]}"`);
    }
    const tokenEnd = err.to > err.from ? err.to : nextTokenEnd(this.exact, at);
    const token = this.exact.slice(at, tokenEnd).trim() || this.exact[at];
    if (token.startsWith('"') || token.startsWith("'")) {
      const q = token[0];
      if (!this.exact.slice(at + 1).includes(q)) this.fail({ from: at, to: this.exact.length }, 'unterminated quoted string');
    }
    const context = err.parent?.name === 'GroupingLabels' ? ' in grouping opts, expected "," or ")"' : '';
    this.fail({ from: at, to: tokenEnd }, `unexpected ${describeToken(token)}${context}`);
  }

  private unclosed(at: number): string | undefined {
    let paren = 0;
    let brace = 0;
    let bracket = 0;
    for (let i = 0; i < at && i < this.exact.length; i++) {
      const c = this.exact[i];
      if (c === '"' || c === "'" || c === '`') {
        const end = this.exact.indexOf(c, i + 1);
        if (end < 0) return 'unterminated quoted string';
        i = end;
        continue;
      }
      if (c === '(') paren++;
      else if (c === ')') paren--;
      else if (c === '{') brace++;
      else if (c === '}') brace--;
      else if (c === '[') bracket++;
      else if (c === ']') bracket--;
    }
    if (brace > 0) return 'unexpected end of input inside braces';
    if (bracket > 0) return 'unexpected end of input in duration or subquery';
    if (paren > 0) return 'unclosed left parenthesis';
    return undefined;
  }

  private expr(node: SyntaxNode): Expr {
    const pos = this.range(node);
    switch (node.name) {
      case 'NumberDurationLiteral':
        return { kind: 'NumberLiteral', value: this.number(node), pos };
      case 'StringLiteral':
        return { kind: 'StringLiteral', value: this.string(node), pos };
      case 'ParenExpr':
        return { kind: 'ParenExpr', expr: this.expr(this.exprChild(node)), pos };
      case 'UnaryExpr': {
        const op = this.src(node.getChild('UnaryOp')!) as '-' | '+';
        const inner = this.expr(this.exprChild(node));
        if (inner.kind === 'NumberLiteral') return { kind: 'NumberLiteral', value: op === '-' ? -inner.value : inner.value, pos };
        return { kind: 'UnaryExpr', op, expr: inner, pos };
      }
      case 'VectorSelector':
        return this.vectorSelector(node);
      case 'MatrixSelector': {
        const rangeMs = this.duration(node.getChild('DurationExpr')!);
        return this.postfix(this.expr(this.exprChild(node)), (inner) => {
          if (inner.kind !== 'VectorSelector') this.failAt({ start: inner.pos.end, end: pos.end }, 'ranges only allowed for vector selectors');
          if (inner.offsetMs !== 0 || inner.at) this.fail(node, 'no offset modifiers allowed before range');
          return { kind: 'MatrixSelector', selector: inner, rangeMs, pos: { start: inner.pos.start, end: pos.end } };
        });
      }
      case 'SubqueryExpr': {
        const durations = node.getChildren('DurationExpr');
        const rangeMs = this.duration(durations[0]);
        const stepMs = durations[1] ? this.duration(durations[1]) : 0;
        return this.postfix(this.expr(this.exprChild(node)), (inner) => (
          { kind: 'SubqueryExpr', expr: inner, rangeMs, stepMs, offsetMs: 0, pos: { start: inner.pos.start, end: pos.end } }
        ));
      }
      case 'OffsetExpr': {
        const offsetMs = this.offsetDuration(node.getChild('OffsetDurationExpr')!);
        return this.postfix(this.expr(this.exprChild(node)), (inner) => this.withModifier(inner, node, (target) => {
          if (target.offsetMs !== 0) this.fail(node, 'offset may not be set multiple times');
          target.offsetMs = offsetMs;
        }, 'offset'));
      }
      case 'StepInvariantExpr': {
        const pre = node.getChild('AtModifierPreprocessors');
        let at: AtModifier;
        if (pre) at = { startOrEnd: pre.getChild('AtStart') ? 'start' : 'end' };
        else {
          const lit = node.getChild('NumberDurationLiteral');
          if (!lit) this.fail(node, 'unexpected @');
          const seconds = this.number(lit);
          if (!Number.isFinite(seconds) || Math.abs(seconds) >= 9.223372036854776e18) {
            this.fail(lit, `timestamp out of bounds for @ modifier: ${seconds}`);
          }
          at = { time: roundHalfAway(seconds * 1000) };
        }
        return this.postfix(this.expr(this.exprChild(node)), (inner) => this.withModifier(inner, node, (target) => {
          if (target.at) this.fail(node, '@ <timestamp> may not be set multiple times');
          target.at = at;
        }, '@'));
      }
      case 'FunctionCall':
        return this.call(node);
      case 'AggregateExpr':
        return this.aggregate(node);
      case 'BinaryExpr':
        return this.binary(node);
      case 'AnchoredExpr':
      case 'SmoothedExpr':
        return this.fail(node, `unexpected ${node.name === 'AnchoredExpr' ? 'anchored' : 'smoothed'}`);
      default:
        return this.fail(node, `unexpected ${node.name}`);
    }
  }

  /**
   * In Prometheus' grammar `offset`, `@`, `[range]` and `[range:step]` bind tighter than any operator
   * (`a + b offset 1m` is `a + (b offset 1m)`, `-x[5m]` is `-(x[5m])`); the lezer grammar attaches them to the whole
   * operation before, so they are moved onto its last operand here.
   */
  private postfix(inner: Expr, apply: (e: Expr) => Expr): Expr {
    if (inner.kind === 'BinaryExpr') {
      const rhs = this.postfix(inner.rhs, apply);
      const expr: BinaryExpr = { ...inner, rhs, pos: { start: inner.pos.start, end: rhs.pos.end } };
      this.recomplete(expr);
      return expr;
    }
    if (inner.kind === 'UnaryExpr') {
      const operand = this.postfix(inner.expr, apply);
      const unary: Expr = { ...inner, expr: operand, pos: { start: inner.pos.start, end: operand.pos.end } };
      this.loose.add(unary);
      return unary;
    }
    return apply(inner);
  }

  /** Applies offset or @ to the selector or subquery it follows (Prometheus accepts no other place for them). */
  private withModifier(inner: Expr, node: SyntaxNode, apply: (t: { offsetMs: number; at?: AtModifier }) => void, what: string): Expr {
    const pos = this.range(node);
    if (inner.kind === 'VectorSelector') {
      apply(inner);
      return { ...inner, pos };
    }
    if (inner.kind === 'MatrixSelector') {
      apply(inner.selector);
      return { ...inner, pos };
    }
    if (inner.kind === 'SubqueryExpr') {
      apply(inner);
      return { ...inner, pos };
    }
    if (what === 'offset') this.fail(node, 'offset modifier must be preceded by an instant vector selector or range vector selector or a subquery');
    return this.fail(node, '@ modifier must be preceded by an instant vector selector or range vector selector or a subquery');
  }

  private exprChild(node: SyntaxNode): SyntaxNode {
    const c = children(node).find((n) => EXPR_NODES.has(n.name));
    if (!c) this.fail(node, 'unexpected end of input');
    return c;
  }

  private number(node: SyntaxNode): number {
    const text = this.src(node).replace(/\s+/g, '');
    if (parseDuration(text.replace(/^[+-]/, '')) !== undefined && /[a-z]$/.test(text) && !/^[+-]?(inf|nan)$/i.test(text)) {
      this.fail(node, `unexpected duration "${text}"`);
    }
    const v = parseNumber(text);
    if (v === undefined) this.fail(node, `bad number or duration syntax: "${text}"`);
    return v;
  }

  private string(node: SyntaxNode): string {
    try {
      return unquoteString(this.src(node));
    } catch (error) {
      return this.fail(node, (error as Error).message);
    }
  }

  private duration(node: SyntaxNode): number {
    const lit = node.getChild('NumberDurationLiteralInDurationContext');
    if (!lit || children(node).length !== 1) this.fail(node, 'missing unit character in duration');
    const text = this.src(lit);
    const ms = parseDuration(text);
    if (/^[\d.]+$/.test(text)) this.fail(lit, 'missing unit character in duration');
    if (ms === undefined) this.fail(lit, `bad duration syntax: "${text}"`);
    if (ms === 0) this.fail(lit, 'duration must be greater than 0');
    return ms;
  }

  private offsetDuration(node: SyntaxNode): number {
    const unary = node.getChild('UnaryOp');
    if (unary) {
      const inner = this.offsetDuration(node.getChild('OffsetDurationExpr')!);
      return this.src(unary) === '-' ? -inner : inner;
    }
    const lit = node.getChild('NumberDurationLiteralInDurationContext');
    if (!lit) this.fail(node, `unexpected "${this.src(node)}" in offset, expected a duration`);
    const text = this.src(lit);
    const ms = parseDuration(text);
    if (/^[\d.]+$/.test(text)) this.fail(lit, 'missing unit character in duration');
    if (ms === undefined) this.fail(lit, `bad duration syntax: "${text}"`);
    return ms;
  }

  private vectorSelector(node: SyntaxNode): VectorSelector {
    const pos = this.range(node);
    const ident = node.getChild('Identifier');
    const matchers: LabelMatcher[] = [];
    let name: string | undefined;
    if (ident) {
      name = this.src(ident);
      matchers.push({ name: '__name__', op: '=', value: name });
    }
    const list = node.getChild('LabelMatchers');
    if (list) {
      for (const m of children(list)) {
        if (m.name === 'QuotedLabelName') this.fail(m, 'unexpected string in label matchers (quoted metric names need a later Prometheus)');
        if (m.name !== 'UnquotedLabelMatcher' && m.name !== 'QuotedLabelMatcher') continue;
        const labelNode = m.getChild('LabelName') ?? m.getChild('QuotedLabelName');
        const label = labelNode!.name === 'LabelName' ? this.src(labelNode!) : this.string(labelNode!.getChild('StringLiteral')!);
        if (labelNode!.name !== 'LabelName') this.fail(labelNode!, 'unexpected string in label matchers');
        const opNode = m.getChild('MatchOp')!.firstChild!;
        const op = MATCH_OPS[opNode.name];
        const valueNode = m.getChildren('StringLiteral').at(-1)!;
        const value = this.string(valueNode);
        if (op === '=~' || op === '!~') {
          try {
            compileAnchored(value);
          } catch (error) {
            // Worded as Go's regexp package, at the matcher, as Prometheus.
            const text = error instanceof RegexError ? error.message.replace(/^invalid regular expression "(?:[^"\\]|\\.)*": /, '') : String(error);
            this.fail(m, text);
          }
        }
        if (label === '__name__' && name !== undefined) this.fail(node, `metric name must not be set twice: "${name}" or "${value}"`);
        matchers.push({ name: label, op, value });
      }
    }
    // Prometheus refuses selectors that would select every series.
    if (!matchers.some((m) => !matcherAcceptsEmpty(m))) this.fail(node, 'vector selector must contain at least one non-empty matcher');
    return { kind: 'VectorSelector', name, matchers, offsetMs: 0, pos };
  }

  private call(node: SyntaxNode): Expr {
    const pos = this.range(node);
    const id = node.getChild('FunctionIdentifier')!;
    let name = this.src(id);
    if (name === DES) name = HOLT;
    const sig = FUNCTIONS[name];
    if (!sig) this.fail(id, `unknown function with name "${name}"`);
    const args = this.args(node.getChild('FunctionCallBody')!);
    return { kind: 'Call', func: name, args, pos };
  }

  private args(body: SyntaxNode): Expr[] {
    return children(body).filter((c) => EXPR_NODES.has(c.name)).map((c) => this.expr(c));
  }

  private aggregate(node: SyntaxNode): Expr {
    const pos = this.range(node);
    const opNode = node.getChild('AggregateOp')!.firstChild!;
    const op = AGGREGATE_OPS[opNode.name];
    if (!op) this.fail(opNode, `unknown aggregation "${this.src(opNode)}"`);
    const args = this.args(node.getChild('FunctionCallBody')!);
    const modifier = node.getChild('AggregateModifier');
    let grouping: string[] = [];
    let without = false;
    if (modifier) {
      without = modifier.getChild('Without') !== null;
      grouping = this.groupingLabels(modifier.getChild('GroupingLabels')!);
    }
    const needsParam = op === 'topk' || op === 'bottomk' || op === 'quantile' || op === 'count_values';
    const want = needsParam ? 2 : 1;
    if (args.length !== want) {
      if (args.length === 0) this.fail(node, 'no arguments for aggregate expression provided');
      this.fail(node, `wrong number of arguments for aggregate expression provided, expected ${want}, got ${args.length}`);
    }
    return {
      kind: 'AggregateExpr', op, expr: args[want - 1], param: needsParam ? args[0] : undefined, grouping, without,
      hasModifier: modifier !== null, pos,
    };
  }

  private groupingLabels(node: SyntaxNode): string[] {
    const out: string[] = [];
    for (const c of children(node)) {
      if (c.name === 'LabelName') out.push(this.src(c));
      else if (c.name === 'QuotedLabelName') this.fail(c, 'unexpected string in grouping opts, expected label');
    }
    for (const l of out) if (!LABEL_NAME_RE.test(l)) this.fail(node, `invalid label name "${l}"`);
    return out;
  }

  private binary(node: SyntaxNode): Expr {
    const pos = this.range(node);
    const parts = children(node);
    const exprs = parts.filter((c) => EXPR_NODES.has(c.name));
    const opNode = parts.find((c) => BINARY_OPS[c.name] !== undefined && !EXPR_NODES.has(c.name))!;
    const op = BINARY_OPS[opNode.name];
    if (node.getChild('FillModifier')) this.fail(node.getChild('FillModifier')!, 'unexpected fill modifier');
    const lhs = this.expr(exprs[0]);
    const rhs = this.expr(exprs[1]);
    // `-2 ^ 2` is -(2 ^ 2) in Prometheus: a sign binds less tightly than `^`.
    if (op === '^' && exprs[0].name === 'NumberDurationLiteral' && /^\s*[-+]/.test(this.src(exprs[0]))) {
      const signed = this.src(exprs[0]).trim();
      const magnitude: Expr = { kind: 'NumberLiteral', value: Math.abs(lhs.kind === 'NumberLiteral' ? lhs.value : 0), pos: lhs.pos };
      if (lhs.kind === 'NumberLiteral' && Number.isNaN(lhs.value)) (magnitude as { value: number }).value = NaN;
      const inner: Expr = { kind: 'BinaryExpr', op, lhs: magnitude, rhs, returnBool: false, pos };
      const value = signed.startsWith('-') ? { kind: 'UnaryExpr' as const, op: '-' as const, expr: inner, pos } : inner;
      this.completeBinary(inner, pos);
      return value;
    }
    const returnBool = node.getChild('BoolModifier') !== null;
    const clause = node.getChild('MatchingModifierClause');
    let matching: VectorMatching | undefined;
    if (clause) {
      const on = clause.getChild('On') !== null;
      const lists = clause.getChildren('GroupingLabels');
      const left = clause.getChild('GroupLeft') !== null;
      const right = clause.getChild('GroupRight') !== null;
      matching = {
        card: left ? 'many-to-one' : right ? 'one-to-many' : 'one-to-one', on, labels: this.groupingLabels(lists[0]),
        include: lists[1] ? this.groupingLabels(lists[1]) : [], explicit: true,
      };
    }
    return this.rebind({ kind: 'BinaryExpr', op, lhs, rhs, returnBool, matching, pos, opPos: this.range(opNode) });
  }

  /**
   * `a + b offset 5m * 0` reaches here as `(a + b offset 5m) * 0` once the offset is moved onto `b`: an operator
   * binding tighter than the loose left side's takes that side's last operand instead (`a + (b offset 5m * 0)`).
   */
  private rebind(expr: BinaryExpr): Expr {
    const lhs = expr.lhs;
    // A sign binds as `*` does: only `^` takes its operand (`-a @ 1 ^ 2` is `-(a @ 1 ^ 2)`).
    if (lhs.kind === 'UnaryExpr' && this.loose.has(lhs) && BINARY_PRECEDENCE[expr.op] > BINARY_PRECEDENCE['*']) {
      const operand = this.rebind({ ...expr, lhs: lhs.expr, pos: { start: lhs.expr.pos.start, end: expr.pos.end } });
      const unary: Expr = { ...lhs, expr: operand, pos: { start: lhs.pos.start, end: expr.pos.end } };
      this.loose.add(unary);
      return unary;
    }
    const tighter = lhs.kind === 'BinaryExpr' && this.loose.has(lhs)
      && (BINARY_PRECEDENCE[expr.op] > BINARY_PRECEDENCE[lhs.op] || (expr.op === '^' && lhs.op === '^'));
    if (!tighter) {
      this.completeBinary(expr, expr.pos);
      return expr;
    }
    const inner = this.rebind({ ...expr, lhs: lhs.rhs, pos: { start: lhs.rhs.pos.start, end: expr.pos.end } });
    const outer: BinaryExpr = { ...lhs, rhs: inner, pos: { start: lhs.pos.start, end: expr.pos.end } };
    this.recomplete(outer);
    return outer;
  }

  /** Checks a binary expression again after one of its sides changed; it stays open to rebinding. */
  private recomplete(expr: BinaryExpr): void {
    expr.matching = expr.matching && { ...expr.matching };
    if (expr.matching && !expr.matching.explicit) expr.matching = undefined;
    if (expr.matching && expr.matching.card === 'many-to-many') expr.matching.card = 'one-to-one';
    this.completeBinary(expr, expr.pos);
    this.loose.add(expr);
  }

  /** Prometheus' checks of a binary expression (bool, matching, set operators, scalar comparisons). */
  private completeBinary(expr: Expr & { kind: 'BinaryExpr' }, pos: PosRange): void {
    const node = pos;
    // Prometheus places these at the operator.
    const at = expr.opPos ?? pos;
    const lt = typeOf(expr.lhs);
    const rt = typeOf(expr.rhs);
    const opName = expr.op;
    if (expr.returnBool && !COMPARISON_OPS.has(expr.op)) this.failAt(at, 'bool modifier can only be used on comparison operators');
    if ((lt !== 'scalar' && lt !== 'vector') || (rt !== 'scalar' && rt !== 'vector')) {
      this.failAt(node, 'binary expression must contain only scalar and instant vector types');
    }
    if (COMPARISON_OPS.has(expr.op) && !expr.returnBool && lt === 'scalar' && rt === 'scalar') {
      this.failAt(at, 'comparisons between scalars must use BOOL modifier');
    }
    if (SET_OPS.has(expr.op) && (lt === 'scalar' || rt === 'scalar')) {
      this.failAt(node, `set operator "${opName}" not allowed in binary scalar expression`);
    }
    if (expr.matching && (lt !== 'vector' || rt !== 'vector')) {
      this.failAt(node, 'vector matching only allowed between instant vectors');
    }
    if (lt === 'vector' && rt === 'vector') {
      if (!expr.matching) expr.matching = { card: 'one-to-one', on: false, labels: [], include: [], explicit: false };
      if (SET_OPS.has(expr.op)) {
        if (expr.matching.card === 'many-to-one' || expr.matching.card === 'one-to-many') {
          this.failAt(node, `no grouping allowed for "${opName}" operation`);
        }
        expr.matching.card = 'many-to-many';
      }
      if (expr.matching.on) {
        for (const l of expr.matching.include) {
          if (expr.matching.labels.includes(l)) this.failAt(at, `label "${l}" must not occur in ON and GROUP clause at once`);
        }
      }
    }
  }

  /** Prometheus' type checks (checkAST) over the whole tree. */
  private check(expr: Expr): void {
    switch (expr.kind) {
      case 'ParenExpr':
        this.check(expr.expr);
        return;
      case 'UnaryExpr': {
        const t = typeOf(expr.expr);
        if (t !== 'scalar' && t !== 'vector') {
          this.failAt(expr.pos, `unary expression only allowed on expressions of type scalar or instant vector, got "${typeName(t)}"`);
        }
        this.check(expr.expr);
        return;
      }
      case 'BinaryExpr':
        this.check(expr.lhs);
        this.check(expr.rhs);
        return;
      case 'SubqueryExpr': {
        const t = typeOf(expr.expr);
        if (t !== 'vector') this.failAt(expr.pos, `subquery is only allowed on instant vector, got ${t} instead`);
        this.check(expr.expr);
        return;
      }
      case 'AggregateExpr': {
        const t = typeOf(expr.expr);
        if (t !== 'vector') this.failAt(expr.expr.pos, `expected type instant vector in aggregation expression, got ${typeName(t)}`);
        if (expr.param) {
          const want: ValueType = expr.op === 'count_values' ? 'string' : 'scalar';
          const pt = typeOf(expr.param);
          if (pt !== want) this.failAt(expr.param.pos, `expected type ${typeName(want)} in aggregation parameter, got ${typeName(pt)}`);
          this.check(expr.param);
        }
        this.check(expr.expr);
        return;
      }
      case 'Call': {
        const sig = FUNCTIONS[expr.func];
        const n = sig.args.length;
        const got = expr.args.length;
        if (sig.optional === undefined) {
          if (got !== n) this.failAt(expr.pos, `expected ${n} argument(s) in call to "${expr.func}", got ${got}`);
        } else {
          const min = n - sig.optional;
          if (got < min) this.failAt(expr.pos, `expected at least ${min} argument(s) in call to "${expr.func}", got ${got}`);
          if (!sig.variadic && got > n) this.failAt(expr.pos, `expected at most ${n} argument(s) in call to "${expr.func}", got ${got}`);
        }
        expr.args.forEach((arg, i) => {
          const want = sig.args[Math.min(i, n - 1)];
          const t = typeOf(arg);
          if (t !== want) this.failAt(arg.pos, `expected type ${typeName(want)} in call to function "${expr.func}", got ${typeName(t)}`);
          this.check(arg);
        });
        return;
      }
      default:
        return;
    }
  }

  private failAt(pos: PosRange, message: string): never {
    throw parseError(this.query, pos, message);
  }
}

function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) out.push(c);
  return out;
}

function roundHalfAway(v: number): number {
  return v < 0 ? -Math.round(-v) : Math.round(v);
}
