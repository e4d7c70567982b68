import { RE2JS } from 're2js';

// Regular expressions with RE2's semantics, as Prometheus and Loki define them, in two places:
// - in the process, with re2js (a linear-time port of RE2; JavaScript's RegExp differs: it refuses `(?i)`, has
//   backreferences and lookaround, and reads `\Q…\E`, `\pN` and classes differently);
// - pushed down to ClickHouse, whose match() is RE2 too, but whose 18.16 prefilter extracts a required substring
//   and compares it case-sensitively, so `match('ABC', '(?i)abc')` answers 0. A flag group `(?i:abc)` is read
//   correctly, so every flag setting `(?flags)` is rewritten into a group that runs to the end of its enclosing
//   group (the same meaning in RE2); and its match() lets `.` match a newline, which RE2 by default does not.

export class RegexError extends Error {}

/** A matcher that must match the whole value (Prometheus and LogQL label matchers: `=~`, `!~`). */
export function compileAnchored(pattern: string): (value: string) => boolean {
  const re = compile(`^(?:${pattern})$`, pattern);
  return (value) => re.matches(value);
}

/** A matcher that may match anywhere in the value (LogQL line filters `|~`, `!~`). */
export function compileUnanchored(pattern: string): (value: string) => boolean {
  const re = compile(pattern, pattern);
  return (value) => re.matcher(value).find();
}

/** The compiled RE2 expression (for replacements and capture groups: label_replace, `| regexp`). */
export function compileRe2(pattern: string): RE2JS {
  return compile(pattern, pattern);
}

function compile(source: string, shown: string): RE2JS {
  try {
    return RE2JS.compile(source);
  } catch (error) {
    throw new RegexError(`invalid regular expression "${shown}": ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * An RE2 pattern (Prometheus' or Loki's meaning, as re2js reads it) in the form ClickHouse 18.16's match() gives the
 * same answers for; every regex pushed down to ClickHouse goes through it. Quote the result as a SQL string literal.
 * - ClickHouse compiles with RE2's dot_nl, so `.` would match a newline where Go and re2js do not: the whole pattern
 *   runs in a `(?-s:…)` group (a `(?s)` written in the pattern still turns it back on inside);
 * - flag settings `(?i)x` become groups `(?i:x)` (18.16 misreads a leading `(?i)`, see rewriteFlagSettings);
 * - `anchored`: must match the whole value (label matchers), else anywhere (line filters).
 * Validates with re2js first, so that what ClickHouse is sent is always valid RE2 (else a RegexError).
 */
export function toClickHouseRegex(pattern: string, anchored: boolean): string {
  compile(pattern, pattern);
  const body = rewriteFlagSettings(pattern);
  return anchored ? `(?-s:^(?:${body})$)` : `(?-s:${body})`;
}

/**
 * `a(?i)b(c)d` → `a(?i:b(c)d)`: each flag setting becomes a group that closes where its enclosing group closes
 * (in RE2 a setting applies to the rest of its group, later alternatives included: `a|(?i)b|c` → `a|(?i:b|c)`).
 */
export function rewriteFlagSettings(pattern: string): string {
  let out = '';
  // Per open group (index 0 is the whole pattern): how many flag groups were opened inside it.
  const extra: number[] = [0];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') {
      if (pattern[i + 1] === 'Q') {
        // \Q…\E quotes literally up to \E or the end.
        const end = pattern.indexOf('\\E', i + 2);
        const stop = end < 0 ? pattern.length : end + 2;
        // An unterminated \Q is closed, so that the groups closed after it stay groups.
        out += pattern.slice(i, stop) + (end < 0 ? '\\E' : '');
        i = stop;
        continue;
      }
      out += pattern.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '[') {
      // A character class: `]` right after `[` or `[^` is literal; escapes and [:name:] inside.
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') {
        if (pattern[j] === '\\') j += 2;
        else if (pattern[j] === '[' && pattern[j + 1] === ':') {
          const close = pattern.indexOf(':]', j + 2);
          j = close < 0 ? j + 1 : close + 2;
        } else j++;
      }
      out += pattern.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '(') {
      const setting = /^\(\?([a-zA-Z-]+)\)/.exec(pattern.slice(i));
      if (setting) {
        out += `(?${setting[1]}:`;
        extra[extra.length - 1]++;
        i += setting[0].length;
        continue;
      }
      extra.push(0);
      out += c;
      i++;
      continue;
    }
    if (c === ')') {
      out += ')'.repeat(extra.pop() ?? 0) + ')';
      if (extra.length === 0) extra.push(0);
      i++;
      continue;
    }
    out += c;
    i++;
  }
  out += ')'.repeat(extra.pop() ?? 0);
  return out;
}

/**
 * Whether a label matcher accepts the empty value, and so a series without the label (Prometheus' and Loki's rule,
 * which both also use to refuse a selector whose every matcher accepts the empty value).
 */
export function matcherAcceptsEmpty(m: { op: '=' | '!=' | '=~' | '!~'; value: string }): boolean {
  switch (m.op) {
    case '=':
      return m.value === '';
    case '!=':
      return m.value !== '';
    case '=~':
      return compileAnchored(m.value)('');
    case '!~':
      return !compileAnchored(m.value)('');
  }
}
