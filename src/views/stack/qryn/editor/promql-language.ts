// PromQL in the editor: Prometheus' PromQL grammar (@prometheus-io/lezer-promql, the parser Prometheus' own editor is
// built on; it carries its highlighting tags, a syntax error included: the tree's error nodes are tagged invalid, so
// a query that cannot parse is marked while it is typed) as a CodeMirror language, and a completion source that reads
// the instance's metric names, label names and values through the same label source as the label browser (the
// instance's Prometheus API with the View's credential). Inside `{…}` the suggestions are scoped by the metric name
// before the braces and the matchers already typed (match[]). No client-side linter: the errors underlined are the
// ones the instance's parser answered.
//
// Prometheus' full CodeMirror extension (@prometheus-io/codemirror-promql) is not used: it brings its own HTTP client,
// an LRU cache and a linter the explorer has no use for (~19 kB gz of the metrics session, docs/qryn.md "The
// explorer's bundle"); its grammar, the part that is the language, is this one.
import { LRLanguage, LanguageSupport } from '@codemirror/language';
import { parser } from '@prometheus-io/lezer-promql';
import { completion, type Completion, type CompletionContext, type CompletionResult } from './completion';
import type { LabelSource } from './label-source';
import { selectorContext, selectorText, type CompleteMatcher } from './selector-context';

export const promqlLanguage = LRLanguage.define({
  name: 'promql',
  parser,
  languageData: { commentTokens: { line: '#' }, closeBrackets: { brackets: ['(', '[', '{', '"', "'", '`'] } },
});

// PromQL's functions and aggregations (the Prometheus 2.x language the gateway's engine speaks).
export const PROMQL_FUNCTIONS = [
  'abs', 'absent', 'absent_over_time', 'acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'avg_over_time', 'ceil', 'changes', 'clamp',
  'clamp_max', 'clamp_min', 'cos', 'cosh', 'count_over_time', 'day_of_month', 'day_of_week', 'day_of_year', 'days_in_month', 'deg',
  'delta', 'deriv', 'exp', 'floor', 'histogram_quantile', 'holt_winters', 'hour', 'idelta', 'increase', 'irate', 'label_join',
  'label_replace', 'last_over_time', 'ln', 'log10', 'log2', 'max_over_time', 'min_over_time', 'minute', 'month', 'pi',
  'predict_linear', 'present_over_time', 'quantile_over_time', 'rad', 'rate', 'resets', 'round', 'scalar', 'sgn', 'sin', 'sinh',
  'sort', 'sort_desc', 'sqrt', 'stddev_over_time', 'stdvar_over_time', 'sum_over_time', 'tan', 'tanh', 'time', 'timestamp',
  'vector', 'year',
];
export const PROMQL_AGGREGATIONS = ['avg', 'bottomk', 'count', 'count_values', 'group', 'max', 'min', 'quantile', 'stddev', 'stdvar', 'sum', 'topk'];
const KEYWORDS = ['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool', 'and', 'or', 'unless'];

const quote = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/** The metric name written right before the selector's `{` (`up{…`), as a matcher that scopes the lookups. */
function metricBefore(text: string, from: number, matchers: CompleteMatcher[]): CompleteMatcher[] {
  const brace = text.lastIndexOf('{', from);
  const metric = /([a-zA-Z_:][\w:]*)\s*$/.exec(text.slice(0, Math.max(brace, 0)));
  return metric && !PROMQL_AGGREGATIONS.includes(metric[1]!) && !KEYWORDS.includes(metric[1]!) ? [{ name: '__name__', op: '=', value: metric[1]! }, ...matchers] : matchers;
}

/** Prometheus accepts a selector when one matcher does not match the empty value. */
function usableScope(matchers: CompleteMatcher[]): string | undefined {
  return matchers.some((m) => (m.op === '=' || m.op === '=~') && m.value !== '') ? selectorText(matchers) : undefined;
}

/** Label names and values inside `{…}` and `by (…)`; metric names, functions and keywords elsewhere. */
export function promqlCompletion(labels: LabelSource) {
  return async (context: CompletionContext): Promise<CompletionResult | null> => {
    const text = context.state.doc.toString();
    const at = selectorContext(text, context.pos);
    if (at?.kind === 'name') {
      if (!context.explicit && at.typed === '' && !/[{,]\s*$/.test(text.slice(0, context.pos))) return null;
      const names = await labels.names(usableScope(metricBefore(text, at.from, at.matchers))).catch(() => []);
      const taken = new Set(at.matchers.map((m) => m.name));
      return { from: at.from, options: names.filter((n) => n !== '__name__' && !taken.has(n)).map((n) => ({ label: n, type: 'property', apply: `${n}="` })), validFor: /^\w*$/ };
    }
    if (at?.kind === 'value') {
      const values = await labels.values(at.label, usableScope(metricBefore(text, at.from, at.matchers))).catch(() => []);
      return { from: at.from, options: values.map((v) => ({ label: v, type: 'constant', apply: at.quoted ? `${quote(v)}"` : `"${quote(v)}"` })), validFor: /^[^"]*$/ };
    }
    const before = text.slice(0, context.pos);
    // Grouping labels: `sum by (jo`, `on(`, `ignoring (a, b`.
    const grouping = /\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([\w\s,]*)$/.exec(before);
    if (grouping) {
      const typed = /\w*$/.exec(grouping[1]!)![0];
      const names = await labels.names().catch(() => []);
      return { from: context.pos - typed.length, options: names.filter((n) => n !== '__name__').map((n) => ({ label: n, type: 'property' })), validFor: /^\w*$/ };
    }
    // Inside a range or a string there is nothing to offer.
    if (/\[[^\]]*$/.test(before) || /"(?:[^"\\]|\\.)*$/.test(before.replace(/"(?:[^"\\]|\\.)*"/g, ''))) return null;
    const word = context.matchBefore(/[a-zA-Z_:][\w:]*/);
    if (!word && !context.explicit) return null;
    const from = word?.from ?? context.pos;
    const metrics = await labels.values('__name__').catch(() => []);
    const options: Completion[] = [
      ...metrics.map((m) => ({ label: m, type: 'variable' })),
      ...PROMQL_FUNCTIONS.map((f) => ({ label: f, type: 'function', apply: `${f}(` })),
      ...PROMQL_AGGREGATIONS.map((a) => ({ label: a, type: 'function' })),
      ...KEYWORDS.map((k) => ({ label: k, type: 'keyword' })),
    ];
    return { from, options, validFor: /^[\w:]*$/ };
  };
}

export function promql(labels: LabelSource): LanguageSupport {
  return new LanguageSupport(promqlLanguage, [completion(promqlCompletion(labels))]);
}
