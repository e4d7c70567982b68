// LogQL in the editor: Grafana's LogQL grammar (@grafana/lezer-logql, the one the gateway's engine parses with) as a
// CodeMirror language with highlighting (the tree's error nodes tagged invalid, so a query that cannot parse is marked
// while it is typed), and a completion source that reads the instance's Loki label names and values, scoped by the
// matchers already typed in the same stream selector. Also the shell's rule for where a LogQL query's results go,
// read from the same parse: a metric expression at the root is drawn as a chart, a log query goes to the logs panel.
import { LRLanguage, LanguageSupport } from '@codemirror/language';
import { parser } from '@grafana/lezer-logql';
import { styleTags, tags as t } from '@lezer/highlight';
import { completion, type CompletionContext, type CompletionResult } from './completion';
import type { LabelSource } from './label-source';
import { selectorContext, usableLokiScope } from './selector-context';

const KEYWORDS =
  'Json Logfmt Unpack Pattern Regexp Unwrap LabelFormat LineFormat LabelReplace Vector Offset Bool On Ignoring GroupLeft GroupRight Decolorize Drop Keep By Without And Or Unless Ip';
const FUNCTIONS =
  'Sum Avg Count Max Min Stddev Stdvar Bottomk Topk Sort Sort_Desc CountOverTime Rate RateCounter BytesOverTime BytesRate AvgOverTime SumOverTime MinOverTime MaxOverTime StddevOverTime StdvarOverTime QuantileOverTime FirstOverTime LastOverTime AbsentOverTime BytesConv DurationConv DurationSecondsConv';

export const logqlLanguage = LRLanguage.define({
  name: 'logql',
  parser: parser.configure({
    props: [
      styleTags({
        [KEYWORDS]: t.keyword,
        [FUNCTIONS]: t.function(t.variableName),
        'Identifier LabelName': t.labelName,
        String: t.string,
        'Number Duration Bytes Range': t.number,
        LineComment: t.lineComment,
        'Eq Neq Re Nre PipeExact PipeMatch PipePattern Npa Gtr Gte Lss Lte Eql Add Sub Mul Div Mod Pow Pipe': t.operator,
        '( )': t.paren,
        '{ }': t.brace,
        '[ ]': t.squareBracket,
        '⚠': t.invalid,
      }),
    ],
  }),
  languageData: { commentTokens: { line: '#' }, closeBrackets: { brackets: ['(', '[', '{', '"', '`'] } },
});

const PIPELINE_WORDS = ['json', 'logfmt', 'unpack', 'pattern', 'regexp', 'line_format', 'label_format', 'drop', 'keep', 'decolorize', 'unwrap'];
const RANGE_FUNCTIONS = ['count_over_time', 'rate', 'bytes_over_time', 'bytes_rate', 'sum_over_time', 'avg_over_time', 'min_over_time', 'max_over_time', 'quantile_over_time', 'first_over_time', 'last_over_time', 'absent_over_time', 'rate_counter'];
const AGGREGATIONS = ['sum', 'avg', 'min', 'max', 'count', 'stddev', 'stdvar', 'topk', 'bottomk', 'sort', 'sort_desc'];

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
  return new LanguageSupport(logqlLanguage, [completion(logqlCompletion(labels))]);
}

/** True when the query's root is a metric expression (`rate(…)`, `sum by (…) (…)`, a binary of them, `vector(1)`). */
export function isLogqlMetricQuery(query: string): boolean {
  const tree = parser.parse(query);
  const expr = tree.topNode.getChild('Expr');
  const first = expr?.firstChild;
  return first?.name === 'MetricExpr';
}
