import { parser as grammar } from '@grafana/lezer-logql';
import type { SyntaxNode } from '@lezer/common';
import { compileAnchored, compileRe2, matcherAcceptsEmpty, RegexError } from '../../re2-pattern/re2-pattern';
import type {
  BinaryOp, CompareOp, Expr, Grouping, LabelExtraction, LabelFilter, LabelMatcher, LineFilterOp, LineFilterStage, LogRangeExpr,
  LogSelectorExpr, MatchOp, MetricExpr, RangeOp, Stage, UnwrapConv, VectorOp,
} from './ast';
import { parseDurationLiteralNs, parseModelDurationNs } from './duration';
import { grammarText, type GrammarText } from './grammar-text';
import { parseBytes } from './units';
import { withOwnKeywordsOnly } from '../../lezer-keywords/own-keywords';
import { compileTemplate, TemplateError } from '../log/template';

// `constructor` and `__proto__` are names like any other (packages/lezer-keywords).
const parser = withOwnKeywordsOnly(grammar);

// LogQL text → syntax tree, read from the tree of Grafana's own LogQL grammar (@grafana/lezer-logql, the one its
// Loki editor uses), so that what the editor accepts and what the engine runs are the same language. The grammar
// is error-tolerant; any error node becomes Loki's parse error with its position ("parse error at line L, col C").

export class LogQLParseError extends Error {
  constructor(
    readonly detail: string,
    readonly line: number,
    readonly col: number,
  ) {
    super(line > 0 ? `parse error at line ${line}, col ${col}: ${detail}` : `parse error : ${detail}`);
  }
}

const RANGE_OPS = new Set<RangeOp>([
  'count_over_time', 'rate', 'bytes_over_time', 'bytes_rate', 'absent_over_time', 'sum_over_time', 'avg_over_time',
  'min_over_time', 'max_over_time', 'stddev_over_time', 'stdvar_over_time', 'quantile_over_time', 'first_over_time',
  'last_over_time', 'rate_counter',
]);
const UNWRAPPED_OPS = new Set<RangeOp>([
  'sum_over_time', 'avg_over_time', 'min_over_time', 'max_over_time', 'stddev_over_time', 'stdvar_over_time',
  'quantile_over_time', 'first_over_time', 'last_over_time', 'rate_counter',
]);
// The range aggregations Loki lets group their series (`max_over_time(…) by (x)`).
const GROUPED_RANGE_OPS = new Set<RangeOp>([
  'avg_over_time', 'stddev_over_time', 'stdvar_over_time', 'quantile_over_time', 'max_over_time', 'min_over_time',
  'first_over_time', 'last_over_time',
]);
const VECTOR_OPS = new Set<VectorOp>(['sum', 'avg', 'min', 'max', 'count', 'stddev', 'stdvar', 'topk', 'bottomk', 'sort', 'sort_desc']);
const BINARY_TOKENS: Record<string, BinaryOp> = {
  Add: '+', Sub: '-', Mul: '*', Div: '/', Mod: '%', Pow: '^', Eql: '==', Neq: '!=', Gtr: '>', Gte: '>=', Lss: '<', Lte: '<=',
  And: 'and', Or: 'or', Unless: 'unless',
};
const MATCH_TOKENS: Record<string, MatchOp> = { Eq: '=', Neq: '!=', Re: '=~', Nre: '!~' };
const COMPARE_TOKENS: Record<string, CompareOp> = { Eq: '==', Eql: '==', Neq: '!=', Gtr: '>', Gte: '>=', Lss: '<', Lte: '<=' };
const LINE_FILTER_TOKENS: Record<string, LineFilterOp> = { PipeExact: '|=', Neq: '!=', PipeMatch: '|~', Nre: '!~', PipePattern: '|>', Npa: '!>' };

class Reader {
  constructor(
    private readonly text: string,
    readonly rewritten: GrammarText = { text, offsets: new Map(), orJoins: new Set() },
  ) {}

  src(node: SyntaxNode): string {
    return this.text.slice(node.from, node.to);
  }

  fail(at: number, detail: string): never {
    const before = this.text.slice(0, at);
    const line = before.split('\n').length;
    const col = at - (before.lastIndexOf('\n') + 1) + 1;
    throw new LogQLParseError(detail, line, col);
  }

  string(node: SyntaxNode): string {
    const raw = this.src(node);
    if (raw.startsWith('`')) return raw.slice(1, -1);
    try {
      // Go's interpreted string literals read like JSON strings for what LogQL queries contain; \' and \xNN are
      // Go-only, so rewrite them first.
      const body = raw.slice(1, -1).replace(/\\'/g, "'").replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => `\\u00${h}`);
      return JSON.parse(`"${body.replace(/(^|[^\\])((?:\\\\)*)\\([^"\\/bfnrtu])/g, '$1$2\\\\$3')}"`) as string;
    } catch {
      return this.fail(node.from, `invalid string ${raw}`);
    }
  }
}

const kids = (node: SyntaxNode): SyntaxNode[] => {
  const out: SyntaxNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) out.push(c);
  return out;
};
const kid = (node: SyntaxNode, name: string) => kids(node).find((c) => c.name === name);
/** Descendants named `name`, not looking inside a match (document order). */
function collect(node: SyntaxNode, name: string, into: SyntaxNode[] = []): SyntaxNode[] {
  for (const c of kids(node)) {
    if (c.name === name) into.push(c);
    else collect(c, name, into);
  }
  return into;
}

/** A template's text, checked now: an unknown function or an unclosed action is the query's parse error (400). */
function template(r: Reader, node: SyntaxNode): string {
  const text = r.string(node);
  try {
    compileTemplate(text);
  } catch (e) {
    if (e instanceof TemplateError) r.fail(node.from, e.message);
    throw e;
  }
  return text;
}

/** Parses a LogQL query (log or metric) into its syntax tree, or throws LogQLParseError. */
export function parseLogQL(query: string): Expr {
  const rewritten = grammarText(query);
  const tree = parser.parse(rewritten.text);
  const r = new Reader(query, rewritten);
  let error: SyntaxNode | undefined;
  tree.iterate({
    enter(n) {
      if (!error && n.type.isError) error = n.node;
      return !error;
    },
  });
  if (error) {
    const at = error.from;
    const next = query.slice(at).trimStart();
    const token = next === '' ? '$end' : (/^(\w+|"[^"]*"?|`[^`]*`?|\S)/.exec(next)?.[0] ?? next[0]);
    r.fail(query.length - next.length >= query.length ? query.length : query.length - next.length, `syntax error: unexpected ${token}`);
  }
  const top = tree.topNode.firstChild;
  if (!top || top.name !== 'Expr') return r.fail(0, 'syntax error: unexpected $end');
  try {
    return expr(r, top);
  } catch (e) {
    if (e instanceof RegexError) throw new LogQLParseError(e.message, 0, 0);
    throw e;
  }
}

/** Parses a log query (a selector and a pipeline); a metric query is a parse error. */
export function parseLogSelector(query: string): LogSelectorExpr {
  const e = parseLogQL(query);
  if (e.kind !== 'log') throw new LogQLParseError('only log queries are accepted here, not metric queries', 0, 0);
  return e;
}

function expr(r: Reader, node: SyntaxNode): Expr {
  const inner = node.firstChild!;
  if (inner.name === 'LogExpr') return logExpr(r, inner);
  return metric(r, inner);
}

function logExpr(r: Reader, node: SyntaxNode): LogSelectorExpr {
  // `( {…} | … )`: a parenthesised log query.
  const nested = kid(node, 'LogExpr');
  if (nested) return logExpr(r, nested);
  const selector = kid(node, 'Selector')!;
  const pipeline = kid(node, 'PipelineExpr');
  return { kind: 'log', matchers: matchers(r, selector), stages: pipeline ? stages(r, pipeline) : [] };
}

function matchers(r: Reader, selector: SyntaxNode): LabelMatcher[] {
  const list = collect(selector, 'Matcher').map((m) => matcher(r, m));
  // Loki refuses selectors that would select every stream.
  if (!list.some((m) => !matcherAcceptsEmpty(m))) {
    r.fail(
      selector.from,
      'queries require at least one regexp or equality matcher that does not have an empty-compatible value. For instance, app=~".*" does not meet this requirement, but app=~".+" will',
    );
  }
  return list;
}

function matcher(r: Reader, node: SyntaxNode): LabelMatcher {
  const [name, op, value] = kids(node);
  const m: LabelMatcher = { name: r.src(name), op: MATCH_TOKENS[op.name], value: r.string(value) };
  if (m.op === '=~' || m.op === '!~') compileAnchored(m.value);
  return m;
}

function pipelineStages(node: SyntaxNode, into: SyntaxNode[] = []): SyntaxNode[] {
  for (const c of kids(node)) {
    if (c.name === 'PipelineStage') into.push(c);
    else if (c.name === 'PipelineExpr') pipelineStages(c, into);
  }
  return into;
}

function stages(r: Reader, pipeline: SyntaxNode): Stage[] {
  const out: Stage[] = [];
  for (const st of pipelineStages(pipeline)) {
    for (const c of kids(st)) {
      if (c.name === 'Pipe') continue;
      if (c.name === 'LineFilters') lineFilters(r, c, out);
      else out.push(stage(r, c));
    }
  }
  return out;
}

/**
 * The line filters of one stage in order. The grammar hangs an `or` after `ip("…")` beside its LineFilter
 * (`|= ip("a") or ip("b")` is LineFilter, Or, OrFilter) and an `or` after a string inside it: both belong to the
 * filter before them, as in Loki, where the or-ed filters take the first one's operator.
 */
function lineFilters(r: Reader, node: SyntaxNode, out: Stage[]) {
  let last: { op: LineFilterOp; values: OrValue[] } | undefined;
  const done: { op: LineFilterOp; values: OrValue[] }[] = [];
  const walk = (n: SyntaxNode) => {
    for (const c of kids(n)) {
      if (c.name === 'LineFilters') walk(c);
      else if (c.name === 'LineFilter') {
        const filter = kid(c, 'Filter')!;
        if (!last || !r.rewritten.orJoins.has(filter.from)) {
          last = { op: LINE_FILTER_TOKENS[filter.firstChild!.name], values: [] };
          done.push(last);
        }
        orValues(r, c, last.op, last.values);
      } else if (c.name === 'OrFilter' && last) orValues(r, c, last.op, last.values);
    }
  };
  walk(node);
  for (const { op, values } of done) {
    const f: LineFilterStage = { kind: 'line_filter', op, values: values.map((v) => v.value), ip: values.some((v) => v.ip) };
    // A per-value mask only when plain strings and ip() are mixed, so that the common forms read as before.
    if (f.ip && !values.every((v) => v.ip)) f.ipValues = values.map((v) => v.ip);
    out.push(f);
  }
}

interface OrValue {
  value: string;
  ip: boolean;
}

/** A filter's values (its string and those of the `or` chain inside it), each a plain string or an ip(). */
function orValues(r: Reader, node: SyntaxNode, op: LineFilterOp, into: OrValue[]) {
  let ip = false;
  for (const c of kids(node)) {
    if (c.name === 'FilterOp') ip = true;
    else if (c.name === 'OrFilter') orValues(r, c, op, into);
    else if (c.name === 'String') {
      const value = r.string(c);
      if (ip && op !== '|=' && op !== '!=') r.fail(node.from, 'ip() is only allowed with |= and !=');
      if (!ip && (op === '|~' || op === '!~')) compileRe2(value);
      if (!ip && (op === '|>' || op === '!>')) validatePattern(r, node, value);
      into.push({ value, ip });
      ip = false;
    }
  }
}

/** A pattern line filter: Loki takes any pattern here, the empty one too (it keeps every line). */
function validatePattern(r: Reader, node: SyntaxNode, pattern: string) {
  if (pattern !== '' && !/<[A-Za-z_][A-Za-z0-9_]*>/.test(pattern) && !pattern.includes('<_>') && pattern.trim() === '') r.fail(node.from, 'invalid pattern');
}

function extractions(r: Reader, node: SyntaxNode | undefined): LabelExtraction[] {
  if (!node) return [];
  return collect(node, 'LabelExtractionExpression').map((e) => {
    const label = r.src(kid(e, 'Identifier')!);
    const s = kid(e, 'String');
    return { label, path: s ? r.string(s) : label };
  });
}

function stage(r: Reader, node: SyntaxNode): Stage {
  switch (node.name) {
    case 'LabelParser': {
      const [kw, arg] = kids(node);
      if (kw.name === 'Json') return { kind: 'json', extractions: [] };
      if (kw.name === 'Logfmt') return { kind: 'logfmt', strict: false, keepEmpty: false, extractions: [] };
      if (kw.name === 'Unpack') return { kind: 'unpack' };
      const pattern = r.string(arg);
      if (kw.name === 'Regexp') {
        const re = compileRe2(pattern);
        const names = Object.keys(re.namedGroups());
        if (names.length === 0) r.fail(arg.from, 'at least one named capture must be supplied');
        return { kind: 'regexp', pattern };
      }
      if (!/<[A-Za-z_][A-Za-z0-9_]*>/.test(pattern.replace(/<_>/g, ''))) r.fail(arg.from, 'at least one capture is required');
      if (/>\s*</.test(pattern) && /<[^>]+><[^>]+>/.test(pattern)) r.fail(arg.from, 'consecutive capture');
      return { kind: 'pattern', pattern };
    }
    case 'JsonExpressionParser':
      return { kind: 'json', extractions: extractions(r, kid(node, 'LabelExtractionExpressionList')) };
    case 'LogfmtParser':
    case 'LogfmtExpressionParser': {
      const flags = collect(node, 'ParserFlag').map((f) => r.src(f));
      return {
        kind: 'logfmt',
        strict: flags.includes('--strict'),
        keepEmpty: flags.includes('--keep-empty'),
        extractions: extractions(r, kid(node, 'LabelExtractionExpressionList')),
      };
    }
    case 'LabelFilter':
      return { kind: 'label_filter', filter: labelFilter(r, node) };
    case 'LineFormatExpr':
      return { kind: 'line_format', template: template(r, kid(node, 'String')!) };
    case 'LabelFormatExpr': {
      const items = collect(node, 'LabelFormatMatcher').map((m) => {
        const [dst, , value] = kids(m);
        return value.name === 'String' ? { dst: r.src(dst), template: template(r, value) } : { dst: r.src(dst), src: r.src(value) };
      });
      const seen = new Set<string>();
      for (const item of items) {
        if (seen.has(item.dst)) r.fail(node.from, `multiple label name '${item.dst}' not allowed in a single format operation`);
        seen.add(item.dst);
      }
      return { kind: 'label_format', items };
    }
    case 'DropLabelsExpr':
    case 'KeepLabelsExpr': {
      const items = collect(node, node.name === 'DropLabelsExpr' ? 'DropLabel' : 'KeepLabel').map((d) => {
        const m = kid(d, 'Matcher');
        return m ? { name: r.src(m.firstChild!), matcher: matcher(r, m) } : { name: r.src(kid(d, 'Identifier')!) };
      });
      return { kind: node.name === 'DropLabelsExpr' ? 'drop' : 'keep', items };
    }
    case 'DecolorizeExpr':
      return { kind: 'decolorize' };
    default:
      return r.fail(node.from, `syntax error: unexpected ${r.src(node).split(/\s/)[0]}`);
  }
}

function labelFilter(r: Reader, node: SyntaxNode): LabelFilter {
  const cs = kids(node);
  const subs = cs.filter((c) => c.name === 'LabelFilter');
  if (subs.length === 2) {
    return { type: cs.some((c) => c.name === 'Or') ? 'or' : 'and', left: labelFilter(r, subs[0]), right: labelFilter(r, subs[1]) };
  }
  if (subs.length === 1) return labelFilter(r, subs[0]);
  const c = cs[0];
  switch (c.name) {
    case 'Matcher':
      return { type: 'string', matcher: matcher(r, c) };
    case 'NumberFilter': {
      const [name, op, lit] = kids(c);
      const text = r.src(lit).replace(/\s+/g, '');
      // strconv.ParseFloat: no hexadecimal integers (`0x10`) here.
      if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) {
        throw new LogQLParseError(`unable to parse literal as a float: strconv.ParseFloat: parsing "${text}": invalid syntax`, 0, 0);
      }
      return { type: 'number', name: r.src(name), op: COMPARE_TOKENS[op.name], value: Number(text) };
    }
    case 'UnitFilter': {
      const f = c.firstChild!;
      const [name, op, value] = kids(f);
      const text = r.src(value);
      if (f.name === 'DurationFilter') {
        const ns = parseDurationLiteralNs(text);
        if (Number.isNaN(ns)) r.fail(value.from, `invalid duration ${text}`);
        return { type: 'duration', name: r.src(name), op: COMPARE_TOKENS[op.name], value: ns };
      }
      const bytes = parseBytes(text);
      if (bytes === undefined) r.fail(value.from, `invalid bytes ${text}`);
      return { type: 'bytes', name: r.src(name), op: COMPARE_TOKENS[op.name], value: bytes };
    }
    case 'IpLabelFilter': {
      const [name, op, , value] = kids(c);
      const m = MATCH_TOKENS[op.name];
      if (m !== '=' && m !== '!=') r.fail(op.from, 'ip() label filters take = or !=');
      return { type: 'ip', name: r.src(name), op: m, value: r.string(value) };
    }
    default:
      return r.fail(c.from, `syntax error: unexpected ${r.src(c)}`);
  }
}

function grouping(r: Reader, node: SyntaxNode | undefined): Grouping | undefined {
  if (!node) return undefined;
  return { without: !!kid(node, 'Without'), labels: collect(node, 'Identifier').map((i) => r.src(i)) };
}

function number(r: Reader, node: SyntaxNode): number {
  return Number(r.src(node).replace(/\s+/g, ''));
}

function metric(r: Reader, node: SyntaxNode): MetricExpr {
  if (node.name === 'Expr') {
    const inner = node.firstChild!;
    if (inner.name === 'LogExpr') r.fail(inner.from, 'syntax error: unexpected log query where a metric query was expected');
    return metric(r, inner);
  }
  if (node.name !== 'MetricExpr') return r.fail(node.from, `syntax error: unexpected ${r.src(node)}`);
  const c = node.firstChild!;
  switch (c.name) {
    case 'MetricExpr':
      return metric(r, c);
    case 'LiteralExpr':
      return { kind: 'literal', value: number(r, c) };
    case 'VectorExpr':
      return { kind: 'vector', value: number(r, kid(c, 'Number')!) };
    case 'RangeAggregationExpr':
      return rangeAggregation(r, c);
    case 'VectorAggregationExpr': {
      const op = r.src(kid(c, 'VectorOp')!) as VectorOp;
      if (!VECTOR_OPS.has(op)) r.fail(c.from, `unsupported vector aggregation ${op}`);
      const param = kid(c, 'Number');
      if ((op === 'topk' || op === 'bottomk') && !param) r.fail(c.from, `parameter required for operation ${op}`);
      if (op !== 'topk' && op !== 'bottomk' && param) throw new LogQLParseError(`unsupported parameter for operation ${op}(${r.src(param)},`, 0, 0);
      if ((op === 'sort' || op === 'sort_desc') && kid(c, 'Grouping')) throw new LogQLParseError("sort and sort_desc doesn't allow grouping by ", 0, 0);
      const k = param ? number(r, param) : undefined;
      // As Loki: strconv.Atoi, then a positive count; both errors without a position.
      if (k !== undefined && !/^[+-]?\d+$/.test(r.src(param!).trim())) throw new LogQLParseError(`invalid parameter ${op}(${r.src(param!)},`, 0, 0);
      if (k !== undefined && k <= 0) throw new LogQLParseError(`invalid parameter (must be greater than 0) ${op}(${r.src(param!)}`, 0, 0);
      const inner = metric(r, kid(c, 'MetricExpr')!);
      return { kind: 'vector_agg', op, expr: inner, param: k, grouping: grouping(r, kid(c, 'Grouping')) };
    }
    case 'BinOpExpr':
      return binaryChain(r, c);
    case 'LabelReplaceExpr': {
      const inner = metric(r, kid(c, 'MetricExpr')!);
      const [dst, replacement, src, regex] = collect(c, 'String').filter((s) => s.parent?.name === 'LabelReplaceExpr').map((s) => r.string(s));
      compileRe2(regex);
      if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(dst)) r.fail(c.from, `invalid destination label name in label_replace(): ${dst}`);
      return { kind: 'label_replace', expr: inner, dst, replacement, src, regex };
    }
    default:
      return r.fail(c.from, `syntax error: unexpected ${r.src(c)}`);
  }
}

// Loki's precedence (its yacc grammar): `^` binds tightest (right-associative), then `* / %`, `+ -`, comparisons,
// `and unless`, `or`. The lezer grammar nests every chain to the right, so a chain without parentheses is
// flattened into operands and operators and rebuilt here with those precedences.
const PRECEDENCE: Record<BinaryOp, number> = {
  or: 1, and: 2, unless: 2, '==': 3, '!=': 3, '>': 3, '>=': 3, '<': 3, '<=': 3, '+': 4, '-': 4, '*': 5, '/': 5, '%': 5, '^': 6,
};

interface OpInfo {
  op: BinaryOp;
  at: number;
  mod: SyntaxNode | undefined;
}

function flattenChain(node: SyntaxNode, operands: SyntaxNode[], ops: OpInfo[]) {
  const cs = kids(node);
  const sides = cs.filter((x) => x.name === 'Expr');
  const opNode = cs.find((x) => BINARY_TOKENS[x.name])!;
  const side = (expr: SyntaxNode) => {
    const m = expr.firstChild;
    const inner = m?.name === 'MetricExpr' ? m.firstChild : undefined;
    if (inner?.name === 'BinOpExpr') flattenChain(inner, operands, ops);
    else operands.push(expr);
  };
  side(sides[0]);
  ops.push({ op: BINARY_TOKENS[opNode.name], at: opNode.from, mod: kid(node, 'BinOpModifier') });
  side(sides[1]);
}

function binaryChain(r: Reader, node: SyntaxNode): MetricExpr {
  const operands: SyntaxNode[] = [];
  const ops: OpInfo[] = [];
  flattenChain(node, operands, ops);
  const values = operands.map((o) => metric(r, o));
  let pos = 0;
  const climb = (minPrec: number): MetricExpr => {
    let left = values[pos];
    while (pos < ops.length && PRECEDENCE[ops[pos].op] >= minPrec) {
      const info = ops[pos];
      const prec = PRECEDENCE[info.op];
      pos++;
      const right = climb(info.op === '^' ? prec : prec + 1);
      left = binaryNode(r, info, left, right);
    }
    return left;
  };
  return climb(0);
}

function binaryNode(r: Reader, info: OpInfo, l: MetricExpr, rr: MetricExpr): MetricExpr {
  const { op, mod } = info;
  const bool = !!(mod && kid(mod, 'Bool'));
  let matching: Extract<MetricExpr, { kind: 'binary' }>['matching'];
  if (mod) {
    const onIg = kid(mod, 'OnOrIgnoringModifier');
    if (onIg) {
      const labelsOf = (n: SyntaxNode | undefined) => (n ? collect(n, 'LabelName').map((l) => r.src(l)) : []);
      const groupNode = kids(mod).find((x) => x.name === 'GroupLeft' || x.name === 'GroupRight');
      matching = {
        on: !!kid(onIg, 'On'),
        labels: labelsOf(kid(onIg, 'GroupingLabels')),
        group: groupNode ? (groupNode.name === 'GroupLeft' ? 'left' : 'right') : undefined,
        include: labelsOf(kids(mod).find((x) => x.name === 'GroupingLabels')),
      };
    }
  }
  const isComparison = ['==', '!=', '>', '>=', '<', '<='].includes(op);
  if (bool && !isComparison) r.fail(info.at, 'bool modifier can only be used on comparison operators');
  if (['and', 'or', 'unless'].includes(op) && (isScalar(l) || isScalar(rr))) {
    r.fail(info.at, `unexpected literal for right leg of logical/set binary operation (${op})`);
  }
  return { kind: 'binary', op, left: l, right: rr, bool, matching };
}

function isScalar(e: MetricExpr): boolean {
  return e.kind === 'literal' || (e.kind === 'binary' && isScalar(e.left) && isScalar(e.right));
}

function rangeAggregation(r: Reader, node: SyntaxNode): MetricExpr {
  const op = r.src(kid(node, 'RangeOp')!) as RangeOp;
  if (!RANGE_OPS.has(op)) r.fail(node.from, `unsupported range aggregation ${op}`);
  const lr = kid(node, 'LogRangeExpr')!;
  const range = logRange(r, lr);
  const paramNode = kid(node, 'Number');
  const param = paramNode ? number(r, paramNode) : undefined;
  if (op === 'quantile_over_time' && param === undefined) r.fail(node.from, 'parameter required for operation quantile_over_time');
  if (op !== 'quantile_over_time' && paramNode) throw new LogQLParseError(`parameter ${r.src(paramNode)} not supported for operation ${op}`, 0, 0);
  if (UNWRAPPED_OPS.has(op) && !range.unwrap) r.fail(node.from, `invalid aggregation ${op} without unwrap`);
  if (!UNWRAPPED_OPS.has(op) && op !== 'rate' && op !== 'absent_over_time' && range.unwrap) r.fail(node.from, `invalid aggregation ${op} with unwrap`);
  const g = grouping(r, kid(node, 'Grouping'));
  if (g && !GROUPED_RANGE_OPS.has(op)) throw new LogQLParseError(`grouping not allowed for ${op} aggregation`, 0, 0);
  return { kind: 'range_agg', op, range, param, grouping: g };
}

function logRange(r: Reader, node: SyntaxNode): LogRangeExpr {
  // `( {…} | … )[5m]`: the selector may be parenthesised.
  const logNode = kid(node, 'LogExpr');
  const selector = logNode ? logExpr(r, logNode) : { kind: 'log' as const, matchers: matchers(r, kid(node, 'Selector')!), stages: [] as Stage[] };
  for (const p of kids(node).filter((c) => c.name === 'PipelineExpr')) selector.stages.push(...stages(r, p));
  const rangeNode = kid(node, 'Range')!;
  const rangeNs = duration(r, kid(rangeNode, 'Duration')!, parseModelDurationNs);
  const offsetNode = kid(node, 'OffsetExpr');
  const moved = [...r.rewritten.offsets].find(([at]) => at >= rangeNode.from && at < rangeNode.to)?.[1];
  let offsetNs = offsetNode ? duration(r, kid(offsetNode, 'Duration')!, parseDurationLiteralNs) : 0n;
  if (moved) {
    const ns = parseDurationLiteralNs(moved.text);
    if (Number.isNaN(ns)) r.fail(moved.at, `not a valid duration string: "${moved.text}"`);
    offsetNs = BigInt(ns);
  }
  const unwrapNode = kid(node, 'UnwrapExpr');
  let unwrap: LogRangeExpr['unwrap'];
  if (unwrapNode) {
    const filters: LabelFilter[] = [];
    let u = unwrapNode;
    while (kid(u, 'UnwrapExpr')) {
      filters.unshift(labelFilter(r, kid(u, 'LabelFilter')!));
      u = kid(u, 'UnwrapExpr')!;
    }
    const conv = kid(u, 'ConvOp');
    unwrap = { label: r.src(kid(u, 'Identifier')!), conv: conv ? (r.src(conv) as UnwrapConv) : undefined, filters };
  }
  return { selector, rangeNs, offsetNs, unwrap };
}

function duration(r: Reader, node: SyntaxNode, read: (text: string) => number): bigint {
  const text = r.src(node);
  const ns = read(text);
  if (Number.isNaN(ns)) r.fail(node.from, `not a valid duration string: "${text}"`);
  return BigInt(ns);
}
