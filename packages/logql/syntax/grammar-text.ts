// The text handed to Grafana's LogQL grammar, rewritten (same length, same positions) where that grammar refuses
// what Loki's own parser accepts. The parser reads names and literals from the query itself; what a rewrite hides
// from the grammar is handed over beside the text.

export interface GrammarText {
  /** What the grammar reads. */
  text: string;
  /** `offset <duration>` after an unwrapped range, by the position of the range's `]`. */
  offsets: Map<number, { text: string; at: number }>;
  /** Line filters that continue the `or` chain before them (`|= ip("a") or ip("b") or ip("c")`), by position. */
  orJoins: Set<number>;
}

interface Token {
  text: string;
  from: number;
  to: number;
}

const TOKEN_RE = /"(?:[^"\\]|\\.)*"?|`[^`]*`?|--[\w-]+|[A-Za-z_][\w.]*|[\d.]+[\w.µμ]*|[=!]~|[=!<>]=|\|[=~>]|!>|\S/gy;
const COMPARE = new Set(['=', '!=', '=~', '!~', '>', '>=', '<', '<=', '==']);
// Stage keywords: a stage starting with another word is a label filter.
const STAGES = new Set(['json', 'logfmt', 'regexp', 'pattern', 'unpack', 'line_format', 'label_format', 'drop', 'keep', 'unwrap', 'decolorize']);

function tokenize(query: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < query.length) {
    if (/\s/.test(query[i])) {
      i++;
      continue;
    }
    TOKEN_RE.lastIndex = i;
    const m = TOKEN_RE.exec(query);
    const text = m ? m[0] : query[i];
    out.push({ text, from: i, to: i + text.length });
    i += text.length;
  }
  return out;
}

export function grammarText(query: string): GrammarText {
  // Positions are UTF-16 offsets, as the grammar's: work on code units.
  const text = query.split('');
  const tokens = tokenize(query);
  const offsets = new Map<number, { text: string; at: number }>();
  const orJoins = new Set<number>();
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) text[k] = ' ';
  };
  /** The word after the `|` that starts the stage holding token k. */
  const stageOf = (k: number): string | undefined => {
    for (let j = k; j >= 0; j--) if (/^\|/.test(tokens[j].text) && tokens[j].text.length === 1) return tokens[j + 1]?.text;
    return undefined;
  };
  let braces = 0;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.text === '{') braces++;
    else if (t.text === '}') braces--;
    // `… | unwrap x [5m] offset 5m`: the grammar takes no offset after an unwrapped range that follows other stages.
    if (t.text === ']' && tokens[k + 1]?.text === 'offset' && tokens[k + 2] && rangeAfterUnwrap(tokens, k)) {
      const sign = tokens[k + 2].text === '-' && tokens[k + 3] ? 1 : 0;
      const d = tokens[k + 2 + sign];
      offsets.set(t.from, { text: (sign ? '-' : '') + d.text, at: tokens[k + 2].from });
      blank(tokens[k + 1].from, d.to);
      k += 2 + sign;
      continue;
    }
    // `({…} | … | unwrap x)[5m]`: the parentheses add nothing; the grammar takes the unwrap without them.
    if (t.text === '(' && tokens[k + 1]?.text === '{') {
      const close = matching(tokens, k);
      if (close > 0 && tokens[close + 1]?.text === '[' && groupUnwraps(tokens, k, close)) {
        blank(t.from, t.to);
        blank(tokens[close].from, tokens[close].to);
      }
    }
    // `| json bool="x"`: bool is a keyword to the grammar, a name to Loki there.
    if (t.text === 'bool' && tokens[k + 1]?.text === '=' && (stageOf(k) === 'json' || stageOf(k) === 'logfmt')) text[t.from + 1] = '0';
    // `| x="1" y="2"` is `| x="1", y="2"` to Loki.
    const stage = braces === 0 ? stageOf(k) : undefined;
    if (stage !== undefined && !STAGES.has(stage) && COMPARE.has(tokens[k + 1]?.text ?? '') && /^[A-Za-z_]/.test(t.text)) {
      const end = valueEnd(tokens, k + 2);
      const next = tokens[end + 1];
      const after = tokens[end + 2];
      if (end > 0 && next && after && /^[A-Za-z_]/.test(next.text) && !['and', 'or'].includes(next.text) && COMPARE.has(after.text)
        && next.from > tokens[end].to) {
        text[tokens[end].to] = ',';
      }
    }
    // `|= ip("a") or ip("b") or ip("c")`: the grammar takes one `or` after ip(); a further one becomes the filter's
    // own operator (two characters, as `or`), joined back into the chain by the parser.
    if (t.text === 'or' && tokens[k + 1]?.text === 'ip' && tokens[k - 1]?.text === ')' && tokens[k - 4]?.text === 'ip') {
      const op = chainOperator(tokens, k);
      if (op && tokens[k - 5]?.text === 'or') {
        text[t.from] = op[0];
        text[t.from + 1] = op[1];
        orJoins.add(t.from);
      }
    }
  }
  return { text: text.join(''), offsets, orJoins };
}

/** Whether the range closed by token k (`]`) follows `| unwrap …`. */
function rangeAfterUnwrap(tokens: Token[], k: number): boolean {
  let open = k;
  while (open >= 0 && tokens[open].text !== '[') open--;
  let depth = 0;
  for (let j = open - 1; j >= 0; j--) {
    const x = tokens[j].text;
    if (x === ')') depth++;
    else if (x === '(' && --depth < 0) return false;
    else if (x === 'unwrap' && depth === 0) return true;
    else if (x === '{') return false;
  }
  return false;
}

/** Whether the group from token open to token close holds `unwrap` at its own level. */
function groupUnwraps(tokens: Token[], open: number, close: number): boolean {
  let depth = 0;
  for (let j = open + 1; j < close; j++) {
    const x = tokens[j].text;
    if (x === '(') depth++;
    else if (x === ')') depth--;
    else if (x === 'unwrap' && depth === 0) return true;
  }
  return false;
}

function matching(tokens: Token[], open: number): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    if (tokens[j].text === '(') depth++;
    else if (tokens[j].text === ')' && --depth === 0) return j;
  }
  return -1;
}

/** The last token of a label filter's value starting at token k: a string, a number or unit, or `ip("…")`. */
function valueEnd(tokens: Token[], k: number): number {
  const v = tokens[k];
  if (!v) return -1;
  if (v.text === 'ip' && tokens[k + 1]?.text === '(' && tokens[k + 3]?.text === ')') return k + 3;
  if (/^["`]/.test(v.text) || /^[\d.]/.test(v.text) || /^-[\d.]/.test(v.text)) return k;
  return -1;
}

/** The operator (`|=` or `!=`) of the line filter whose `or` chain holds token k. */
function chainOperator(tokens: Token[], k: number): string | undefined {
  for (let j = k; j >= 0; j--) if (tokens[j].text === '|=' || tokens[j].text === '!=') return tokens[j].text;
  return undefined;
}
