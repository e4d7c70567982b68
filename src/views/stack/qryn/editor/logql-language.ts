// LogQL in the editor: highlighting by a small tokenizer (query-tokens.ts) with LogQL's words, and a completion
// source that reads the instance's Loki label names and values, scoped by the matchers already typed in the same
// stream selector. Also the shell's rule for where a LogQL query's results go: a metric expression at the root is
// drawn as a chart, a log query goes to the logs panel. (Grafana's LogQL grammar, which the gateway's engine parses
// with, is not loaded in the browser: with @lezer/lr it was ~16 kB gz for colours and this one decision.)
import { autocompletion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { LanguageSupport } from '@codemirror/language';
import type { LabelSource } from './label-source';
import { queryLanguage } from './query-tokens';
import { selectorContext, usableLokiScope } from './selector-context';

const PIPELINE_WORDS = ['json', 'logfmt', 'unpack', 'pattern', 'regexp', 'line_format', 'label_format', 'drop', 'keep', 'decolorize', 'unwrap'];
const RANGE_FUNCTIONS = ['count_over_time', 'rate', 'bytes_over_time', 'bytes_rate', 'sum_over_time', 'avg_over_time', 'min_over_time', 'max_over_time', 'quantile_over_time', 'first_over_time', 'last_over_time', 'absent_over_time', 'rate_counter'];
const AGGREGATIONS = ['sum', 'avg', 'min', 'max', 'count', 'stddev', 'stdvar', 'topk', 'bottomk', 'sort', 'sort_desc'];

const KEYWORDS = ['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool', 'and', 'or', 'unless', ...PIPELINE_WORDS];
const FUNCTIONS = [...RANGE_FUNCTIONS, 'label_replace', 'vector', 'bytes', 'duration', 'duration_seconds'];

export const logqlLanguage = queryLanguage('logql', { functions: FUNCTIONS, aggregations: AGGREGATIONS, keywords: KEYWORDS }, ['(', '[', '{', '"', '`']);

const quote = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/** Label names and values inside `{…}` from the instance; functions and pipeline stages elsewhere. */
export function logqlCompletion(labels: LabelSource) {
  return async (context: CompletionContext): Promise<CompletionResult | null> => {
    const text = context.state.doc.toString();
    const at = selectorContext(text, context.pos);
    if (at?.kind === 'name') {
      if (!context.explicit && at.typed === '' && !/[{,]\s*$/.test(text.slice(0, context.pos))) return null;
      const names = await labels.names(usableLokiScope(at.matchers)).catch(() => []);
      const taken = new Set(at.matchers.map((m) => m.name));
      return { from: at.from, options: names.filter((n) => !taken.has(n)).map((n) => ({ label: n, type: 'property', apply: `${n}="` })), validFor: /^[\w]*$/ };
    }
    if (at?.kind === 'value') {
      const values = await labels.values(at.label, usableLokiScope(at.matchers)).catch(() => []);
      return {
        from: at.from,
        options: values.map((v) => ({ label: v, type: 'constant', apply: at.quoted ? `${quote(v)}"` : `"${quote(v)}"` })),
        validFor: /^[^"]*$/,
      };
    }
    const word = context.matchBefore(/[a-z_]+/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    const afterPipe = /\|\s*[a-z_]*$/.test(text.slice(0, context.pos));
    const options = afterPipe
      ? PIPELINE_WORDS.map((w) => ({ label: w, type: 'keyword' }))
      : [...RANGE_FUNCTIONS.map((f) => ({ label: f, type: 'function', apply: `${f}(` })), ...AGGREGATIONS.map((a) => ({ label: a, type: 'function' }))];
    return { from: word.from, options, validFor: /^[a-z_]*$/ };
  };
}

export function logql(labels: LabelSource): LanguageSupport {
  return new LanguageSupport(logqlLanguage, [autocompletion({ override: [logqlCompletion(labels)], activateOnTyping: true })]);
}

/**
 * True when the query's root is a metric expression (`rate(…)`, `sum by (…) (…)`, a binary of them, `vector(1)`):
 * every LogQL log query begins with its stream selector `{…}` (after comments and parentheses), every metric query
 * with something else.
 */
export function isLogqlMetricQuery(query: string): boolean {
  const start = query.replace(/^(?:\s|#[^\n]*|\()*/, '');
  return start !== '' && !start.startsWith('{');
}
