// What the text before the cursor asks for inside a label selector `{…}` (LogQL's stream selector, TraceQL's spanset
// filter): a label name, or a value of a named label; with the matchers already complete in the same selector, so
// that the suggestions are scoped by what is typed. Pure text analysis (quotes and escapes respected), so it also works
// on a query the grammar cannot parse yet — which is the usual state of a query being typed.

export interface CompleteMatcher {
  name: string;
  op: string;
  value: string;
}

export type SelectorContext =
  | { kind: 'name'; from: number; typed: string; matchers: CompleteMatcher[] }
  | { kind: 'value'; from: number; typed: string; label: string; quoted: boolean; matchers: CompleteMatcher[] }
  | null;

const MATCHER = /([A-Za-z_][\w.]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"/g;

/** The unclosed `{` before `pos` (outside strings), or -1. */
function openBrace(text: string, pos: number): number {
  let depth: number[] = [];
  let inString: string | null = null;
  for (let i = 0; i < pos; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === inString) inString = null;
      continue;
    }
    if (c === '"' || c === '`') inString = c;
    else if (c === '{') depth.push(i);
    else if (c === '}') depth = depth.slice(0, -1);
  }
  return depth.at(-1) ?? -1;
}

export function selectorContext(text: string, pos: number): SelectorContext {
  const start = openBrace(text, pos);
  if (start < 0) return null;
  const inside = text.slice(start + 1, pos);
  const matchers: CompleteMatcher[] = [];
  let consumed = 0;
  for (const m of inside.matchAll(MATCHER)) {
    matchers.push({ name: m[1]!, op: m[2]!, value: m[3]!.replace(/\\(.)/g, '$1') });
    consumed = m.index! + m[0].length;
  }
  const rest = inside.slice(consumed);
  // A value being typed: `label = "par` (or no quote yet: `label = `).
  const value = /([A-Za-z_][\w.]*)\s*(=~|!~|!=|=)\s*("?)((?:[^"\\]|\\.)*)$/.exec(rest);
  if (value) {
    const typed = value[4]!;
    return { kind: 'value', from: pos - typed.length, typed, label: value[1]!, quoted: value[3] === '"', matchers };
  }
  // A name being typed: after `{`, a comma, `&&`/`||` (TraceQL) or spaces.
  const name = /(?:^|[\s,(]|&&|\|\|)([A-Za-z_.][\w.]*)?$/.exec(rest);
  if (name) {
    const typed = name[1] ?? '';
    return { kind: 'name', from: pos - typed.length, typed, matchers };
  }
  return null;
}

const escapeValue = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/** `{a="x", b=~"y|z"}` from matchers; `{}` when there are none. */
export function selectorText(matchers: CompleteMatcher[]): string {
  return `{${matchers.map((m) => `${m.name}${m.op}"${escapeValue(m.value)}"`).join(', ')}}`;
}

/** Loki refuses a selector whose every matcher accepts the empty value: then there is no scope to send. */
export function usableLokiScope(matchers: CompleteMatcher[]): string | undefined {
  const useful = matchers.filter((m) => (m.op === '=' && m.value !== '') || m.op === '=~');
  return useful.length > 0 ? selectorText(matchers) : undefined;
}

const regexEscape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The label browser's choices as matchers: one value `=`, several `=~` of the escaped values joined by `|`. */
export function choiceMatchers(choices: Record<string, string[]>): CompleteMatcher[] {
  return Object.entries(choices)
    .filter(([, values]) => values.length > 0)
    .sort(([a], [b]) => (a === '__name__' ? -1 : b === '__name__' ? 1 : a.localeCompare(b)))
    .map(([label, values]) => (values.length === 1 ? { name: label, op: '=', value: values[0]! } : { name: label, op: '=~', value: values.map(regexEscape).join('|') }));
}

/** The label browser's selector; with PromQL a single chosen metric name is written before the braces, as people write it. */
export function buildSelector(choices: Record<string, string[]>, language: 'promql' | 'logql'): string {
  const matchers = choiceMatchers(choices);
  const metric = matchers[0]?.name === '__name__' && matchers[0].op === '=' && /^[a-zA-Z_:][\w:]*$/.test(matchers[0].value) ? matchers[0].value : '';
  if (language === 'promql' && metric) {
    const rest = matchers.slice(1);
    return rest.length === 0 ? metric : `${metric}${selectorText(rest)}`;
  }
  return selectorText(matchers);
}

/** What the label browser scopes value lookups by: the other labels' choices, when the API accepts them as a selector. */
export function browserScope(choices: Record<string, string[]>, language: 'promql' | 'logql'): string | undefined {
  const matchers = choiceMatchers(choices);
  if (language === 'logql') return usableLokiScope(matchers);
  return matchers.length > 0 ? selectorText(matchers) : undefined;
}
