import { IngestError, LABEL_NAME } from './batch';
import { compileAnchored, RegexError } from '../../../../packages/re2-pattern/re2-pattern';

// The `labels` string of a Loki protobuf push, `{app="api", level="warn"}`, read with the selector syntax Loki writes
// it in (queries are parsed by the engines' own grammars: packages/logql, packages/promql).

export type MatchOp = '=' | '!=' | '=~' | '!~';
export interface Matcher {
  name: string;
  op: MatchOp;
  value: string;
}

export class SelectorError extends IngestError {}

class Cursor {
  pos = 0;
  constructor(readonly text: string) {}
  skipSpace() {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }
  peek(n = 1) {
    return this.text.slice(this.pos, this.pos + n);
  }
  done() {
    this.skipSpace();
    return this.pos >= this.text.length;
  }
  fail(what: string): never {
    throw new SelectorError(`Invalid selector at position ${this.pos}: ${what}.`);
  }
  name(): string {
    this.skipSpace();
    const match = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(this.text.slice(this.pos));
    if (!match) this.fail('a label name was expected');
    this.pos += match[0].length;
    return match[0];
  }
  string(): string {
    this.skipSpace();
    const quote = this.text[this.pos];
    if (quote === '`') {
      const end = this.text.indexOf('`', this.pos + 1);
      if (end < 0) this.fail('unterminated string');
      const value = this.text.slice(this.pos + 1, end);
      this.pos = end + 1;
      return value;
    }
    if (quote !== '"' && quote !== "'") this.fail('a quoted string was expected');
    let out = '';
    this.pos++;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos++];
      if (c === quote) return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.text[this.pos++];
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", a: '\x07', b: '\b', f: '\f', v: '\v' };
      if (e in simple) out += simple[e];
      else if (e === 'x' || e === 'u' || e === 'U') {
        const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = this.text.slice(this.pos, this.pos + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) this.fail('bad escape');
        const code = parseInt(hex, 16);
        if (code > 0x10ffff) this.fail('bad escape');
        out += String.fromCodePoint(code);
        this.pos += len;
      } else this.fail('bad escape');
    }
    this.fail('unterminated string');
  }
}

function matchers(cursor: Cursor): Matcher[] {
  const result: Matcher[] = [];
  cursor.skipSpace();
  if (cursor.peek() !== '{') cursor.fail("'{' was expected");
  cursor.pos++;
  cursor.skipSpace();
  if (cursor.peek() === '}') {
    cursor.pos++;
    return result;
  }
  for (;;) {
    const name = cursor.name();
    cursor.skipSpace();
    const two = cursor.peek(2);
    let op: MatchOp;
    if (two === '=~' || two === '!=' || two === '!~') {
      op = two;
      cursor.pos += 2;
    } else if (cursor.peek() === '=') {
      op = '=';
      cursor.pos++;
    } else cursor.fail('a match operator (=, !=, =~, !~) was expected');
    const value = cursor.string();
    if (op === '=~' || op === '!~') checkRegex(value);
    result.push({ name, op, value });
    cursor.skipSpace();
    const c = cursor.peek();
    cursor.pos++;
    if (c === '}') return result;
    if (c !== ',') cursor.fail("',' or '}' was expected");
    cursor.skipSpace();
    if (cursor.peek() === '}') {
      cursor.pos++;
      return result;
    }
  }
}

// RE2, as Prometheus and Loki read it: JavaScript's RegExp refuses valid RE2 such as `(?i)node`.
function checkRegex(value: string): void {
  try {
    compileAnchored(value);
  } catch (error) {
    if (!(error instanceof RegexError)) throw error;
    throw new SelectorError(`Invalid regular expression "${value.slice(0, 100)}".`);
  }
}

/** `{a="b", …}` with only equality matchers: the labels of a pushed Loki stream. */
export function parseStreamLabels(text: string): Record<string, string> {
  const cursor = new Cursor(text);
  const list = matchers(cursor);
  if (!cursor.done()) cursor.fail('unexpected text after the labels');
  const labels: Record<string, string> = {};
  for (const m of list) {
    if (m.op !== '=') throw new SelectorError('Stream labels can only use =.');
    if (!LABEL_NAME.test(m.name)) throw new SelectorError(`Invalid label name "${m.name}".`);
    labels[m.name] = m.value;
  }
  return labels;
}
