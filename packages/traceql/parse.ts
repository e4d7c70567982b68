// TraceQL's basic form, as Tempo reads it (grafana/tempo pkg/traceql; docs "Construct a TraceQL query"):
//   { span.http.method = "GET" && resource.service.name =~ "api.*" && name = "GET /" && status = error && duration > 100ms }
// spanset filters combined with && and || (a trace with spans matching both / either), inside a filter the
// comparisons combined with &&, || and !, and parentheses. Attributes: `span.x`, `resource.x`, unscoped `.x` (span
// or resource), quoted names (`span."a b"`), the span intrinsics name, status, kind, duration (also `span:name`,
// `span:status`, `span:kind`, `span:duration`) and the trace intrinsics rootName, rootServiceName, traceDuration
// (`trace:rootName`, `trace:rootService`, `trace:duration`). Pipelines (`| count() > 1`, `select(…)`), arithmetic
// and structural operators (`>>`, `~` …) are refused with a parse error that says so.

export class TraceQLParseError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    // Tempo's wording, so that Grafana shows what it would show for Tempo.
    super(`parse error at line ${line}, col ${column}: ${reason}`);
  }
}

export type Intrinsic = 'name' | 'status' | 'kind' | 'duration' | 'rootName' | 'rootServiceName' | 'traceDuration';
export type AttributeRef = { scope: 'span' | 'resource' | 'unscoped'; name: string } | { scope: 'intrinsic'; name: Intrinsic };

export type StaticValue =
  | { type: 'string'; value: string }
  | { type: 'int' | 'float'; value: number }
  | { type: 'duration'; nanos: bigint }
  | { type: 'bool'; value: boolean }
  | { type: 'status'; value: 'error' | 'ok' | 'unset' }
  | { type: 'kind'; value: 'unspecified' | 'internal' | 'server' | 'client' | 'producer' | 'consumer' }
  | { type: 'nil' };

export type CompareOp = '=' | '!=' | '>' | '>=' | '<' | '<=' | '=~' | '!~';

export type FieldExpr =
  | { kind: 'and' | 'or'; left: FieldExpr; right: FieldExpr }
  | { kind: 'not'; expr: FieldExpr }
  | { kind: 'compare'; attribute: AttributeRef; op: CompareOp; value: StaticValue }
  | { kind: 'static'; value: boolean };

export type SpansetExpr =
  | { kind: 'filter'; expr: FieldExpr | null }
  | { kind: 'and' | 'or'; left: SpansetExpr; right: SpansetExpr };

type TokenKind = 'punct' | 'ident' | 'string' | 'number' | 'duration' | 'attribute' | 'eof';
interface Token {
  kind: TokenKind;
  text: string;
  value?: string;
  col: number;
  line: number;
}

const PUNCT = ['!>>', '!<<', '&&', '||', '!=', '=~', '!~', '>=', '<=', '>>', '<<', '!>', '!<', '&>', '&<', '&~', '{', '}', '(', ')', '=', '>', '<', '!', '|', '~', '+', '-', '*', '/', '%', '^', ','];
const STRUCTURAL = new Set(['>>', '<<', '!>>', '!<<', '!>', '!<', '&>', '&<', '&~', '~']);
// Characters that end an attribute name (Tempo: whitespace and the operators' characters).
const NAME_END = /[\s{}()=~!<>&|^,"`+*/%]/;
const DURATION = /^(\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;
const UNIT_NS: Record<string, bigint> = { ns: 1n, us: 1_000n, 'µs': 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };

// A Map, not an object literal: a word such as `constructor` or `toString` must not find Object.prototype's member.
const INTRINSICS = new Map<string, Intrinsic>(Object.entries({
  name: 'name', status: 'status', kind: 'kind', duration: 'duration',
  rootName: 'rootName', rootServiceName: 'rootServiceName', rootService: 'rootServiceName', traceDuration: 'traceDuration',
  'span:name': 'name', 'span:status': 'status', 'span:kind': 'kind', 'span:duration': 'duration',
  'trace:rootName': 'rootName', 'trace:rootService': 'rootServiceName', 'trace:duration': 'traceDuration',
} satisfies Record<string, Intrinsic>));
const STATUSES = new Set(['error', 'ok', 'unset']);
const KINDS = new Set(['unspecified', 'internal', 'server', 'client', 'producer', 'consumer']);

function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const fail = (at: number, reason: string): never => {
    throw new TraceQLParseError(line, at - lineStart + 1, reason);
  };
  const quoted = (start: number): { value: string; end: number } => {
    const quote = text[start];
    let value = '';
    let j = start + 1;
    while (j < text.length) {
      const c = text[j];
      if (c === quote) return { value, end: j + 1 };
      if (c === '\\' && quote === '"') {
        const e = text[j + 1];
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"' };
        if (e === undefined || !(e in simple)) fail(j, 'syntax error: invalid escape sequence');
        value += simple[e];
        j += 2;
        continue;
      }
      value += c;
      j++;
    }
    return fail(start, 'syntax error: literal not terminated');
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const col = i - lineStart + 1;
    if (c === '"' || c === '`') {
      const { value, end } = quoted(i);
      tokens.push({ kind: 'string', text: text.slice(i, end), value, col, line });
      i = end;
      continue;
    }
    // Attributes: `.name`, `span.name`, `resource.name`, with the name possibly quoted.
    const scoped = /^(span|resource)\./.exec(text.slice(i));
    if (c === '.' || scoped) {
      const scope = scoped ? scoped[1] : 'unscoped';
      let j = i + (scoped ? scoped[0].length : 1);
      let name: string;
      if (text[j] === '"') {
        const q = quoted(j);
        name = q.value;
        j = q.end;
      } else {
        const start = j;
        while (j < text.length && !NAME_END.test(text[j])) j++;
        name = text.slice(start, j);
      }
      if (name === '') fail(j, 'syntax error: unexpected END_ATTRIBUTE');
      tokens.push({ kind: 'attribute', text: text.slice(i, j), value: `${scope}\u0000${name}`, col, line });
      i = j;
      continue;
    }
    const word = /^(?:span|trace):[a-zA-Z]+|^[a-zA-Z_][a-zA-Z0-9_]*/.exec(text.slice(i));
    if (word) {
      tokens.push({ kind: 'ident', text: word[0], col, line });
      i += word[0].length;
      continue;
    }
    const number = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+|^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (number) {
      tokens.push({ kind: DURATION.test(number[0]) ? 'duration' : 'number', text: number[0], col, line });
      i += number[0].length;
      continue;
    }
    const punct = PUNCT.find((p) => text.startsWith(p, i));
    if (!punct) fail(i, `syntax error: unexpected character "${c}"`);
    tokens.push({ kind: 'punct', text: punct!, col, line });
    i += punct!.length;
  }
  tokens.push({ kind: 'eof', text: '', col: i - lineStart + 1, line });
  return tokens;
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'eof':
      return '$end';
    case 'string':
      return 'STRING';
    case 'number':
      return token.text.includes('.') ? 'FLOAT' : 'INTEGER';
    case 'duration':
      return 'DURATION';
    case 'attribute':
      return 'IDENTIFIER';
    case 'ident':
      return token.text;
    default:
      return token.text;
  }
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)];
  }
  private next(): Token {
    return this.tokens[this.pos++];
  }
  private isPunct(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'punct' && t.text === text;
  }
  private fail(token: Token, reason?: string): never {
    if (reason) throw new TraceQLParseError(token.line, token.col, reason);
    if (token.kind === 'punct' && (token.text === '|' || STRUCTURAL.has(token.text))) {
      throw new TraceQLParseError(token.line, token.col, `syntax error: unexpected ${token.text} (pipelines and structural operators are not supported here)`);
    }
    throw new TraceQLParseError(token.line, token.col, `syntax error: unexpected ${describe(token)}`);
  }
  private expect(text: string): Token {
    if (!this.isPunct(text)) this.fail(this.peek());
    return this.next();
  }

  query(): SpansetExpr {
    const expr = this.spansetOr();
    if (this.peek().kind !== 'eof') this.fail(this.peek());
    return expr;
  }

  private spansetOr(): SpansetExpr {
    let left = this.spansetAnd();
    while (this.isPunct('||')) {
      this.next();
      left = { kind: 'or', left, right: this.spansetAnd() };
    }
    return left;
  }

  private spansetAnd(): SpansetExpr {
    let left = this.spansetPrimary();
    while (this.isPunct('&&')) {
      this.next();
      left = { kind: 'and', left, right: this.spansetPrimary() };
    }
    return left;
  }

  private spansetPrimary(): SpansetExpr {
    if (this.isPunct('(')) {
      this.next();
      const inner = this.spansetOr();
      this.expect(')');
      return inner;
    }
    this.expect('{');
    if (this.isPunct('}')) {
      this.next();
      return { kind: 'filter', expr: null };
    }
    const expr = this.fieldOr();
    this.expect('}');
    return { kind: 'filter', expr };
  }

  private fieldOr(): FieldExpr {
    let left = this.fieldAnd();
    while (this.isPunct('||')) {
      this.next();
      left = { kind: 'or', left, right: this.fieldAnd() };
    }
    return left;
  }

  private fieldAnd(): FieldExpr {
    let left = this.fieldUnary();
    while (this.isPunct('&&')) {
      this.next();
      left = { kind: 'and', left, right: this.fieldUnary() };
    }
    return left;
  }

  private fieldUnary(): FieldExpr {
    if (this.isPunct('!')) {
      this.next();
      return { kind: 'not', expr: this.fieldUnary() };
    }
    if (this.isPunct('(')) {
      this.next();
      const inner = this.fieldOr();
      this.expect(')');
      return inner;
    }
    return this.comparison();
  }

  private comparison(): FieldExpr {
    const first = this.peek();
    const attribute = this.attribute();
    if (!attribute) {
      // `{ true }` and `{ false }` are valid filters in Tempo.
      if (first.kind === 'ident' && (first.text === 'true' || first.text === 'false') && (this.isPunct('}', 1) || this.isPunct(')', 1) || this.isPunct('&&', 1) || this.isPunct('||', 1))) {
        this.next();
        return { kind: 'static', value: first.text === 'true' };
      }
      this.fail(first);
    }
    const opToken = this.peek();
    const ops: CompareOp[] = ['=', '!=', '>', '>=', '<', '<=', '=~', '!~'];
    if (opToken.kind !== 'punct' || !ops.includes(opToken.text as CompareOp)) {
      // A boolean attribute on its own (`{ span.cache_hit }`) means `= true`.
      if (attribute.scope !== 'intrinsic' && (this.isPunct('}') || this.isPunct(')') || this.isPunct('&&') || this.isPunct('||'))) {
        return { kind: 'compare', attribute, op: '=', value: { type: 'bool', value: true } };
      }
      this.fail(opToken);
    }
    this.next();
    const op = opToken.text as CompareOp;
    const valueToken = this.peek();
    const value = this.staticValue();
    checkTypes(attribute, op, value, valueToken);
    return { kind: 'compare', attribute, op, value };
  }

  private attribute(): AttributeRef | undefined {
    const t = this.peek();
    if (t.kind === 'attribute') {
      this.next();
      const [scope, name] = t.value!.split('\u0000');
      return { scope: scope as 'span' | 'resource' | 'unscoped', name };
    }
    if (t.kind === 'ident' && INTRINSICS.has(t.text)) {
      this.next();
      return { scope: 'intrinsic', name: INTRINSICS.get(t.text)! };
    }
    return undefined;
  }

  private staticValue(): StaticValue {
    const t = this.next();
    let negative = false;
    let token = t;
    if (t.kind === 'punct' && t.text === '-') {
      negative = true;
      token = this.next();
      if (token.kind !== 'number' && token.kind !== 'duration') this.fail(token);
    }
    switch (token.kind) {
      case 'string':
        return { type: 'string', value: token.value! };
      case 'number': {
        const n = Number(token.text) * (negative ? -1 : 1);
        return /[.eE]/.test(token.text) ? { type: 'float', value: n } : { type: 'int', value: n };
      }
      case 'duration': {
        let nanos = 0n;
        for (const part of token.text.matchAll(/(\d+)(?:\.(\d+))?(ns|us|µs|ms|s|m|h)/g)) {
          const unit = UNIT_NS[part[3]];
          const fraction = part[2] ?? '';
          nanos += BigInt(part[1]) * unit + (fraction ? (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length) : 0n);
        }
        return { type: 'duration', nanos: negative ? -nanos : nanos };
      }
      case 'ident':
        if (token.text === 'true' || token.text === 'false') return { type: 'bool', value: token.text === 'true' };
        if (token.text === 'nil') return { type: 'nil' };
        if (STATUSES.has(token.text)) return { type: 'status', value: token.text as 'error' };
        if (KINDS.has(token.text)) return { type: 'kind', value: token.text as 'server' };
        return this.fail(token);
      default:
        return this.fail(token);
    }
  }
}

/** The type rules Tempo applies before running a query (a status compared with a string is an error, …). */
function checkTypes(attribute: AttributeRef, op: CompareOp, value: StaticValue, at: Token): void {
  const bad = (reason: string): never => {
    throw new TraceQLParseError(at.line, at.col, reason);
  };
  const regex = op === '=~' || op === '!~';
  const ordering = op === '>' || op === '>=' || op === '<' || op === '<=';
  if (regex && value.type !== 'string') bad('syntax error: a regular expression must be a string');
  if (value.type === 'nil' && op !== '=' && op !== '!=') bad('syntax error: nil can only be compared with = or !=');
  if ((value.type === 'status' || value.type === 'kind' || value.type === 'bool') && ordering) bad(`syntax error: ${value.type} values can only be compared with = or !=`);
  if (attribute.scope !== 'intrinsic') {
    if (value.type === 'status' || value.type === 'kind') bad(`syntax error: unexpected ${value.value}`);
    return;
  }
  const expected: Record<Intrinsic, StaticValue['type'][]> = {
    name: ['string'], rootName: ['string'], rootServiceName: ['string'],
    status: ['status'], kind: ['kind'],
    duration: ['duration'], traceDuration: ['duration'],
  };
  if (!expected[attribute.name].includes(value.type)) {
    bad(`invalid binary operation: ${attribute.name} ${op} ${value.type}: ${attribute.name} compares with ${expected[attribute.name].join(' or ')} values`);
  }
}

/** Parses a TraceQL query of the basic form; an empty query means `{}` (every span). */
export function parseTraceQL(query: string): SpansetExpr {
  if (query.trim() === '') return { kind: 'filter', expr: null };
  return new Parser(lex(query)).query();
}

/** The filters of a spanset expression, left to right (each is one condition on spans). */
export function spansetFilters(expr: SpansetExpr): (FieldExpr | null)[] {
  return expr.kind === 'filter' ? [expr.expr] : [...spansetFilters(expr.left), ...spansetFilters(expr.right)];
}

/** The attributes a filter compares (Tempo returns them with each matching span). */
export function referencedAttributes(expr: FieldExpr | null): AttributeRef[] {
  if (!expr || expr.kind === 'static') return [];
  if (expr.kind === 'compare') return [expr.attribute];
  if (expr.kind === 'not') return referencedAttributes(expr.expr);
  return [...referencedAttributes(expr.left), ...referencedAttributes(expr.right)];
}

/**
 * A tag as the v2 tag values call names it: `span.http.method`, `resource.service.name`, `.foo`, or an intrinsic
 * (`name`, `status`, `kind`, `duration`, …). Undefined when it is none of these.
 */
export function parseAttributeRef(tag: string): AttributeRef | undefined {
  let tokens: Token[];
  try {
    tokens = lex(tag);
  } catch {
    return undefined;
  }
  if (tokens.length !== 2) return undefined;
  const [token] = tokens;
  if (token.kind === 'attribute') {
    const [scope, name] = token.value!.split('\u0000');
    return { scope: scope as 'span' | 'resource' | 'unscoped', name };
  }
  if (token.kind === 'ident' && INTRINSICS.has(token.text)) return { scope: 'intrinsic', name: INTRINSICS.get(token.text)! };
  return undefined;
}
