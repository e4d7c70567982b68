// A JSON scanner that keeps what Loki's parsers need and JSON.parse loses: numbers as their raw text, the order of
// keys, and the values found before a syntax error (Loki's parser is streaming: labels extracted before the error
// stay, with __error__ added).

export type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

export class JsonSyntaxError extends Error {}

export class JsonScanner {
  i = 0;
  constructor(readonly s: string) {}

  ws() {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else break;
    }
  }

  fail(what: string): never {
    throw new JsonSyntaxError(`${what} at offset ${this.i}`);
  }

  /** Reads a string token starting at the quote and returns its unescaped value. */
  string(): string {
    const s = this.s;
    const start = ++this.i;
    let simple = true;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 34) {
        const raw = s.slice(start, this.i++);
        if (simple) return raw;
        try {
          return JSON.parse(`"${raw}"`) as string;
        } catch {
          return this.fail('invalid string escape');
        }
      }
      if (c === 92) {
        simple = false;
        this.i += 2;
      } else this.i++;
    }
    return this.fail('unterminated string');
  }

  /** Skips any value; returns its type and raw text bounds. */
  value(): { type: JsonType; from: number; to: number } {
    this.ws();
    const s = this.s;
    const from = this.i;
    const c = s[this.i];
    if (c === '"') {
      this.string();
      return { type: 'string', from, to: this.i };
    }
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      this.i++;
      this.ws();
      if (s[this.i] === close) {
        this.i++;
        return { type: c === '{' ? 'object' : 'array', from, to: this.i };
      }
      for (;;) {
        if (c === '{') {
          this.ws();
          if (s[this.i] !== '"') this.fail('expected a key');
          this.string();
          this.ws();
          if (s[this.i] !== ':') this.fail('expected :');
          this.i++;
        }
        this.value();
        this.ws();
        if (s[this.i] === ',') {
          this.i++;
          continue;
        }
        if (s[this.i] === close) {
          this.i++;
          return { type: c === '{' ? 'object' : 'array', from, to: this.i };
        }
        this.fail(`expected , or ${close}`);
      }
    }
    if (s.startsWith('true', from) || s.startsWith('null', from)) {
      this.i += 4;
      return { type: s[from] === 't' ? 'boolean' : 'null', from, to: this.i };
    }
    if (s.startsWith('false', from)) {
      this.i += 5;
      return { type: 'boolean', from, to: this.i };
    }
    // A number: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?
    let j = from;
    const digit = (k: number) => k < s.length && s.charCodeAt(k) >= 48 && s.charCodeAt(k) <= 57;
    if (s[j] === '-') j++;
    if (!digit(j)) this.fail('unexpected character');
    if (s[j] === '0') j++;
    else while (digit(j)) j++;
    if (s[j] === '.') {
      j++;
      if (!digit(j)) this.fail('invalid number');
      while (digit(j)) j++;
    }
    if (s[j] === 'e' || s[j] === 'E') {
      j++;
      if (s[j] === '+' || s[j] === '-') j++;
      if (!digit(j)) this.fail('invalid number');
      while (digit(j)) j++;
    }
    this.i = j;
    return { type: 'number', from, to: j };
  }

  /** Calls `each` for every member of the object at the cursor (the value is handed raw). */
  object(each: (key: string, type: JsonType, from: number, to: number) => void) {
    this.ws();
    const s = this.s;
    if (s[this.i] !== '{') this.fail('the value is not an object');
    this.i++;
    this.ws();
    if (s[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      if (s[this.i] !== '"') this.fail('expected a key');
      const key = this.string();
      this.ws();
      if (s[this.i] !== ':') this.fail('expected :');
      this.i++;
      this.ws();
      if (s[this.i] === '{') {
        // Objects are visited in place so that nested members come out in order.
        const from = this.i;
        each(key, 'object', from, -1);
        if (this.i === from) this.value();
      } else {
        const v = this.value();
        each(key, v.type, v.from, v.to);
      }
      this.ws();
      if (s[this.i] === ',') {
        this.i++;
        continue;
      }
      if (s[this.i] === '}') {
        this.i++;
        return;
      }
      this.fail('expected , or }');
    }
  }
}

/** The text of a scalar as Loki's json parser keeps it: strings unescaped, numbers raw, booleans, null empty. */
export function scalarText(s: string, type: JsonType, from: number, to: number): string {
  if (type === 'string') {
    // Without escapes the value is the text between the quotes.
    const raw = s.slice(from + 1, to - 1);
    return raw.includes('\\') ? new JsonScanner(s.slice(from, to)).string() : raw;
  }
  if (type === 'null') return '';
  return s.slice(from, to);
}

/** A JSON path of `json a="b.c[0]"`: keys and indexes. */
export function parseJsonPath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  let i = 0;
  let key = '';
  const flush = () => {
    if (key !== '') out.push(key);
    key = '';
  };
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      flush();
      i++;
    } else if (c === '[') {
      flush();
      const end = path.indexOf(']', i);
      if (end < 0) throw new Error(`invalid JSON path ${path}`);
      const inner = path.slice(i + 1, end).trim();
      if (/^\d+$/.test(inner)) out.push(Number(inner));
      else if (/^"(.*)"$/.test(inner) || /^'(.*)'$/.test(inner)) out.push(inner.slice(1, -1));
      else throw new Error(`invalid JSON path ${path}`);
      i = end + 1;
    } else {
      key += c;
      i++;
    }
  }
  flush();
  return out;
}

/**
 * The raw value at a path, or undefined when absent (throws JsonSyntaxError on malformed JSON on the way). As Loki's
 * jsonparser.Get: the first member of a name wins, and the text after the value found is not read.
 */
export function jsonGet(s: string, path: (string | number)[]): { type: JsonType; from: number; to: number } | undefined {
  const sc = new JsonScanner(s);
  for (let depth = 0; depth < path.length; depth++) {
    const step = path[depth];
    sc.ws();
    if (typeof step === 'string') {
      if (s[sc.i] !== '{') return undefined;
      let found: { type: JsonType; from: number; to: number } | undefined;
      sc.i++;
      sc.ws();
      if (s[sc.i] === '}') return undefined;
      for (;;) {
        sc.ws();
        if (s[sc.i] !== '"') sc.fail('expected a key');
        const key = sc.string();
        sc.ws();
        if (s[sc.i] !== ':') sc.fail('expected :');
        sc.i++;
        const v = sc.value();
        if (key === step) {
          found = v;
          break;
        }
        sc.ws();
        if (s[sc.i] === ',') {
          sc.i++;
          continue;
        }
        if (s[sc.i] === '}') break;
        sc.fail('expected , or }');
      }
      if (!found) return undefined;
      sc.i = found.from;
    } else {
      if (s[sc.i] !== '[') return undefined;
      sc.i++;
      let n = 0;
      let found: { type: JsonType; from: number; to: number } | undefined;
      sc.ws();
      if (s[sc.i] === ']') return undefined;
      for (;;) {
        const v = sc.value();
        if (n++ === step) {
          found = v;
          break;
        }
        sc.ws();
        if (s[sc.i] === ',') {
          sc.i++;
          continue;
        }
        if (s[sc.i] === ']') break;
        sc.fail('expected , or ]');
      }
      if (!found) return undefined;
      sc.i = found.from;
    }
  }
  return sc.value();
}
