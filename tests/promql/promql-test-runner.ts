// A runner for PromQL cases in a small text format like Prometheus' promqltest:
//
//   load 5m                                   samples every 5m from time 0
//     http_requests{job="api"} 0+10x10        0, 10, 20 … 100 ("_" a gap, "stale" a stale marker, "1x3" = 1 1 1 1)
//   eval instant at 10m sum(http_requests)    then the expected lines: `{labels} value` (a scalar: just `value`)
//     {} 30
//   eval_ordered instant at …                 the same, and the order must match
//   eval range from 0 to 10m step 5m <query>  expected `{labels} v1 v2 …` per step ("_" where no value)
//   eval_fail instant at 0 <query>            must fail; an indented `error: text` line checks the message
//   clear                                     forget the loaded series

import { parseDuration } from '../../packages/promql/parser/duration';
import type { Expr } from '../../packages/promql/parser/ast';
import { parseExpr } from '../../packages/promql/parser/parse';
import { formatExpr } from '../../packages/promql/parser/print';
import type { Labels } from '../../packages/promql/storage/querier';
import type { MemorySeries } from '../../packages/promql/storage/memory-querier';

export interface EvalCase {
  line: number;
  kind: 'instant' | 'range';
  query: string;
  timeMs: number;
  endMs: number;
  stepMs: number;
  ordered: boolean;
  fail: boolean;
  error?: string;
  /** Expected series (instant: one value each; range: one per step, null for none), or a scalar. */
  expected: { labels: Labels; values: (number | null)[] }[];
  scalar?: number;
  data: MemorySeries[];
}

export function parseTestFile(text: string): EvalCase[] {
  const lines = text.split('\n');
  const cases: EvalCase[] = [];
  let data: MemorySeries[] = [];
  let i = 0;
  const indented = (l: string | undefined) => l !== undefined && /^\s+\S/.test(l) && !/^\s*#/.test(l);
  while (i < lines.length) {
    const raw = lines[i];
    const line = raw.trim();
    i++;
    if (line === '' || line.startsWith('#')) continue;
    if (line === 'clear') {
      data = [];
      continue;
    }
    let m = /^load\s+(\S+)$/.exec(line);
    if (m) {
      const interval = duration(m[1], i);
      data = [...data];
      while (indented(lines[i])) {
        data.push(parseSeriesLine(lines[i].trim(), interval, i + 1));
        i++;
      }
      continue;
    }
    m = /^(eval|eval_ordered|eval_fail)\s+instant\s+at\s+(\S+)\s+(.+)$/.exec(line);
    const r = /^(eval|eval_ordered|eval_fail)\s+range\s+from\s+(\S+)\s+to\s+(\S+)\s+step\s+(\S+)\s+(.+)$/.exec(line);
    if (!m && !r) throw new Error(`line ${i}: cannot read "${line}"`);
    const c: EvalCase = {
      line: i, kind: m ? 'instant' : 'range', query: m ? m[3] : r![5], timeMs: duration(m ? m[2] : r![2], i),
      endMs: m ? 0 : duration(r![3], i), stepMs: m ? 0 : duration(r![4], i), ordered: (m ?? r)![1] === 'eval_ordered',
      fail: (m ?? r)![1] === 'eval_fail', expected: [], data,
    };
    while (indented(lines[i])) {
      const e = lines[i].trim();
      i++;
      if (c.fail) {
        const em = /^error:\s*(.*)$/.exec(e);
        if (em) c.error = em[1];
        continue;
      }
      if (/^[-+]?(\d|\.\d|Inf|NaN)/i.test(e) && c.kind === 'instant' && !e.includes('{')) {
        c.scalar = parseValue(e);
        continue;
      }
      const { labels, rest } = splitLabels(e, i);
      const values = rest.split(/\s+/).filter(Boolean).flatMap((t) => expand(t));
      c.expected.push({ labels, values: values.map((v) => (v === 'gap' || v === 'stale' ? null : v)) });
    }
    cases.push(c);
  }
  return cases;
}

function duration(text: string, line: number): number {
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const ms = parseDuration(text);
  if (ms === undefined) throw new Error(`line ${line}: bad duration ${text}`);
  return ms;
}

function parseSeriesLine(text: string, interval: number, line: number): MemorySeries {
  const { labels, rest } = splitLabels(text, line);
  const values = rest.split(/\s+/).filter(Boolean).flatMap((t) => expand(t));
  const samples: MemorySeries['samples'] = [];
  values.forEach((v, k) => {
    if (v === 'gap') return;
    if (v === 'stale') samples.push({ t: k * interval, v: NaN, stale: true });
    else samples.push({ t: k * interval, v });
  });
  return { labels, samples };
}

function splitLabels(text: string, line: number): { labels: Labels; rest: string } {
  let end = 0;
  const nameMatch = /^[A-Za-z_:][A-Za-z0-9_:]*/.exec(text);
  if (nameMatch) end = nameMatch[0].length;
  if (text[end] === '{') {
    let inString = false;
    for (let j = end; j < text.length; j++) {
      const ch = text[j];
      if (inString) {
        if (ch === '\\') j++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '}') {
        end = j + 1;
        break;
      }
    }
  }
  const selector = text.slice(0, end);
  const rest = text.slice(end);
  const labels: Labels = {};
  if (selector === '{}' || selector === '') return { labels, rest };
  try {
    const expr = parseExpr(selector);
    if (expr.kind !== 'VectorSelector') throw new Error('not a selector');
    // As Prometheus' labels: a label with an empty value is no label at all.
    for (const mt of expr.matchers) if (mt.value !== '') labels[mt.name] = mt.value;
  } catch (error) {
    throw new Error(`line ${line}: bad series "${selector}": ${(error as Error).message}`);
  }
  return { labels, rest };
}

function parseValue(t: string): number {
  if (/^[+]?inf$/i.test(t)) return Infinity;
  if (/^-inf$/i.test(t)) return -Infinity;
  if (/^nan$/i.test(t)) return NaN;
  const v = Number(t);
  if (Number.isNaN(v)) throw new Error(`bad value ${t}`);
  return v;
}

/** `0+10x3` → 0 10 20 30; `5x2` → 5 5 5; `_x2` → gap gap; `1-1x2` → 1 0 -1. */
function expand(token: string): (number | 'gap' | 'stale')[] {
  if (token === '_') return ['gap'];
  if (token === 'stale') return ['stale'];
  let m = /^_x(\d+)$/.exec(token);
  if (m) return new Array(Number(m[1])).fill('gap');
  m = /^([-+]?[\d.]+(?:e[-+]?\d+)?|[-+]?Inf|NaN)([-+][\d.]+(?:e[-+]?\d+)?)x(\d+)$/i.exec(token);
  if (m) {
    const start = parseValue(m[1]);
    const step = Number(m[2]);
    return Array.from({ length: Number(m[3]) + 1 }, (_, k) => start + step * k);
  }
  m = /^([-+]?[\d.]+(?:e[-+]?\d+)?|[-+]?Inf|NaN)x(\d+)$/i.exec(token);
  if (m) return new Array(Number(m[2]) + 1).fill(parseValue(m[1]));
  return [parseValue(token)];
}

/** Equal as the comparison with Prometheus counts: both NaN, same infinity, or within `epsilon` relative. */
export function almostEqual(a: number, b: number, epsilon = 1e-9): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= epsilon * Math.max(Math.abs(a), Math.abs(b)) || Math.abs(a - b) < 1e-12;
}

// Functions whose answer depends on the evaluation time even when every selector has a fixed `@`: an instant case
// using them is not re-run with `@` (as Prometheus' test driver).
const TIME_DEPENDENT = new Set([
  'days_in_month', 'day_of_month', 'day_of_week', 'day_of_year', 'hour', 'minute', 'month', 'year', 'predict_linear',
  'time', 'timestamp',
]);

/**
 * The `@` re-runs of an instant case: the query with `@ <case time>` on every selector and subquery that has none
 * (selectors inside a subquery keep theirs: the subquery's `@` already fixes them), evaluated at other times, where
 * it must answer exactly what the case expects. None when the query uses a time-dependent function or does not parse.
 */
export function atVariants(query: string, timeMs: number): { query: string; timeMs: number }[] {
  let expr: Expr;
  try {
    expr = parseExpr(query);
  } catch {
    return [];
  }
  let timeDependent = false;
  const visit = (e: Expr, inSubquery: boolean): void => {
    switch (e.kind) {
      case 'VectorSelector':
        if (!inSubquery && !e.at) e.at = { time: timeMs };
        return;
      case 'MatrixSelector':
        return visit(e.selector, inSubquery);
      case 'SubqueryExpr':
        if (!inSubquery && !e.at) e.at = { time: timeMs };
        return visit(e.expr, true);
      case 'Call':
        if (TIME_DEPENDENT.has(e.func)) timeDependent = true;
        return e.args.forEach((a) => visit(a, inSubquery));
      case 'AggregateExpr':
        if (e.param) visit(e.param, inSubquery);
        return visit(e.expr, inSubquery);
      case 'BinaryExpr':
        visit(e.lhs, inSubquery);
        return visit(e.rhs, inSubquery);
      case 'ParenExpr':
      case 'UnaryExpr':
        return visit(e.expr, inSubquery);
      default:
    }
  };
  visit(expr, false);
  if (timeDependent) return [];
  const text = formatExpr(expr);
  const times = timeMs === 0 ? [-1000, 0, 1000] : [-10 * timeMs, 0, Math.trunc(timeMs / 5), timeMs, 10 * timeMs];
  return times.map((t) => ({ query: text, timeMs: t }));
}
