// logfmt as Loki's parser reads it: `key=value`, `key="quoted \"value\""`, standalone keys (empty value).
// In lenient mode a malformed pair is skipped; strict mode stops at the first error (LogfmtParserErr).

export class LogfmtError extends Error {}

/** Calls `each` per pair, in order; throws LogfmtError at a syntax error when `strict`. */
export function scanLogfmt(line: string, strict: boolean, each: (key: string, value: string) => void): void {
  const n = line.length;
  let i = 0;
  const isSpace = (c: number) => c <= 32;
  while (i < n) {
    while (i < n && isSpace(line.charCodeAt(i))) i++;
    if (i >= n) return;
    const keyStart = i;
    let bad = false;
    while (i < n) {
      const c = line.charCodeAt(i);
      if (c === 61 /* = */ || isSpace(c)) break;
      if (c === 34 /* " */) bad = true;
      i++;
    }
    const key = line.slice(keyStart, i);
    if (key === '' || bad) {
      if (strict) throw new LogfmtError(`logfmt syntax error at pos ${i + 1} on line 1: unexpected ${key === '' ? "'='" : `'"'`}`);
      i = skipPair(line, i);
      continue;
    }
    // An invalid character in a key (decoded as U+FFFD) makes the pair a syntax error, as Loki's decoder.
    if (key.includes('\uFFFD')) {
      if (strict) throw new LogfmtError(`logfmt syntax error at pos ${i + 1} on line 1: invalid key`);
      i = skipPair(line, i);
      continue;
    }
    if (i >= n || line.charCodeAt(i) !== 61) {
      each(key, '');
      continue;
    }
    i++; // '='
    if (i < n && line.charCodeAt(i) === 34) {
      let j = i + 1;
      let escaped = false;
      let closed = false;
      while (j < n) {
        const c = line.charCodeAt(j);
        if (c === 92) {
          escaped = true;
          j += 2;
          continue;
        }
        if (c === 34) {
          closed = true;
          break;
        }
        j++;
      }
      if (!closed) {
        if (strict) throw new LogfmtError(`logfmt syntax error at pos ${n + 1} on line 1: unterminated quoted value`);
        return;
      }
      const raw = line.slice(i + 1, j);
      let value = raw;
      if (escaped) {
        try {
          // Control characters (a newline) stand in the quotes as they are; the escapes around them still count.
          const json = raw
            .replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt]|[\s\S]?)/g, (m, esc: string) => (esc.length === 1 && !'"\\/bfnrt'.includes(esc)) || esc === '' || esc === 'u' ? `\\${m}` : m)
            .replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
          value = JSON.parse(`"${json}"`) as string;
        } catch {
          value = raw;
        }
      }
      i = j + 1;
      if (i < n && !isSpace(line.charCodeAt(i))) {
        if (strict) throw new LogfmtError(`logfmt syntax error at pos ${i + 1} on line 1: unexpected '${line[i]}'`);
        i = skipPair(line, i);
        continue;
      }
      each(key, value);
      continue;
    }
    const valueStart = i;
    let invalid = false;
    while (i < n && !isSpace(line.charCodeAt(i))) {
      const c = line.charCodeAt(i);
      if (c === 61 || c === 34) invalid = true;
      i++;
    }
    if (invalid) {
      if (strict) throw new LogfmtError(`logfmt syntax error at pos ${valueStart + 1} on line 1: unexpected character in value`);
      continue;
    }
    each(key, line.slice(valueStart, i));
  }
}

function skipPair(line: string, i: number): number {
  while (i < line.length && line.charCodeAt(i) > 32) i++;
  return i;
}
