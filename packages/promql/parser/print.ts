// A syntax tree printed back as PromQL (Prometheus' String() of its nodes, for /api/v1/format_query).

import type { AtModifier, Expr, VectorSelector } from './ast';
import { formatDuration } from './duration';
import { quoteString } from './lex';

export function formatExpr(expr: Expr): string {
  switch (expr.kind) {
    case 'NumberLiteral':
      return formatNumber(expr.value);
    case 'StringLiteral':
      return quoteString(expr.value);
    case 'ParenExpr':
      return `(${formatExpr(expr.expr)})`;
    case 'UnaryExpr':
      return `${expr.op}${formatExpr(expr.expr)}`;
    case 'VectorSelector':
      return selector(expr) + modifiers(expr.at, expr.offsetMs);
    case 'MatrixSelector':
      return `${selector(expr.selector)}[${formatDuration(expr.rangeMs)}]${modifiers(expr.selector.at, expr.selector.offsetMs)}`;
    case 'SubqueryExpr':
      return `${formatExpr(expr.expr)}[${formatDuration(expr.rangeMs)}:${expr.stepMs ? formatDuration(expr.stepMs) : ''}]${modifiers(expr.at, expr.offsetMs)}`;
    case 'Call':
      return `${expr.func}(${expr.args.map(formatExpr).join(', ')})`;
    case 'AggregateExpr': {
      let out: string = expr.op;
      if (expr.without) out += ` without (${expr.grouping.join(', ')}) `;
      else if (expr.hasModifier && expr.grouping.length > 0) out += ` by (${expr.grouping.join(', ')}) `;
      out += expr.param ? `(${formatExpr(expr.param)}, ${formatExpr(expr.expr)})` : `(${formatExpr(expr.expr)})`;
      return out;
    }
    case 'BinaryExpr': {
      let mod = expr.returnBool ? ' bool' : '';
      const m = expr.matching;
      if (m && (m.explicit || m.card === 'many-to-one' || m.card === 'one-to-many')) {
        if (m.on || m.labels.length > 0) mod += ` ${m.on ? 'on' : 'ignoring'} (${m.labels.join(', ')})`;
        if (m.card === 'many-to-one') mod += ` group_left (${m.include.join(', ')})`;
        if (m.card === 'one-to-many') mod += ` group_right (${m.include.join(', ')})`;
      }
      return `${formatExpr(expr.lhs)} ${expr.op}${mod} ${formatExpr(expr.rhs)}`;
    }
  }
}

function selector(vs: VectorSelector): string {
  const ms = vs.matchers.filter((m) => !(vs.name !== undefined && m.name === '__name__' && m.op === '=' && m.value === vs.name));
  const inner = ms.map((m) => `${m.name}${m.op}${quoteString(m.value)}`).join(', ');
  if (vs.name !== undefined && inner === '') return vs.name;
  return `${vs.name ?? ''}{${inner}}`;
}

function modifiers(at: AtModifier | undefined, offsetMs: number): string {
  let out = '';
  if (at) out += 'time' in at ? ` @ ${(at.time / 1000).toFixed(3)}` : ` @ ${at.startOrEnd}()`;
  if (offsetMs > 0) out += ` offset ${formatDuration(offsetMs)}`;
  else if (offsetMs < 0) out += ` offset -${formatDuration(-offsetMs)}`;
  return out;
}

/** A number as Go's %v prints a float64: shortest digits, in exponent form when the exponent is < -4 or >= 6. */
export function formatNumber(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [m, e] = v.toExponential().split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(v);
}
