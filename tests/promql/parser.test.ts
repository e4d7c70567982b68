import { describe, expect, it } from 'vitest';
import { PromQLError } from '../../packages/promql/engine/errors';
import type { Expr } from '../../packages/promql/parser/ast';
import { parseExpr } from '../../packages/promql/parser/parse';
import { formatExpr } from '../../packages/promql/parser/print';

function fails(query: string): PromQLError {
  try {
    parseExpr(query);
  } catch (error) {
    expect(error).toBeInstanceOf(PromQLError);
    return error as PromQLError;
  }
  throw new Error(`"${query}" parsed`);
}

describe('PromQL parser: valid queries', () => {
  const valid = [
    'up', 'up{job="api"}', '{__name__="up"}', 'up{job=~"a|b", instance!="x", env!~"dev.*"}', "up{job='single'}",
    'up{job=`raw\\d`}', 'rate(http_requests_total[5m])', 'sum by (job) (rate(x[1h30m]))', 'sum(x) without (a, b)',
    'topk(3, x)', 'count_values("v", x)', 'quantile(0.9, x)', 'x + on(a) group_left(b) y', 'x / ignoring(a) y',
    'x > bool 1', 'x and y or z unless w', 'x offset 5m', 'x offset -5m', 'x @ 1609746000', 'x @ start()',
    'x @ end() offset 1m', 'x[5m:]', 'x[5m:30s]', 'rate(x[5m])[30m:1m]', 'max_over_time(deriv(rate(x[1m])[5m:1m])[10m:])',
    '-x', '+1', '1 + 2 * 3 ^ 4', 'NaN', 'Inf', '-Inf', '0x1F', '1e-3', '.5', '"a string"', 'time()', 'vector(1)',
    'label_join(x, "d", ",", "a", "b", "c")', 'year()', 'round(x, 5)', 'holt_winters(x[5m], 0.5, 0.5)',
    'histogram_quantile(0.9, sum by (le) (rate(x_bucket[5m])))', 'abs(x) # a comment', 'x\n+\ny',
    'sum without () (x)', 'up{job="a",}', 'metric:with:colons',
  ];
  for (const q of valid) it(q, () => expect(() => parseExpr(q)).not.toThrow());

  it('reads numbers as Prometheus: hex, octal (Go ParseInt base 0), exponents, Inf and NaN', () => {
    const num = (q: string) => (parseExpr(q) as Expr & { kind: 'NumberLiteral' }).value;
    expect(num('0x1F')).toBe(31);
    expect(num('010')).toBe(8);
    expect(num('1e3')).toBe(1000);
    expect(num('Inf')).toBe(Infinity);
    expect(num('-Inf')).toBe(-Infinity);
    expect(num('NaN')).toBeNaN();
    expect(num('-1.5')).toBe(-1.5);
  });

  it('reads string escapes as Go does', () => {
    const str = (q: string) => (parseExpr(q) as Expr & { kind: 'StringLiteral' }).value;
    expect(str('"a\\nb\\tc\\\\\\""')).toBe('a\nb\tc\\"');
    expect(str("'it\\'s'")).toBe("it's");
    expect(str('"\\x41\\u00e9\\101"')).toBe('AéA');
    expect(str('`\\n`')).toBe('\\n');
  });

  it('folds offset and @ into the selector, durations in ms', () => {
    const e = parseExpr('rate(x{a="b"}[1h30m] offset -2m @ 100.5)');
    expect(e.kind).toBe('Call');
    const arg = (e as Expr & { kind: 'Call' }).args[0];
    expect(arg.kind).toBe('MatrixSelector');
    if (arg.kind !== 'MatrixSelector') return;
    expect(arg.rangeMs).toBe(5_400_000);
    expect(arg.selector.offsetMs).toBe(-120_000);
    expect(arg.selector.at).toEqual({ time: 100_500 });
    expect(arg.selector.matchers).toEqual([
      { name: '__name__', op: '=', value: 'x' },
      { name: 'a', op: '=', value: 'b' },
    ]);
  });

  it('binds offset, @, ranges and subqueries tighter than operators, as Prometheus', () => {
    expect(parseExpr('a + b offset 1m')).toMatchObject({ kind: 'BinaryExpr', lhs: { offsetMs: 0 }, rhs: { offsetMs: 60_000 } });
    expect(parseExpr('a * b @ 10')).toMatchObject({ kind: 'BinaryExpr', lhs: { kind: 'VectorSelector' }, rhs: { at: { time: 10_000 } } });
    expect(() => parseExpr('1 - x[5m:1m]')).toThrow('binary expression must contain only scalar and instant vector types');
    expect(parseExpr('1 - max_over_time(x[5m:1m])')).toMatchObject({ kind: 'BinaryExpr', rhs: { kind: 'Call' } });
    expect(parseExpr('-x offset 5m')).toMatchObject({ kind: 'UnaryExpr', expr: { kind: 'VectorSelector', offsetMs: 300_000 } });
    expect(() => parseExpr('(a + b) offset 1m')).toThrow('offset modifier must be preceded by an instant vector selector');
  });

  it('reads subqueries with and without a step', () => {
    const e = parseExpr('x[1h:5m] offset 1m');
    expect(e).toMatchObject({ kind: 'SubqueryExpr', rangeMs: 3_600_000, stepMs: 300_000, offsetMs: 60_000 });
    expect(parseExpr('x[1h:]')).toMatchObject({ kind: 'SubqueryExpr', stepMs: 0 });
  });

  it('binds a sign less tightly than ^ and ^ to the right', () => {
    expect(formatExpr(parseExpr('-2 ^ 2'))).toBe('-(2 ^ 2)'.replace(/[()]/g, ''));
    const e = parseExpr('2 ^ 3 ^ 2');
    expect(e).toMatchObject({ kind: 'BinaryExpr', op: '^', lhs: { value: 2 }, rhs: { kind: 'BinaryExpr' } });
  });

  it('sets the matching of vector operations', () => {
    expect(parseExpr('a + on(x) group_left(y) b')).toMatchObject({
      matching: { card: 'many-to-one', on: true, labels: ['x'], include: ['y'] },
    });
    expect(parseExpr('a - ignoring(x) group_right b')).toMatchObject({
      matching: { card: 'one-to-many', on: false, labels: ['x'], include: [] },
    });
    expect(parseExpr('a and b')).toMatchObject({ matching: { card: 'many-to-many' } });
    expect(parseExpr('a + 1')).toMatchObject({ matching: undefined });
  });
});

// Messages and positions compared with Prometheus 2.42's answers to the same queries.
describe('PromQL parser: errors as Prometheus words them, with a position', () => {
  const cases: [string, string][] = [
    ['rate(x)', 'expected type range vector in call to function "rate", got instant vector'],
    ['sum(x[5m])', 'expected type instant vector in aggregation expression, got range vector'],
    ['abs(x, y)', 'expected 1 argument(s) in call to "abs", got 2'],
    ['round()', 'expected at least 1 argument(s) in call to "round", got 0'],
    ['round(x, 1, 2)', 'expected at most 2 argument(s) in call to "round", got 3'],
    ['label_join(x, "a")', 'expected at least 3 argument(s) in call to "label_join", got 2'],
    ['foo_bar(x)', 'unknown function with name "foo_bar"'],
    ['mad_over_time(x[5m])', 'unknown function with name "mad_over_time"'],
    ['{}', 'vector selector must contain at least one non-empty matcher'],
    ['{a=""}', 'vector selector must contain at least one non-empty matcher'],
    ['{a=~".*"}', 'vector selector must contain at least one non-empty matcher'],
    ['x{__name__="y"}', 'metric name must not be set twice: "x" or "y"'],
    ['1 > 2', 'comparisons between scalars must use BOOL modifier'],
    ['x + bool y', 'bool modifier can only be used on comparison operators'],
    ['1 and x', 'set operator "and" not allowed in binary scalar expression'],
    ['x and on(a) group_left y', 'no grouping allowed for "and" operation'],
    ['1 + on(a) x', 'vector matching only allowed between instant vectors'],
    ['x[5m] + 1', 'binary expression must contain only scalar and instant vector types'],
    ['-x[5m]', 'unary expression only allowed on expressions of type scalar or instant vector, got "range vector"'],
    ['a + b[5m]', 'binary expression must contain only scalar and instant vector types'],
    ['-(x[5m])', 'unary expression only allowed on expressions of type scalar or instant vector, got "range vector"'],
    ['x[5m][1h:]', 'subquery is only allowed on instant vector, got matrix instead'],
    ['sum(x)[5m]', 'ranges only allowed for vector selectors'],
    ['x offset 1m offset 2m', 'offset may not be set multiple times'],
    ['x @ 1 @ 2', '@ <timestamp> may not be set multiple times'],
    ['sum(x) offset 5m', 'offset modifier must be preceded by an instant vector selector or range vector selector or a subquery'],
    ['x + on(a) group_left(a) y', 'label "a" must not occur in ON and GROUP clause at once'],
    ['topk(x)', 'wrong number of arguments for aggregate expression provided, expected 2, got 1'],
    ['topk("a", x)', 'expected type scalar in aggregation parameter, got string'],
    ['count_values(1, x)', 'expected type string in aggregation parameter, got scalar'],
    ['x{a=~"("}', 'error parsing regexp: missing closing ): `^(?:()$`'],
    ['sum(rate(x[5m])', 'unclosed left parenthesis'],
    ['x{a="b"', 'unexpected end of input inside braces'],
    ['', 'no expression found in input'],
    ['x + 5m', 'unexpected duration "5m"'],
    ['x[5]', 'missing unit character in duration'],
    ['x[-5m]', 'missing unit character in duration'],
    [')', "unexpected right parenthesis ')'"],
    ['1 +* 2', 'unexpected <op:*>'],
    ['rate(x[5m]) by (a)', 'unexpected <by>'],
    ['sum by (a b) (x)', 'unexpected identifier "b" in grouping opts, expected "," or ")"'],
    ['x offset', 'unexpected end of input in offset, expected duration'],
    ['x[5m:1m:1m]', "unexpected colon ':'"],
    ['x[0s]', 'duration must be greater than 0'],
  ];
  for (const [q, message] of cases) {
    it(`${JSON.stringify(q)} → ${message}`, () => {
      const e = fails(q);
      expect(e.type).toBe('bad_data');
      expect(e.status).toBe(400);
      expect(e.message).toContain(message);
      expect(e.message).toMatch(/^\d+:\d+: parse error: /);
      expect(e.positionRange).toBeDefined();
    });
  }

  it('points at the offending part of the query (line:column and character range)', () => {
    const e = fails('sum(x) +\n  rate(y)');
    // The argument of the wrong type: `y`, line 2, column 8.
    expect(e.message.startsWith('2:8: parse error:')).toBe(true);
    expect(e.positionRange).toEqual({ start: 16, end: 17 });
  });

  it('places errors where Prometheus 2.42 does', () => {
    const at = (q: string) => fails(q).message.split(': parse error')[0];
    expect(at('sum(x[5m])')).toBe('1:5');
    expect(at('1 > 2')).toBe('1:3');
    expect(at('x + bool y')).toBe('1:3');
    expect(at('sum(x)[5m]')).toBe('1:7');
    expect(at('x{__name__="y"}')).toBe('1:1');
    expect(at('count_values(1, x)')).toBe('1:14');
    expect(at('x{a=~"("}')).toBe('1:3');
  });

  it('keeps positions right after a holt_winters call (read under its later name)', () => {
    const e = fails('holt_winters(x[5m], 0.5, 0.5) + rate(y)');
    expect(e.positionRange!.start).toBe(37);
  });
});

describe('formatExpr', () => {
  const cases: [string, string][] = [
    ['sum by(job)(rate(x{a="b"}[5m]))', 'sum by (job) (rate(x{a="b"}[5m]))'],
    ['x offset 90s', 'x offset 1m30s'],
    ['x @ 100 offset -1h', 'x @ 100.000 offset -1h'],
    ['a+on(b)group_left(c)d', 'a + on (b) group_left (c) d'],
    ['x > bool 1', 'x > bool 1'],
    ['rate(x[5m])[30m:1m]', 'rate(x[5m])[30m:1m]'],
    ['1e6', '1e+06'],
    ['topk(3, x)', 'topk(3, x)'],
    ['"a\\"b"', '"a\\"b"'],
  ];
  for (const [q, printed] of cases) {
    it(`${q} → ${printed}`, () => {
      expect(formatExpr(parseExpr(q))).toBe(printed);
      // What is printed parses back to the same.
      expect(formatExpr(parseExpr(formatExpr(parseExpr(q))))).toBe(printed);
    });
  }
});

describe('names of Object.prototype members', () => {
  // The grammar's keyword lookup would find `constructor` on Object.prototype (packages/lezer-keywords).
  it('are metric and label names like any other', () => {
    for (const query of ['constructor', '__proto__{constructor="x"}', 'sum without (constructor, __proto__) (rate(constructor[5m]))', 'toString offset 1m']) {
      expect(formatExpr(parseExpr(query)), query).toBe(query);
    }
  });
});
