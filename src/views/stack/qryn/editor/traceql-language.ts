// TraceQL in the editor: plain highlighting (a small tokenizer: strings, numbers and durations, intrinsics,
// attribute names, operators) and completion of tag names and values from the instance's Tempo tag search
// (/api/v2/search/tags and tag values), inside a spanset filter `{ … }`; after a filter, the spanset and structural
// operators; after a pipe, the pipeline stages (aggregates, by, select, coalesce) and the metrics functions. A
// tokenizer because no official TraceQL lezer grammar is among the project's packages (PromQL and LogQL use
// Prometheus' and Grafana's grammars).
import { LanguageSupport, StreamLanguage, type StringStream } from '@codemirror/language';
import { completion, type CompletionContext, type CompletionResult } from './completion';
import type { LabelSource } from './label-source';
import { selectorContext } from './selector-context';

const INTRINSICS = ['name', 'status', 'kind', 'duration', 'rootName', 'rootServiceName', 'traceDuration', 'statusMessage'];

/** After a pipe: the stages Tempo takes, each applied with its opening parenthesis (and the closing one when empty). */
export const TRACEQL_STAGES: { label: string; apply: string; detail: 'function' | 'keyword' }[] = [
  ...['rate', 'count_over_time'].map((f) => ({ label: `${f}()`, apply: `${f}()`, detail: 'function' as const })),
  ...['quantile_over_time', 'histogram_over_time', 'min_over_time', 'max_over_time', 'avg_over_time', 'sum_over_time', 'compare'].map((f) => ({ label: `${f}(`, apply: `${f}(`, detail: 'function' as const })),
  ...['count()', 'avg(', 'min(', 'max(', 'sum(', 'by(', 'select(', 'coalesce()'].map((f) => ({ label: f, apply: f, detail: 'keyword' as const })),
];

/** After a closed filter `{ … }`: the spanset operators (structural ones with their negated and union forms). */
export const TRACEQL_SPANSET_OPS = ['&&', '||', '>', '>>', '<', '<<', '~', '!>', '!>>', '!<', '!<<', '!~', '&>', '&>>', '&<', '&<<', '&~', '|'];

/** What is typed after the last `}` or `|` outside a filter: the stage or operator being typed, or null. */
function afterFilter(text: string, pos: number): { kind: 'stage' | 'operator'; from: number; typed: string } | null {
  const before = text.slice(0, pos).replace(/"(?:[^"\\]|\\.)*"/g, '""');
  if (before.lastIndexOf('{') > before.lastIndexOf('}')) return null;
  const stage = /\|\s*([A-Za-z_]*)$/.exec(before);
  if (stage && !/\|\|\s*[A-Za-z_]*$/.test(before)) return { kind: 'stage', from: pos - stage[1]!.length, typed: stage[1]! };
  const op = /\}\s*([!&|<>~]*)$/.exec(before) ?? /\)\s*([!&|<>~]*)$/.exec(before);
  if (op) return { kind: 'operator', from: pos - op[1]!.length, typed: op[1]! };
  return null;
}
const WORDS = new Set([...INTRINSICS, 'true', 'false', 'nil', 'error', 'ok', 'unset', 'client', 'server', 'producer', 'consumer', 'internal']);

function token(stream: StringStream): string | null {
  if (stream.eatSpace()) return null;
  if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return 'string';
  if (stream.match(/^\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h)?/)) return 'number';
  if (stream.match(/^(?:span|resource|trace)?\.[\w.]+/) || stream.match(/^(?:span|resource)\.[\w.]+/)) return 'propertyName';
  if (stream.match(/^[A-Za-z_]\w*/)) return WORDS.has(stream.current()) ? 'keyword' : 'variableName';
  if (stream.match(/^(?:=~|!~|!=|>=|<=|&&|\|\||[=<>!|])/)) return 'operator';
  if (stream.match(/^[{}()]/)) return 'bracket';
  stream.next();
  return null;
}

export const traceqlLanguage = StreamLanguage.define({ name: 'traceql', token, languageData: { closeBrackets: { brackets: ['(', '{', '"'] } } });

const quote = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

export function traceqlCompletion(tags: LabelSource) {
  return async (context: CompletionContext): Promise<CompletionResult | null> => {
    const text = context.state.doc.toString();
    const after = afterFilter(text, context.pos);
    if (after?.kind === 'stage') {
      return { from: after.from, options: TRACEQL_STAGES.map((s) => ({ label: s.label, apply: s.apply, type: s.detail })), validFor: /^[\w(]*$/ };
    }
    if (after?.kind === 'operator' && (context.explicit || after.typed !== '')) {
      return { from: after.from, options: TRACEQL_SPANSET_OPS.map((op) => ({ label: op, apply: `${op} `, type: 'operator' })), validFor: /^[!&|<>~]*$/ };
    }
    const at = selectorContext(text, context.pos);
    if (at?.kind === 'name') {
      if (!context.explicit && at.typed === '') return null;
      const names = await tags.names().catch(() => []);
      return { from: at.from, options: [...new Set([...names, ...INTRINSICS])].map((n) => ({ label: n, type: 'property' })), validFor: /^[\w.]*$/ };
    }
    if (at?.kind === 'value') {
      const values = await tags.values(at.label).catch(() => []);
      return { from: at.from, options: values.map((v) => ({ label: v, type: 'constant', apply: at.quoted ? `${quote(v)}"` : `"${quote(v)}"` })), validFor: /^[^"]*$/ };
    }
    return null;
  };
}

export function traceql(tags: LabelSource): LanguageSupport {
  return new LanguageSupport(traceqlLanguage, [completion(traceqlCompletion(tags))]);
}
