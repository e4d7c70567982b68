// A query's parse error worded for a person. The instances answer with their parser's text (Loki's and Tempo's
// `parse error at line 1, col 9: syntax error: unexpected $end`, Prometheus' `1:9: parse error: unclosed left brace`),
// which names grammar tokens ($end, IDENTIFIER) rather than what to fix. The explorer shows this wording first and
// the instance's own text under it, so nothing the instance said is hidden.
import { errorPosition } from '../../../../services/qryn-explorer';

const CLOSER: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** What is still open at the end of `query`: an unclosed string's quote, else the innermost bracket's closer. */
export function missingCloser(query: string): string | null {
  const open: string[] = [];
  let quote: string | null = null;
  for (let i = 0; i < query.length; i++) {
    const c = query[i]!;
    if (quote) {
      if (c === '\\' && quote !== '`') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === '`' || c === "'") quote = c;
    else if (CLOSER[c]) open.push(CLOSER[c]);
    else if (c === open[open.length - 1]) open.pop();
  }
  return quote ?? open.pop() ?? null;
}

/** The parser's own reason, without the wrapper and position (`syntax error: unexpected }`). */
function reasonOf(message: string): string {
  return message
    .replace(/^invalid TraceQL query:\s*/i, '')
    .replace(/^.*?parse error at line \d+, col \d+:?\s*/, '')
    .replace(/^.*?\d+:\d+: parse error:?\s*/, '')
    .replace(/^syntax error:\s*/, '')
    .trim();
}

/** The text at the error's position (a word or one character), to quote instead of a grammar token's name. */
function textAt(query: string, line: number, col: number): string {
  const text = query.split('\n')[line - 1] ?? '';
  const rest = text.slice(Math.max(col - 1, 0));
  return /^(?:[\w.]+|"[^"]*"?|\S)/.exec(rest)?.[0] ?? '';
}

/** The message for a person; the instance's text as it is when it is not a parse error this knows. */
export function explainQueryError(message: string, query: string): string {
  const reason = reasonOf(message);
  const position = errorPosition(message);
  const endsEarly = /unexpected (?:\$end|end of input|EOF)|unclosed|unterminated|unexpected end/i.test(reason);
  if (endsEarly) {
    const closer = missingCloser(query);
    return closer ? `The query ends too early: a closing ${closer} is missing.` : 'The query ends too early: something is missing at its end.';
  }
  const unexpected = /^unexpected (.+?)(?:,|$)/.exec(reason);
  if (unexpected && position) {
    const found = textAt(query, position.line, position.col) || unexpected[1]!;
    const where = query.includes('\n') ? `line ${position.line}, column ${position.col}` : `column ${position.col}`;
    return `The query has ${found.length > 40 ? `${found.slice(0, 40)}…` : found} where it cannot go (${where}).`;
  }
  if (!reason) return message;
  return reason[0]!.toUpperCase() + reason.slice(1) + (/[.!?]$/.test(reason) ? '' : '.');
}
