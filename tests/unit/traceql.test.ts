import { describe, expect, it } from 'vitest';
import { parseAttributeRef, parseTraceQL, TraceQLParseError } from '../../packages/traceql/parse';
import { filterSql, spansetSql } from '../../packages/traceql/clickhouse';

// TraceQL's basic form (packages/traceql): the syntax tree, Tempo's parse errors, and the ClickHouse conditions.

const table = { table: 'db.spans', bound: "date = '2026-01-01'" };

describe('parseTraceQL', () => {
  it('reads scopes, intrinsics, literals and precedence', () => {
    expect(parseTraceQL('{ span.http.method = "GET" && resource.service.name =~ "a.*" || .x != nil }')).toEqual({
      kind: 'filter',
      expr: {
        kind: 'or',
        left: {
          kind: 'and',
          left: { kind: 'compare', attribute: { scope: 'span', name: 'http.method' }, op: '=', value: { type: 'string', value: 'GET' } },
          right: { kind: 'compare', attribute: { scope: 'resource', name: 'service.name' }, op: '=~', value: { type: 'string', value: 'a.*' } },
        },
        right: { kind: 'compare', attribute: { scope: 'unscoped', name: 'x' }, op: '!=', value: { type: 'nil' } },
      },
    });
    const compare = (q: string) => (parseTraceQL(q) as { expr: unknown }).expr;
    expect(compare('{ duration > 1h30m }')).toMatchObject({ attribute: { scope: 'intrinsic', name: 'duration' }, value: { type: 'duration', nanos: 5_400_000_000_000n } });
    expect(compare('{ duration >= 1.5ms }')).toMatchObject({ value: { nanos: 1_500_000n } });
    expect(compare('{ status = error }')).toMatchObject({ attribute: { name: 'status' }, value: { type: 'status', value: 'error' } });
    expect(compare('{ span:kind = server }')).toMatchObject({ attribute: { name: 'kind' }, value: { type: 'kind', value: 'server' } });
    expect(compare('{ span."a b" = -2.5 }')).toMatchObject({ attribute: { scope: 'span', name: 'a b' }, value: { type: 'float', value: -2.5 } });
    expect(compare('{ !(.a = `x\\y`) }')).toMatchObject({ kind: 'not', expr: { value: { type: 'string', value: 'x\\y' } } });
    expect(compare('{ span.cached }')).toMatchObject({ op: '=', value: { type: 'bool', value: true } });
    expect(parseTraceQL('{}')).toEqual({ kind: 'filter', expr: null });
    expect(parseTraceQL('')).toEqual({ kind: 'filter', expr: null });
    expect(parseTraceQL('({ .a = 1 } && { .b = 2 }) || { .c = 3 }')).toMatchObject({ kind: 'or', left: { kind: 'and' }, right: { kind: 'filter' } });
  });

  it('answers parse errors with Tempo’s line and column', () => {
    const error = (q: string) => {
      try {
        parseTraceQL(q);
      } catch (e) {
        expect(e).toBeInstanceOf(TraceQLParseError);
        return (e as Error).message;
      }
      throw new Error(`parsed: ${q}`);
    };
    expect(error('{ .a = }')).toBe('parse error at line 1, col 8: syntax error: unexpected }');
    expect(error('{ .a = 1')).toBe('parse error at line 1, col 9: syntax error: unexpected $end');
    expect(error('{\n  foo = 1 }')).toBe('parse error at line 2, col 3: syntax error: unexpected foo');
    expect(error('{ .a = "x }')).toMatch(/literal not terminated/);
    expect(error('{ status = ok } | count() > 2')).toMatch(/col 17: syntax error: unexpected \| \(pipelines/);
    expect(error('{ name > 5 }')).toMatch(/invalid binary operation: name > int/);
    expect(error('{ kind > server }')).toMatch(/kind values can only be compared with = or !=/);
    expect(error('{ .a =~ 1 }')).toMatch(/a regular expression must be a string/);
  });

  it('reads tags of the v2 tag values call', () => {
    expect(parseAttributeRef('span.http.method')).toEqual({ scope: 'span', name: 'http.method' });
    expect(parseAttributeRef('.service.name')).toEqual({ scope: 'unscoped', name: 'service.name' });
    expect(parseAttributeRef('rootServiceName')).toEqual({ scope: 'intrinsic', name: 'rootServiceName' });
    expect(parseAttributeRef('nope')).toBeUndefined();
    expect(parseAttributeRef('span.a = 1')).toBeUndefined();
  });
});

describe('ClickHouse conditions', () => {
  it('compares attributes in their arrays, the service in its column, numbers only with numbers', () => {
    const sql = (q: string) => filterSql((parseTraceQL(q) as { kind: 'filter'; expr: Parameters<typeof filterSql>[0] }).expr, table);
    expect(sql('{ span.a = "it\'s" }')).toBe("arrayExists((k, v) -> k = 'a' AND v = 'it\\'s', attribute_keys, attribute_values)");
    expect(sql('{ resource.service.name = "x" }')).toBe("(service_name != '' AND service_name = 'x')");
    expect(sql('{ .a >= 5 }')).toContain("toFloat64OrZero(v) >= 5");
    expect(sql('{ .a =~ "(?i)x" }')).toContain("match(v, '(?-s:^(?:(?i:x))$)')");
    expect(sql('{ kind = unspecified }')).toBe("kind IN ('', 'UNSPECIFIED')");
    expect(sql('{ status != error }')).toBe('status_code != 2');
    expect(sql('{ traceDuration > 1s }')).toBe("trace_id IN (SELECT trace_id FROM db.spans WHERE date = '2026-01-01' GROUP BY trace_id HAVING max(timestamp_ns + duration_ns) - min(timestamp_ns) > 1000000000)");
    expect(spansetSql(parseTraceQL('{ .a = 1 } && { .b = 2 }'), table).having).toMatch(/^\(countIf\(.+\) > 0 AND countIf\(.+\) > 0\)$/);
  });
});

describe('names of Object.prototype members', () => {
  it('are attribute names with a scope, and no intrinsic as bare words', () => {
    expect(parseAttributeRef('span.constructor')).toEqual({ scope: 'span', name: 'constructor' });
    expect(parseAttributeRef('.__proto__')).toEqual({ scope: 'unscoped', name: '__proto__' });
    expect(parseAttributeRef('constructor')).toBeUndefined();
    expect(parseAttributeRef('toString')).toBeUndefined();
    for (const word of ['constructor', 'toString', '__proto__']) {
      expect(() => parseTraceQL(`{ ${word} = "x" }`), word).toThrow(TraceQLParseError);
      expect(() => parseTraceQL(`{ ${word} = "x" }`), word).toThrow(`parse error at line 1, col 3: syntax error: unexpected ${word}`);
    }
  });
});
