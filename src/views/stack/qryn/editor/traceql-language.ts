// TraceQL in the editor: plain highlighting (a small tokenizer: strings, numbers and durations, intrinsics,
// attribute names, operators) and completion of tag names and values from the instance's Tempo tag search
// (/api/v2/search/tags and tag values), inside a spanset filter `{ … }`. A tokenizer because no official TraceQL
// lezer grammar is among the project's packages (PromQL and LogQL use Prometheus' and Grafana's grammars).
import { LanguageSupport, StreamLanguage, type StringStream } from '@codemirror/language';
import { completion, type CompletionContext, type CompletionResult } from './completion';
import type { LabelSource } from './label-source';
import { selectorContext } from './selector-context';

const INTRINSICS = ['name', 'status', 'kind', 'duration', 'rootName', 'rootServiceName', 'traceDuration'];
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
