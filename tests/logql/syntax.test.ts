import { describe, expect, it } from 'vitest';
import { LogQLParseError, parseLogQL } from '../../packages/logql/syntax/parse';
import { compileLogSelector } from '../../packages/logql/log/stream-pipeline';

// The parser: the syntax tree read from Grafana's lezer grammar, Loki's precedence, and Loki's error messages.

const err = (q: string) => {
  try {
    parseLogQL(q);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`no error for ${q}`);
};

describe('parseLogQL', () => {
  it('reads selectors, line filters with or and ip(), parsers with their parameters and flags', () => {
    const e = parseLogQL('{app="x", b=~"y"} |= "a" or "b" != ip("1.2.3.4") | logfmt --strict --keep-empty a="b" | json c, d="e.f[0]"');
    expect(e).toEqual({
      kind: 'log',
      matchers: [{ name: 'app', op: '=', value: 'x' }, { name: 'b', op: '=~', value: 'y' }],
      stages: [
        { kind: 'line_filter', op: '|=', values: ['a', 'b'], ip: false },
        { kind: 'line_filter', op: '!=', values: ['1.2.3.4'], ip: true },
        { kind: 'logfmt', strict: true, keepEmpty: true, extractions: [{ label: 'a', path: 'b' }] },
        { kind: 'json', extractions: [{ label: 'c', path: 'c' }, { label: 'd', path: 'e.f[0]' }] },
      ],
    });
  });

  it('reads ip() or ip() and ip() or-ed with strings into one filter (Loki 3)', () => {
    const stages = (q: string) => {
      const e = parseLogQL(`{a="b"} ${q}`);
      return e.kind === 'log' ? e.stages : [];
    };
    expect(stages('|= ip("10.0.0.0/8") or ip("192.168.0.1") |= "x"')).toEqual([
      { kind: 'line_filter', op: '|=', values: ['10.0.0.0/8', '192.168.0.1'], ip: true },
      { kind: 'line_filter', op: '|=', values: ['x'], ip: false },
    ]);
    expect(stages('!= ip("10.0.0.0/8") or ip("192.168.0.1")')).toEqual([{ kind: 'line_filter', op: '!=', values: ['10.0.0.0/8', '192.168.0.1'], ip: true }]);
    expect(stages('|= "x" or ip("10.0.0.0/8")')).toEqual([{ kind: 'line_filter', op: '|=', values: ['x', '10.0.0.0/8'], ip: true, ipValues: [false, true] }]);
    expect(stages('!= ip("10.0.0.0/8") or "x" or ip("1.2.3.4")')).toEqual([
      { kind: 'line_filter', op: '!=', values: ['10.0.0.0/8', 'x', '1.2.3.4'], ip: true, ipValues: [true, false, true] },
    ]);
    expect(err('{a="b"} |~ "x" or ip("10.0.0.0/8")')).toContain('ip() is only allowed with |= and !=');
  });

  it('reads typed label filters with and, or and comma', () => {
    const e = parseLogQL('{a="b"} | x >= 400, d > 1m30s and s < 1KiB or ip = ip("10.0.0.0/8")');
    expect(e.kind === 'log' && e.stages[0]).toEqual({
      kind: 'label_filter',
      filter: {
        type: 'or',
        left: {
          type: 'and',
          left: { type: 'and', left: { type: 'number', name: 'x', op: '>=', value: 400 }, right: { type: 'duration', name: 'd', op: '>', value: 90e9 } },
          right: { type: 'bytes', name: 's', op: '<', value: 1024 },
        },
        right: { type: 'ip', name: 'ip', op: '=', value: '10.0.0.0/8' },
      },
    });
  });

  it('rebuilds binary operators with Loki precedence (the grammar nests them to the right)', () => {
    const e = parseLogQL('2 * count_over_time({a="b"}[1m]) - 1 > 4 or vector(1)');
    expect(e).toMatchObject({ op: 'or', left: { op: '>', left: { op: '-', left: { op: '*', right: { kind: 'range_agg' } } } }, right: { kind: 'vector' } });
    expect(parseLogQL('2 ^ 3 ^ 2')).toMatchObject({ op: '^', left: { value: 2 }, right: { op: '^' } });
    expect(parseLogQL('(1 + 2) * 3')).toMatchObject({ op: '*', left: { op: '+' } });
  });

  it('reads unwrap with conversion and post filters, offsets, grouping', () => {
    const e = parseLogQL('quantile_over_time(0.9, {a="b"} | unwrap bytes(size) | __error__="" [5m] offset 1m) by (c)');
    expect(e).toMatchObject({
      kind: 'range_agg', op: 'quantile_over_time', param: 0.9, grouping: { without: false, labels: ['c'] },
      range: { rangeNs: 300_000_000_000n, offsetNs: 60_000_000_000n, unwrap: { label: 'size', conv: 'bytes', filters: [{ type: 'string' }] } },
    });
  });

  it("answers Loki's parse errors with line and column", () => {
    expect(err('{app="api"')).toBe('parse error at line 1, col 11: syntax error: unexpected $end');
    expect(err('{app="a"} | foo')).toMatch(/^parse error at line 1, col \d+: syntax error: unexpected/);
    expect(err('{a=~".*"}')).toMatch(/^parse error at line 1, col 1: queries require at least one regexp or equality matcher/);
    expect(err('{a="b"} | regexp "(x)"')).toMatch(/at least one named capture must be supplied/);
    expect(err('sum_over_time({a="b"}[1m])')).toMatch(/invalid aggregation sum_over_time without unwrap/);
    expect(err('count_over_time({a="b"}[1m]) by (x)')).toMatch(/grouping not allowed for count_over_time aggregation/);
    expect(err('topk(0, count_over_time({a="b"}[1m]))')).toMatch(/invalid parameter/);
    expect(err('1 > 2 and 3')).toMatch(/unexpected literal for right leg of logical\/set binary operation/);
    expect(() => parseLogQL('{a="b"} |~ "(?i"')).toThrow(LogQLParseError);
  });
});

describe('compileLogSelector (live tail and metadata calls)', () => {
  it('gives the matchers and runs the pipeline on one line', () => {
    const c = compileLogSelector('{app="x"} |= "err" | logfmt | status >= 500 | line_format "{{.status}}"');
    expect(c.matchers).toEqual([{ name: 'app', op: '=', value: 'x' }]);
    expect(c.process('level=err status=503', { app: 'x' }, 1n)).toEqual({ line: '503', labels: { app: 'x', level: 'err', status: '503' } });
    expect(c.process('level=err status=200', { app: 'x' }, 1n)).toBeNull();
    expect(c.process('level=info', { app: 'x' }, 1n)).toBeNull();
  });

  it('refuses a metric query', () => {
    expect(() => compileLogSelector('count_over_time({a="b"}[1m])')).toThrow(/only log queries/);
  });
});

describe('names of Object.prototype members', () => {
  // The grammar's keyword lookup would find `constructor` on Object.prototype (packages/lezer-keywords).
  it('are label names like any other in selectors, filters, grouping and keep', () => {
    expect(parseLogQL('{constructor="a", __proto__="b"}')).toEqual({ kind: 'log', matchers: [{ name: 'constructor', op: '=', value: 'a' }, { name: '__proto__', op: '=', value: 'b' }], stages: [] });
    expect(() => parseLogQL('sum by (constructor) (count_over_time({a="b"} | logfmt | constructor="x" | keep constructor [1m]))')).not.toThrow();
  });

  it('a template with an unknown function is a parse error at the template', () => {
    expect(err('{a="b"} | line_format "{{ constructor . }}"')).toBe('parse error at line 1, col 23: template: function "constructor" not defined');
    expect(err('{a="b"} | label_format x="{{ nope }}"')).toBe('parse error at line 1, col 26: template: function "nope" not defined');
  });

  it('a label the stream lacks reads as missing, whatever its name', () => {
    const { process } = compileLogSelector('{a="b"} | constructor="" | toString!="x" | line_format "[{{.valueOf}}]"');
    expect(process('line', { a: 'b' }, 1n)).toEqual({ line: '[]', labels: { a: 'b' } });
    expect(compileLogSelector('{a="b"} | constructor!=""').process('line', { a: 'b' }, 1n)).toBeNull();
  });
});
