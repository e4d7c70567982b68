import type { LabelMatcher } from '../syntax/ast';
import { parseLogSelector } from '../syntax/parse';
import { compilePipeline } from './pipeline';

// A log query (selector and pipeline) compiled for a consumer that has the lines already, e.g. live tail: the
// matchers select the streams, `process` runs the pipeline over one line of a stream.

export interface CompiledLogSelector {
  matchers: LabelMatcher[];
  /** The line and labels after the pipeline, or null when the pipeline drops the line. */
  process(line: string, labels: Record<string, string>, tsNs: bigint): { line: string; labels: Record<string, string> } | null;
}

/** Throws LogQLParseError (Loki's "parse error at line 1, col N: …") for a bad or a metric query. */
export function compileLogSelector(query: string): CompiledLogSelector {
  const expr = parseLogSelector(query);
  const run = compilePipeline(expr.stages);
  return {
    matchers: expr.matchers,
    process(line, labels, tsNs) {
      const e = run(line, labels, tsNs);
      return e ? { line: e.line, labels: e.labels } : null;
    },
  };
}
