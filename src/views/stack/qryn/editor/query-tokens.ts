// Highlighting for the explorer's PromQL and LogQL: one small tokenizer (a CodeMirror stream language) per word list.
// Completion reads the text (selector-context.ts) and errors come from the instance's parser, so a grammar would only
// colour tokens; Prometheus' and Grafana's lezer grammars with @lezer/lr cost ~16 kB gz per language for that
// (docs/qryn.md "The explorer's bundle"). Token names are highlighting tags (`variableName.function` is the function
// modifier).
import { StreamLanguage, type StringStream } from '@codemirror/language';

export interface QueryWords {
  /** Called by name: `rate(`. */
  functions: readonly string[];
  /** Called by name or followed by a grouping: `sum(`, `sum by (`. */
  aggregations: readonly string[];
  keywords: readonly string[];
}

export interface QueryTokenState {
  /** Open `{` (label matchers): an identifier there is a label name. */
  braces: number;
}

const OPERATOR = /^(?:\|=|\|~|\|>|!>|==|!=|>=|<=|=~|!~|[-+*/%^=<>|])/;

export function queryTokenizer(words: QueryWords) {
  const functions = new Set(words.functions);
  const aggregations = new Set(words.aggregations);
  const keywords = new Set(words.keywords);
  return (stream: StringStream, state: QueryTokenState): string | null => {
    if (stream.eatSpace()) return null;
    if (stream.match('#')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^'\\]|\\.)*'?/) || stream.match(/^`[^`]*`?/)) return 'string';
    // Durations (1h30m), byte sizes (10KB, 5MiB), hexadecimal and decimal numbers.
    if (stream.match(/^(?:\d+(?:ms|us|µs|ns|[smhdwy]))+(?![\w])/) || stream.match(/^\d+(?:\.\d+)?[KMGTPE]i?B\b/i) || stream.match(/^0x[\da-fA-F]+/) || stream.match(/^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?/i)) {
      return 'number';
    }
    if (stream.match(/^[a-zA-Z_:][\w:]*/)) {
      const word = stream.current();
      if (state.braces > 0) return 'labelName';
      if (keywords.has(word.toLowerCase())) return 'keyword';
      if (/^(?:inf|nan)$/i.test(word)) return 'number';
      // A function only when called: a metric or a label may be named like one.
      if (functions.has(word) && stream.match(/^\s*\(/, false)) return 'variableName.function';
      if (aggregations.has(word) && stream.match(/^\s*(?:\(|by\b|without\b)/, false)) return 'variableName.function';
      return 'variableName';
    }
    if (stream.match(OPERATOR)) return 'operator';
    const c = stream.next();
    if (c === '{') state.braces += 1;
    if (c === '}') state.braces = Math.max(0, state.braces - 1);
    if (c === '{' || c === '}') return 'brace';
    if (c === '(' || c === ')') return 'paren';
    if (c === '[' || c === ']') return 'squareBracket';
    return c === ',' ? 'separator' : null;
  };
}

export function queryLanguage(name: string, words: QueryWords, closeBrackets: string[]) {
  return StreamLanguage.define<QueryTokenState>({
    name,
    startState: () => ({ braces: 0 }),
    copyState: (state) => ({ ...state }),
    token: queryTokenizer(words),
    languageData: { commentTokens: { line: '#' }, closeBrackets: { brackets: closeBrackets } },
  });
}
