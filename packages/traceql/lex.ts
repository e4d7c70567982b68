import type { AttributeScope } from './ast';

// TraceQL's tokens as Tempo's lexer (pkg/traceql/lexer.go) cuts them: operators (longest first), words, strings in
// double quotes (Go escapes) or backticks (raw), numbers, durations (Go's units, compound: 1h30m) and attributes
// (`.x`, `span.x`, `resource.x`, `event.x`, `link.x`, `instrumentation.x`, each optionally after `parent.`; a name
// runs to whitespace or one of `{}()=~!<>&|^,`, or is quoted).

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

export type TokenKind = 'punct' | 'ident' | 'string' | 'int' | 'float' | 'duration' | 'attribute' | 'eof';
export interface Token {
  kind: TokenKind;
  text: string;
  /** Strings: the value; attributes: the name. */
  value?: string;
  scope?: AttributeScope;
  parent?: boolean;
  col: number;
  line: number;
}

const PUNCT = ['!>>', '!<<', '&>>', '&<<', '&&', '||', '!=', '=~', '!~', '>=', '<=', '>>', '<<', '!>', '!<', '&>', '&<', '&~', '{', '}', '(', ')', '=', '>', '<', '!', '|', '~', '+', '-', '*', '/', '%', '^', ','];
const NAME_END = /[\s{}()=~!<>&|^,]/;
const SCOPES = ['span', 'resource', 'event', 'link', 'instrumentation'] as const;
export const UNIT_NS: Record<string, bigint> = { ns: 1n, us: 1_000n, 'µs': 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };
const INT64_MAX = 9223372036854775807n;

export function lex(text: string): Token[] {
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
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v' };
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
  const attributeName = (j: number): { name: string; end: number } => {
    if (text[j] === '"') {
      const q = quoted(j);
      return { name: q.value, end: q.end };
    }
    const start = j;
    while (j < text.length && !NAME_END.test(text[j])) j++;
    return { name: text.slice(start, j), end: j };
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
    const rest = text.slice(i);
    // `.9` is a number (Go's scanner reads it so: `quantile_over_time(duration, .9)`); `.9a` is an attribute.
    const leadingDot = /^\.\d+(?![^\s{}()=~!<>&|^,])/.exec(rest);
    if (leadingDot) {
      tokens.push({ kind: 'float', text: `0${leadingDot[0]}`, col, line });
      i += leadingDot[0].length;
      continue;
    }
    const parentPrefix = /^parent\./.test(rest);
    const afterParent = parentPrefix ? rest.slice('parent.'.length) : rest;
    const scoped = /^(span|resource|event|link|instrumentation)\./.exec(afterParent);
    if (c === '.' || scoped || parentPrefix) {
      const scope: AttributeScope = scoped ? (scoped[1] as (typeof SCOPES)[number]) : 'unscoped';
      const j = i + (parentPrefix ? 'parent.'.length : 0) + (scoped ? scoped[0].length : c === '.' ? 1 : 0);
      const { name, end } = attributeName(j);
      if (name === '') fail(end, 'syntax error: unexpected END_ATTRIBUTE, expecting IDENTIFIER');
      tokens.push({ kind: 'attribute', text: text.slice(i, end), value: name, scope, parent: parentPrefix, col, line });
      i = end;
      continue;
    }
    const word = /^(?:span|trace|event|link|instrumentation):[a-zA-Z]+|^[a-zA-Z_][a-zA-Z0-9_]*/.exec(rest);
    if (word) {
      tokens.push({ kind: 'ident', text: word[0], col, line });
      i += word[0].length;
      continue;
    }
    const duration = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+/.exec(rest);
    if (duration && !/^[a-zA-Z0-9_]/.test(rest.slice(duration[0].length))) {
      tokens.push({ kind: 'duration', text: duration[0], col, line });
      i += duration[0].length;
      continue;
    }
    const number = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(rest);
    if (number) {
      const isFloat = /[.eE]/.test(number[0]);
      if (!isFloat && BigInt(number[0]) > INT64_MAX) fail(i, `strconv.ParseInt: parsing "${number[0]}": value out of range`);
      tokens.push({ kind: isFloat ? 'float' : 'int', text: number[0], col, line });
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

export function durationNanos(text: string): bigint {
  let nanos = 0n;
  for (const part of text.matchAll(/(\d+)(?:\.(\d+))?(ns|us|µs|ms|s|m|h)/g)) {
    const unit = UNIT_NS[part[3]];
    const fraction = part[2] ?? '';
    nanos += BigInt(part[1]) * unit + (fraction ? (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length) : 0n);
  }
  return nanos;
}

export function describe(token: Token): string {
  switch (token.kind) {
    case 'eof':
      return '$end';
    case 'string':
      return 'STRING';
    case 'int':
      return 'INTEGER';
    case 'float':
      return 'FLOAT';
    case 'duration':
      return 'DURATION';
    case 'attribute':
      return 'IDENTIFIER';
    default:
      return token.text;
  }
}
