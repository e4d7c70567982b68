import { describe, expect, it } from 'vitest';
import { parseAttributeRef, parseQuery, TraceQLParseError } from '../../packages/traceql/parse';
import { TraceQLValidationError } from '../../packages/traceql/validate';
import { filterSql, traceConditionSql } from '../../packages/traceql/clickhouse';
import { toClickHouseRegex } from '../../packages/re2-pattern/re2-pattern';
import type { FieldExpr, Pipeline } from '../../packages/traceql/ast';

// The TraceQL parser and Tempo's validation rules (packages/traceql/parse.ts, validate.ts), and the SQL the search
// pushes down (clickhouse.ts). Tempo's own example list is run against a platform by scripts/tempo-examples.ts.

const table = { table: 'db.spans', bound: "date = '2026-01-01'" };

const pipeline = (q: string): Pipeline => {
  const parsed = parseQuery(q);
  if (parsed.kind !== 'search') throw new Error(`not a search: ${q}`);
  return parsed.pipeline;
};
const filterOf = (q: string): FieldExpr | null => {
  const stage = pipeline(q).stages[0];
  if (stage.kind !== 'spanset' || stage.expr.kind !== 'filter') throw new Error(`not one filter: ${q}`);
  return stage.expr.expr;
};
const error = (q: string): string => {
  try {
    parseQuery(q);
  } catch (e) {
    expect(e instanceof TraceQLParseError || e instanceof TraceQLValidationError, String(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error(`accepted: ${q}`);
};

describe('parse', () => {
  it('reads scopes, intrinsics, literals and Tempo’s precedence inside a filter', () => {
    expect(filterOf('{ span.http.method = "GET" && resource.service.name =~ "a.*" || .x != nil }')).toEqual({
      kind: 'binary',
      op: '||',
      left: {
        kind: 'binary',
        op: '&&',
        left: { kind: 'binary', op: '=', left: { kind: 'attribute', ref: { scope: 'span', name: 'http.method' } }, right: { kind: 'static', value: { type: 'string', value: 'GET' } } },
        right: { kind: 'binary', op: '=~', left: { kind: 'attribute', ref: { scope: 'resource', name: 'service.name' } }, right: { kind: 'static', value: { type: 'string', value: 'a.*' } } },
      },
      right: { kind: 'unary', op: 'exists', expr: { kind: 'attribute', ref: { scope: 'unscoped', name: 'x' } } },
    });
    expect(filterOf('{ duration > 1h30m }')).toMatchObject({ right: { value: { type: 'duration', nanos: 5_400_000_000_000n } } });
    expect(filterOf('{ duration >= 1.5ms }')).toMatchObject({ right: { value: { nanos: 1_500_000n } } });
    expect(filterOf('{ span:kind = server }')).toMatchObject({ left: { ref: { scope: 'intrinsic', name: 'kind' } }, right: { value: { type: 'kind', value: 'server' } } });
    expect(filterOf('{ span."a b" = -2.5 }')).toMatchObject({ left: { ref: { scope: 'span', name: 'a b' } }, right: { value: { type: 'float', value: -2.5 } } });
    expect(filterOf('{ event.x = 1 && link:traceID = "ab" && instrumentation:version = "1" }')).toMatchObject({
      left: { left: { left: { ref: { scope: 'event', name: 'x' } } }, right: { left: { ref: { name: 'linkTraceId' } } } },
      right: { left: { ref: { name: 'instrumentationVersion' } } },
    });
    // `!` binds tighter than a comparison, as in Tempo: `!.a = 1` compares `!.a`.
    expect(filterOf('{ !.a = true }')).toMatchObject({ op: '=', left: { kind: 'unary', op: '!' } });
    // && and || share one level, left to right.
    expect(filterOf('{ .a || .b && .c }')).toMatchObject({ op: '&&', left: { op: '||' } });
    expect(filterOf('{ .a + 2 * 3 ^ 2 = 1 }')).toMatchObject({ left: { op: '+', right: { op: '*', right: { op: '^' } } } });
    expect(filterOf('{ nil = .a }')).toMatchObject({ kind: 'unary', op: 'notExists' });
    expect(filterOf('{}')).toBeNull();
    expect(filterOf('')).toBeNull();
  });

  it('reads spanset operators, structural operators and pipelines', () => {
    expect(pipeline('{ .a } && { .b } >> { .c }').stages[0]).toMatchObject({ expr: { op: '&&', right: { op: '>>' } } });
    for (const op of ['>', '>>', '<', '<<', '~', '!>', '!>>', '!<', '!<<', '!~', '&>', '&>>', '&<', '&<<', '&~']) {
      expect(pipeline(`{ .a } ${op} { .b }`).stages[0], op).toMatchObject({ expr: { kind: 'op', op } });
    }
    expect(pipeline('{ .a } | count() > 1 | by(resource.service.name) | coalesce() | select(.b, name)').stages.map((s) => s.kind)).toEqual(['spanset', 'scalarFilter', 'by', 'coalesce', 'select']);
    expect(pipeline('max(duration) > 3s | { status = error }').stages.map((s) => s.kind)).toEqual(['scalarFilter', 'spanset']);
    expect(pipeline('({ .a } | count() > 1) >> { .b }').stages[0]).toMatchObject({ expr: { op: '>>', left: { kind: 'pipeline' } } });
  });

  it('reads metrics queries, second stages, arithmetic and hints', () => {
    expect(parseQuery('{ } | rate() by (resource.service.name)')).toMatchObject({ kind: 'metrics', expr: { kind: 'metrics', fn: { fn: 'rate' }, by: [{ ref: { name: 'service.name' } }] } });
    expect(parseQuery('{} | quantile_over_time(duration, .9) ')).toBeTruthy();
    expect(parseQuery('{} | quantile_over_time(duration, 0.5, 0.9)')).toMatchObject({ expr: { fn: { fn: 'quantile_over_time', quantiles: [0.5, 0.9] } } });
    expect(parseQuery('{} | rate() > 2 | topk(3) with(sample=0.1)')).toMatchObject({ expr: { second: [{ kind: 'filter', op: '>', value: 2 }, { kind: 'topk', n: 3 }] }, hints: { sample: { type: 'float', value: 0.1 } } });
    expect(parseQuery('({} | rate()) * 100 > 5')).toMatchObject({ expr: { kind: 'math', op: '*', right: { kind: 'number', value: 100 }, second: [{ value: 5 }] } });
    expect(parseQuery('{} | compare({ status = error }, 5)')).toMatchObject({ expr: { fn: { fn: 'compare', topN: 5 } } });
    // Unix nanoseconds are kept exactly (beyond a double's integers).
    expect(parseQuery('{} | compare({ status = error }, 5, 1732862400000000001, 1732862400000000003)')).toMatchObject({ expr: { fn: { fn: 'compare', topN: 5, start: 1732862400000000001n, end: 1732862400000000003n } } });
  });

  it('refuses with Tempo’s positions and texts', () => {
    expect(error('{ .a = }')).toBe('parse error at line 1, col 8: syntax error: unexpected }');
    expect(error('{ .a = 1')).toBe('parse error at line 1, col 9: syntax error: unexpected $end');
    expect(error('{\n  foo = 1 }')).toBe('parse error at line 2, col 3: syntax error: unexpected foo');
    expect(error('{ .a = "x }')).toMatch(/literal not terminated/);
    expect(error('{ true } | count()')).toMatch(/unexpected \$end/);
    expect(error('coalesce() | { true }')).toMatch(/^parse error at line 1, col 1/);
    expect(error('{ trace:status = error }')).toMatch(/unexpected trace:status/);
    expect(error('{} | topk(10)')).toMatch(/parse error/);
    expect(error('({} | rate()) * 100000000000000000000000000000')).toMatch(/value out of range/);
    expect(error('{ name > 5 }')).toBe('binary operations must operate on the same type: (name > 5)');
    expect(error('{ status > ok }')).toBe('illegal operation for the given types: (status > ok)');
    expect(error('{ !name = "foo" }')).toBe('illegal operation for the given type: !name');
    expect(error('{ span.foo =~ "[" }')).toBe('invalid regex: "["');
    expect(error('{ .a =~ 1 }')).toBe('illegal operation for the given types: (.a =~ 1)');
    expect(error('{ resource.service.name = nil }')).toBe('resource.service.name=nil is not valid because resource.service.name cannot be nil');
    expect(error('{ span:status = nil }')).toBe('status=nil is not valid because intrinsics cannot be nil');
    expect(error('{ 1 + 1 }')).toBe('span filter field expressions must resolve to a boolean: { (1 + 1) }');
    expect(error('sum(3) = 2')).toBe('aggregate field expressions must reference the span: sum(3)');
    expect(error('{ true } | by(1)')).toBe('grouping field expressions must reference the span: by(1)');
    expect(error('{ parent.a = 1 }')).toBe('parent not yet supported');
    expect(error('{} | rate() | topk(0)')).toMatch(/topk/);
    expect(error('{} | compare({status=error}) > 10')).toBe('`compare()` cannot be used with second stage functions');
    expect(error('{} | compare({status=error}, 0)')).toBe('compare() top number of values must be integer greater than 0');
    expect(error('{} | compare({status=error}, 3, 5, 5)')).toBe('compare() end timestamp must be greater than start timestamp');
    expect(error('{} | compare({status=error}, 3, 0, 5)')).toBe('compare() timestamps must be positive integer unix nanoseconds');
  });

  it('reads tags of the v2 tag values call', () => {
    expect(parseAttributeRef('span.http.method')).toEqual({ scope: 'span', name: 'http.method' });
    expect(parseAttributeRef('.service.name')).toEqual({ scope: 'unscoped', name: 'service.name' });
    expect(parseAttributeRef('event.exception.type')).toEqual({ scope: 'event', name: 'exception.type' });
    expect(parseAttributeRef('rootServiceName')).toEqual({ scope: 'intrinsic', name: 'rootServiceName' });
    expect(parseAttributeRef('event:name')).toEqual({ scope: 'intrinsic', name: 'eventName' });
    expect(parseAttributeRef('nope')).toBeUndefined();
    expect(parseAttributeRef('span.a = 1')).toBeUndefined();
  });

  it('takes names of Object.prototype members as names, never as intrinsics', () => {
    expect(parseAttributeRef('span.constructor')).toEqual({ scope: 'span', name: 'constructor' });
    expect(parseAttributeRef('.__proto__')).toEqual({ scope: 'unscoped', name: '__proto__' });
    for (const word of ['constructor', 'toString', '__proto__']) {
      expect(parseAttributeRef(word)).toBeUndefined();
      expect(error(`{ ${word} = "x" }`)).toBe(`parse error at line 1, col 3: syntax error: unexpected ${word}`);
    }
  });
});

describe('pushdown', () => {
  const sql = (q: string) => filterSql(filterOf(q), table);
  it('compares attributes in their arrays, the service in its column, numbers only with numbers', () => {
    // A stored array ('a' and its elements' letters) compares element by element, each element by its type; any
    // other value by its type.
    const elements = `extractAll(v, '"((?:[^"\\\\\\\\]|\\\\\\\\.)*)"')`;
    const types = `arrayMap(elem_pos -> if(substring(t, elem_pos + 1, 1) IN ('s', 'i', 'd', 'b'), substring(t, elem_pos + 1, 1), ''), arrayEnumerate(${elements}))`;
    expect(sql('{ span.a = "it\'s" }')).toBe(`arrayExists((k, v, t) -> k = 'a' AND if(substring(t, 1, 1) = 'a', arrayExists((e, elem_type) -> elem_type NOT IN ('i', 'd', 'b') AND e = 'it\\'s', ${elements}, ${types}), t NOT IN ('i', 'd', 'b') AND v = 'it\\'s'), attribute_keys, attribute_values, if(empty(attribute_types), arrayMap(x -> '', attribute_keys), attribute_types))`);
    expect(sql('{ span.a != "say \\"hi\\"" }')).toContain(`arrayAll((e, elem_type) -> elem_type NOT IN ('i', 'd', 'b') AND e != 'say \\\\"hi\\\\"', ${elements}, ${types})`);
    expect(sql('{ span.a != 5 }')).toContain(`arrayAll((e, elem_type) -> elem_type NOT IN ('s', 'b') AND (match(e, `);
    expect(sql('{ span.a > 5 }')).toContain(`arrayExists((e, elem_type) -> elem_type NOT IN ('s', 'b') AND (match(e, `);
    expect(sql('{ resource.service.name = "x" }')).toBe("(service_name != '' AND service_name = 'x')");
    expect(sql('{ .a >= 5 }')).toContain('toFloat64OrZero(v) >= 5');
    expect(sql('{ 5 <= .a }')).toContain('toFloat64OrZero(v) >= 5');
    expect(sql('{ .a =~ "(?i)x" }')).toContain("match(v, '(?-s:^(?:(?i:x))$)')");
    expect(sql('{ kind = unspecified }')).toBe("kind IN ('', 'UNSPECIFIED')");
    expect(sql('{ status != error }')).toBe('status_code != 2');
    expect(sql('{ span.a = nil }')).toBe("NOT has(attribute_keys, 'a')");
    expect(sql('{ traceDuration > 1s }')).toBe("trace_id IN (SELECT trace_id FROM db.spans WHERE date = '2026-01-01' GROUP BY trace_id HAVING max(timestamp_ns + duration_ns) - min(timestamp_ns) > 1000000000)");
    // TraceQL matches the whole value, as Tempo anchors its regexes.
    expect(toClickHouseRegex('a.b', true)).toBe('(?-s:^(?:a.b)$)');
  });

  it('leaves to the evaluator what it cannot translate exactly, without narrowing wrongly', () => {
    expect(sql('{ !(.a = 1) }')).toBeNull();
    expect(sql('{ .a + 1 = 2 }')).toBeNull();
    expect(sql('{ event.a = 1 }')).toBeNull();
    expect(sql('{ traceDuration < 1s }')).toBeNull();
    // One side of && is enough to narrow; || needs both.
    expect(sql('{ status = error && .a + 1 = 2 }')).toBe('status_code = 2');
    expect(sql('{ status = error || .a + 1 = 2 }')).toBeNull();
    const cond = (q: string) => traceConditionSql(pipeline(q), table);
    expect(cond('{ status = error } && { kind = server }')).toBe('(countIf(status_code = 2) > 0 AND countIf(kind IN (\'SERVER\')) > 0)');
    expect(cond('{ status = error } !> { kind = server }')).toBe("countIf(kind IN ('SERVER')) > 0");
    expect(cond('{ } | count() > 2 | { status = error }')).toBe('countIf(status_code = 2) > 0');
    expect(cond('{ status = error } || { .a + 1 = 2 }')).toBeNull();
  });
});
