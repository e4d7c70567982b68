import type { LRParser, Stack } from '@lezer/lr';

// The PromQL and LogQL grammars (@prometheus-io/lezer-promql, @grafana/lezer-logql) turn a word into a keyword by
// looking it up in a plain object (`keywordTokens[word.toLowerCase()] || -1`). A word that names a member of
// Object.prototype (`constructor`, `__proto__`) finds that member instead of nothing, and the parser reads it as an
// error token: `{constructor="x"}` is refused, although Prometheus and Loki take any identifier as a label or metric
// name. This wraps each such lookup so that only a number (a real keyword's term) counts; everything else is a plain
// identifier, as it is in Prometheus' and Loki's own parsers.

type Specializer = (value: string, stack: Stack) => number;

/** The parser with its keyword lookups answering -1 (no keyword) for whatever is not one of their terms. */
export function withOwnKeywordsOnly(parser: LRParser): LRParser {
  // The parser keeps the grammar's external specializers here; configure() replaces them by identity.
  const specs = (parser as unknown as { specializerSpecs: { external?: Specializer }[] }).specializerSpecs;
  const specializers = specs
    .flatMap((spec) => (spec.external ? [spec.external] : []))
    .map((from) => ({
      from,
      to: (value: string, stack: Stack) => {
        const term: unknown = from(value, stack);
        return typeof term === 'number' && Number.isInteger(term) ? term : -1;
      },
    }));
  return parser.configure({ specializers });
}
