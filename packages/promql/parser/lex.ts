// Literal forms of PromQL as Prometheus 2.42 reads them: numbers (Go's ParseInt with base prefix, then ParseFloat),
// strings (Go's quoting rules) and label names; durations are duration.ts.

/** A number literal's value: `0x1F` and octal `010` as integers (strconv.ParseInt base 0), else a float. */
export function parseNumber(text: string): number | undefined {
  const t = text.replace(/_/g, '');
  if (/^0[xX][0-9a-fA-F]+$/.test(t)) return parseInt(t.slice(2), 16);
  if (/^0[0-7]+$/.test(t)) return parseInt(t.slice(1), 8);
  const lower = t.toLowerCase();
  if (lower === 'inf' || lower === '+inf' || lower === 'infinity') return Infinity;
  if (lower === '-inf' || lower === '-infinity') return -Infinity;
  if (lower === 'nan') return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return undefined;
  return Number(t);
}

/** The value of a string literal (`"…"` and `'…'` with Go's escapes, `` `…` `` raw); throws a message on bad input. */
export function unquoteString(text: string): string {
  const q = text[0];
  if (text.length < 2 || text[text.length - 1] !== q) throw new Error('unterminated quoted string');
  const body = text.slice(1, -1);
  if (q === '`') return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      if (c === q) throw new Error(`unexpected ${q}`);
      out += c;
      continue;
    }
    const e = body[++i];
    switch (e) {
      case 'a': out += '\x07'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '\\': out += '\\'; break;
      case '"':
      case "'":
        if (e !== q) throw new Error('unknown escape sequence');
        out += e;
        break;
      case 'x': {
        const hex = body.slice(i + 1, i + 3);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new Error('illegal character in escape sequence');
        out += String.fromCharCode(parseInt(hex, 16));
        i += 2;
        break;
      }
      case 'u':
      case 'U': {
        const n = e === 'u' ? 4 : 8;
        const hex = body.slice(i + 1, i + 1 + n);
        if (hex.length !== n || !/^[0-9a-fA-F]+$/.test(hex)) throw new Error('illegal character in escape sequence');
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000)) throw new Error('escape sequence is an invalid Unicode code point');
        out += String.fromCodePoint(cp);
        i += n;
        break;
      }
      default:
        if (e !== undefined && e >= '0' && e <= '7') {
          const oct = body.slice(i, i + 3);
          if (!/^[0-7]{3}$/.test(oct)) throw new Error('illegal character in escape sequence');
          const v = parseInt(oct, 8);
          if (v > 255) throw new Error('octal escape value > 255');
          out += String.fromCharCode(v);
          i += 2;
          break;
        }
        throw new Error('unknown escape sequence');
    }
  }
  return out;
}

/** A string as Go's strconv.Quote writes it (printing queries back). */
export function quoteString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

export const LABEL_NAME_RE = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
