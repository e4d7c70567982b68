// LogQL cases in two small text formats of this project, read and checked here (logql-cases.test.ts runs them,
// scripts/conformance.ts counts them).
//
// Syntax (tests/logql/testdata/syntax/*.txt), one case a line:
//   accept {app="a"} |= "x"                   the query parses
//   refuse 1:14 {app="a"} | json bool="x"      it is refused at line 1, column 14 (0:0: Loki's "parse error : …",
//                                              an error without a position)
//     | json                                   an indented line continues the query on its next line
//
// Stages (tests/logql/testdata/stages/*.txt): a pipeline, then cases of one line in and what comes out:
//   pipeline | logfmt | level="error"          the stages after a selector, for the cases below it
//   in {app="a"} level=error msg=hi            stream labels, one space, the line to the end
//   out {app="a", level="error", msg="hi"} level=error msg=hi     every label after the pipeline, and the line
//   drop                                       (instead of out) the pipeline drops the line
// `in-quoted` and `out-quoted` take the line as a JSON string instead (escapes, leading spaces, U+FFFD).
// Lines are stamped 2023-11-14T22:13:20.123456789Z (1700000000123456789 ns).

import { compileLogSelector } from '../../packages/logql/log/stream-pipeline';
import { LogQLParseError, parseLogQL } from '../../packages/logql/syntax/parse';

export interface SyntaxCase {
  file: string;
  line: number;
  query: string;
  accept: boolean;
  /** Where a refused query's error is (0:0 for none). */
  at?: { line: number; col: number };
}

export interface StageCase {
  file: string;
  line: number;
  pipeline: string;
  labels: Record<string, string>;
  input: string;
  /** null: the line is dropped. */
  expected: { labels: Record<string, string>; line: string } | null;
}

export const CASE_TIME_NS = 1_700_000_000_123_456_789n;

export function parseSyntaxCases(file: string, text: string): SyntaxCase[] {
  const out: SyntaxCase[] = [];
  text.split('\n').forEach((raw, i) => {
    const l = raw.trimEnd();
    if (l.trim() === '' || l.startsWith('#')) return;
    // An indented line continues the query above on a new line.
    if (/^\s/.test(l) && out.length > 0) {
      out[out.length - 1].query += `\n${l}`;
      return;
    }
    let m = /^accept (.+)$/.exec(l);
    if (m) {
      out.push({ file, line: i + 1, query: m[1], accept: true });
      return;
    }
    m = /^refuse (\d+):(\d+) (.+)$/.exec(l);
    if (!m) throw new Error(`${file}:${i + 1}: cannot read "${l}"`);
    out.push({ file, line: i + 1, query: m[3], accept: false, at: { line: Number(m[1]), col: Number(m[2]) } });
  });
  return out;
}

export function parseStageCases(file: string, text: string): StageCase[] {
  const out: StageCase[] = [];
  let pipeline: string | undefined;
  let pending: { line: number; labels: Record<string, string>; input: string } | undefined;
  text.split('\n').forEach((raw, i) => {
    const l = raw.replace(/\r$/, '');
    const where = `${file}:${i + 1}`;
    if (l.trim() === '' || l.startsWith('#')) return;
    const word = /^(\S+)(?: (.*))?$/.exec(l)!;
    const rest = word[2] ?? '';
    switch (word[1]) {
      case 'pipeline':
        pipeline = rest;
        return;
      case 'in':
      case 'in-quoted': {
        if (pending) throw new Error(`${where}: the case before has no out or drop`);
        const { labels, line } = labelsAndLine(rest, word[1] === 'in-quoted', where);
        pending = { line: i + 1, labels, input: line };
        return;
      }
      case 'out':
      case 'out-quoted':
      case 'drop': {
        if (!pending || pipeline === undefined) throw new Error(`${where}: ${word[1]} without a pipeline and an in line`);
        const expected = word[1] === 'drop' ? null : labelsAndLine(rest, word[1] === 'out-quoted', where);
        out.push({ file, line: pending.line, pipeline, labels: pending.labels, input: pending.input, expected });
        pending = undefined;
        return;
      }
      default:
        throw new Error(`${where}: cannot read "${l}"`);
    }
  });
  if (pending) throw new Error(`${file}: the last case has no out or drop`);
  return out;
}

function labelsAndLine(text: string, quoted: boolean, where: string): { labels: Record<string, string>; line: string } {
  const m = /^\{((?:[^"}]|"(?:[^"\\]|\\.)*")*)\}(?: (.*))?$/.exec(text);
  if (!m) throw new Error(`${where}: expected {labels} and a line: ${text}`);
  const labels: Record<string, string> = {};
  for (const [, name, value] of m[1].matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*=\s*("(?:[^"\\]|\\.)*")/g)) labels[name] = JSON.parse(value) as string;
  const rest = m[2] ?? '';
  return { labels, line: quoted ? (JSON.parse(rest) as string) : rest };
}

/** Throws a message naming what differs. */
export function checkSyntaxCase(c: SyntaxCase): void {
  let error: unknown;
  try {
    parseLogQL(c.query);
  } catch (e) {
    error = e;
  }
  if (c.accept) {
    if (error) throw new Error(`should parse, refused: ${(error as Error).message}`);
    return;
  }
  if (!error) throw new Error('should be refused, parsed');
  if (!(error instanceof LogQLParseError)) throw new Error(`refused without a parse error: ${String(error)}`);
  if (error.line !== c.at!.line || error.col !== c.at!.col) {
    throw new Error(`refused at ${error.line}:${error.col}, expected ${c.at!.line}:${c.at!.col} (${error.message})`);
  }
}

export function checkStageCase(c: StageCase): void {
  const got = compileLogSelector(`{__case__="x"} ${c.pipeline}`).process(c.input, { ...c.labels }, CASE_TIME_NS);
  const show = (v: { labels: Record<string, string>; line: string } | null) => (v === null ? 'dropped' : `${labelsText(v.labels)} ${JSON.stringify(v.line)}`);
  if (c.expected === null || got === null) {
    if (c.expected !== got) throw new Error(`got ${show(got)}, expected ${show(c.expected)}`);
    return;
  }
  if (got.line !== c.expected.line || labelsText(got.labels) !== labelsText(c.expected.labels)) {
    throw new Error(`got ${show(got)}, expected ${show(c.expected)}`);
  }
}

function labelsText(labels: Record<string, string>): string {
  return `{${Object.keys(labels).sort().map((k) => `${k}=${JSON.stringify(labels[k])}`).join(', ')}}`;
}
