// The text handed to the lezer grammar, which differs from Prometheus 2.42's lexer in two places that are rewritten
// before it reads the query.

// Later Prometheus versions renamed holt_winters; the grammar only knows the new name, so the query is read with
// the name swapped and positions after it shifted back.
export const HOLT = 'holt_winters';
export const DES = 'double_exponential_smoothing';
export const HOLT_SHIFT = DES.length - HOLT.length;

export interface GrammarText {
  /** What the grammar reads. */
  text: string;
  /** The same positions with the query's own characters (for reading literals back). */
  exact: string;
  /** Where each renamed holt_winters ends in `text`; positions from there on are HOLT_SHIFT further than in the query. */
  shifts: number[];
}

export function grammarText(query: string): GrammarText {
  let exact = '';
  let last = 0;
  let acc = 0;
  const shifts: number[] = [];
  const re = /\bholt_winters(?=\s*\()/g;
  for (let m = re.exec(query); m; m = re.exec(query)) {
    exact += query.slice(last, m.index) + DES;
    shifts.push(m.index + acc + DES.length);
    acc += HOLT_SHIFT;
    last = m.index + HOLT.length;
  }
  exact += query.slice(last);
  return { text: withoutTrailingDots(exact), exact, shifts };
}

/**
 * Prometheus' lexer reads `2.`, `1./6.` and `5.e1` as numbers (digits, then a dot, then optional digits); the
 * grammar does not take a dot without digits after it. Such a dot becomes a `0` (same length, same positions), and
 * the number's value is read from the exact text.
 */
function withoutTrailingDots(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += c !== '`' && text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
      continue;
    }
    if (c === '.' && /\d/.test(text[i - 1] ?? '') && !/\d/.test(text[i + 1] ?? '') && startsNumber(text, i - 1)) out += '0';
    else out += c;
  }
  return out;
}

/** Whether the digits ending at `end` are a number of their own (not the tail of a name such as `x2` or `0x1`). */
function startsNumber(text: string, end: number): boolean {
  let i = end;
  while (i >= 0 && /\d/.test(text[i])) i--;
  return i < 0 || !/[\w:.]/.test(text[i]);
}
