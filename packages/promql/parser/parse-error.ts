// Parse errors worded as Prometheus 2.42's parser words them: the position as `line:col`, tokens named as its lexer.

import { PromQLError } from '../engine/errors';
import type { PosRange } from './ast';

/** A parse error at a character range, worded as Prometheus' ParseErr (`line:col: parse error: …`). */
export function parseError(query: string, pos: PosRange, message: string): PromQLError {
  let line = 1;
  let lastBreak = -1;
  const at = Math.max(0, Math.min(pos.start, query.length));
  for (let i = 0; i < at; i++) {
    if (query[i] === '\n') {
      line++;
      lastBreak = i;
    }
  }
  return new PromQLError('bad_data', `${line}:${at - lastBreak}: parse error: ${message}`, { start: pos.start, end: pos.end });
}

export function nextTokenEnd(text: string, at: number): number {
  const m = /^(\s*)([A-Za-z_][A-Za-z0-9_:]*|\d[\w.]*|"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|[=!<>]=?|=~|!~|\S)/.exec(text.slice(at));
  return m ? at + m[0].length : at + 1;
}

const PUNCTUATION: Record<string, string> = {
  '(': 'left parenthesis', ')': 'right parenthesis', '{': 'left brace', '}': 'right brace', '[': 'left bracket',
  ']': 'right bracket', ',': 'comma', ':': 'colon',
};
const KEYWORDS = new Set([
  'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'and', 'or', 'unless', 'atan2',
  'sum', 'avg', 'count', 'min', 'max', 'group', 'stddev', 'stdvar', 'topk', 'bottomk', 'quantile', 'count_values',
]);

/** A token as Prometheus' parser names it in "unexpected …" messages. */
export function describeToken(token: string): string {
  if (PUNCTUATION[token[0]]) return `${PUNCTUATION[token[0]]} '${token[0]}'`;
  if (KEYWORDS.has(token.toLowerCase())) return `<${token.toLowerCase()}>`;
  if (/^[-+*/%^=!<>~]+$/.test(token)) return `<op:${token}>`;
  if (/^\d/.test(token)) return `number "${token}"`;
  if (/^["'`]/.test(token)) return `string ${token}`;
  if (/^[A-Za-z_:]/.test(token)) return `identifier "${token}"`;
  return `character "${token}"`;
}
