import { describe, expect, it } from 'vitest';
import { compileLogSelector } from '../../packages/logql/log/stream-pipeline';

// Each stage of the log pipeline on single lines, with Loki's semantics.

const run = (query: string, line: string, labels: Record<string, string> = { app: 'x' }) => compileLogSelector(`{app="x"} ${query}`).process(line, labels, 1_700_000_000_123_456_789n);
const labelsOf = (query: string, line: string, labels?: Record<string, string>) => run(query, line, labels)?.labels;

describe('line filters', () => {
  it('contains, not contains, or-ed values', () => {
    expect(run('|= "b"', 'abc')).not.toBeNull();
    expect(run('|= "z" or "c"', 'abc')).not.toBeNull();
    expect(run('!= "z" or "c"', 'abc')).toBeNull();
    expect(run('!= "z" or "y"', 'abc')).not.toBeNull();
  });
  it('RE2 regexes with flags, unanchored', () => {
    expect(run('|~ "(?i)ERROR"', 'an error')).not.toBeNull();
    expect(run('|~ "ERROR"', 'an error')).toBeNull();
    expect(run('!~ "^an"', 'an error')).toBeNull();
    expect(run('|~ `\\d{3}`', 'code 404')).not.toBeNull();
  });
  it('ip() with addresses, ranges and CIDR (v4 and v6)', () => {
    expect(run('|= ip("192.168.0.0/16")', 'from 192.168.4.2:80')).not.toBeNull();
    expect(run('|= ip("10.0.0.1-10.0.0.9")', 'from 10.0.0.10')).toBeNull();
    expect(run('!= ip("10.0.0.5")', 'from 10.0.0.5 ok')).toBeNull();
    expect(run('|= ip("2001:db8::/32")', 'client 2001:db8::1 connected')).not.toBeNull();
  });
  it('ip() or ip() (Loki 3): any of them for |=, none of them for !=, mixed with plain strings', () => {
    const q = '|= ip("10.0.0.0/8") or ip("192.168.0.1")';
    expect(run(q, 'from 10.3.4.5')).not.toBeNull();
    expect(run(q, 'from 192.168.0.1 ok')).not.toBeNull();
    expect(run(q, 'from 192.168.0.2 ok')).toBeNull();
    const n = '!= ip("10.0.0.0/8") or ip("192.168.0.1")';
    expect(run(n, 'from 10.3.4.5')).toBeNull();
    expect(run(n, 'from 192.168.0.1 ok')).toBeNull();
    expect(run(n, 'from 192.168.0.2 ok')).not.toBeNull();
    // A plain string or-ed with ip() is a substring, not an address pattern.
    expect(run('|= "timeout" or ip("10.0.0.0/8")', 'a timeout')).not.toBeNull();
    expect(run('|= "timeout" or ip("10.0.0.0/8")', 'from 10.1.1.1')).not.toBeNull();
    expect(run('|= "timeout" or ip("10.0.0.0/8")', 'from 11.1.1.1')).toBeNull();
    expect(run('|= ip("10.0.0.0/8") or "timeout"', 'a timeout')).not.toBeNull();
    expect(run('!= ip("10.0.0.0/8") or "timeout"', 'a timeout')).toBeNull();
    expect(run('!= ip("10.0.0.0/8") or "timeout"', 'from 11.1.1.1')).not.toBeNull();
  });
  it('pattern filters need the whole line to match', () => {
    expect(run('|> "<_> bar"', 'foo bar')).not.toBeNull();
    expect(run('|> "<_> bar"', 'foo bar baz')).toBeNull();
    expect(run('!> "<_> bar"', 'foo bar baz')).not.toBeNull();
  });
});

describe('parsers', () => {
  it('json: nested keys joined with _, numbers as their text, arrays and nulls skipped, collisions _extracted', () => {
    expect(labelsOf('| json', '{"a":{"b c":1.50,"d":true},"arr":[1],"n":null,"app":"y","1x":"z"}')).toEqual({ app: 'x', a_b_c: '1.50', a_d: 'true', app_extracted: 'y', _1x: 'z' });
  });
  it('json: invalid JSON sets __error__ and keeps what was read before the error', () => {
    const l = labelsOf('| json', '{"a":"b","c": oops}')!;
    expect(l.a).toBe('b');
    expect(l.__error__).toBe('JSONParserErr');
    expect(l.__error_details__).toBeTruthy();
  });
  it('json with parameters: paths, indexes, missing values empty, objects as JSON', () => {
    expect(labelsOf('| json x="a.b", y="arr[1]", z="o", missing', '{"a":{"b":"c"},"arr":[1,"two"],"o":{"k":1}}')).toEqual({ app: 'x', x: 'c', y: 'two', z: '{"k":1}', missing: '' });
    expect(labelsOf('| json x="a"', 'not json')).toMatchObject({ __error__: 'JSONParserErr' });
  });
  it('logfmt: quoted values, keys without value only with --keep-empty, --strict errors', () => {
    expect(labelsOf('| logfmt', 'a=1 b="x \\"y\\"" c= d')).toEqual({ app: 'x', a: '1', b: 'x "y"' });
    expect(labelsOf('| logfmt --keep-empty', 'a=1 c= d')).toEqual({ app: 'x', a: '1', c: '', d: '' });
    expect(labelsOf('| logfmt --strict', 'a=1 b=x=y')).toMatchObject({ a: '1', __error__: 'LogfmtParserErr' });
    expect(labelsOf('| logfmt', 'a=1 b=x=y c=3')).toEqual({ app: 'x', a: '1', c: '3' });
    expect(labelsOf('| logfmt v="a"', 'a=1 b=2')).toEqual({ app: 'x', v: '1' });
    expect(labelsOf('| logfmt', 'app=z')).toEqual({ app: 'x', app_extracted: 'z' });
  });
  it('regexp: named groups; no match adds nothing', () => {
    expect(labelsOf('| regexp `(?P<method>\\w+) (?P<path>\\S+)`', 'GET /a')).toEqual({ app: 'x', method: 'GET', path: '/a' });
    expect(labelsOf('| regexp `^(?P<n>\\d+)$`', 'abc')).toEqual({ app: 'x' });
  });
  it('pattern: captures up to the next literal, <_> ignored, the last capture takes the rest', () => {
    expect(labelsOf('| pattern `<ip> - <_> "<m> <p> <_>" <s>`', '1.2.3.4 - - "GET /a HTTP/1.1" 200 12')).toEqual({ app: 'x', ip: '1.2.3.4', m: 'GET', p: '/a', s: '200 12' });
    expect(labelsOf('| pattern `[<x>]`', 'no bracket')).toEqual({ app: 'x' });
  });
  it('unpack: _entry becomes the line, string members become labels', () => {
    expect(run('| unpack', '{"_entry":"inner","k":"v","n":1}')).toEqual({ line: 'inner', labels: { app: 'x', k: 'v' } });
  });
});

describe('label filters', () => {
  it('strings, numbers, durations, bytes, ip', () => {
    expect(run('| logfmt | s="a"', 's=a')).not.toBeNull();
    expect(run('| logfmt | s=~"a|b"', 's=c')).toBeNull();
    expect(run('| logfmt | n > 2.5', 'n=3')).not.toBeNull();
    expect(run('| logfmt | n == 3', 'n=3.0')).not.toBeNull();
    expect(run('| logfmt | d >= 1m', 'd=90s')).not.toBeNull();
    expect(run('| logfmt | d < 100ms', 'd=1.5s')).toBeNull();
    expect(run('| logfmt | b > 1KB', 'b=1.5kB')).not.toBeNull();
    expect(run('| logfmt | b > 1KiB', 'b=1000')).toBeNull();
    expect(run('| logfmt | ip = ip("10.0.0.0/8")', 'ip=10.2.3.4')).not.toBeNull();
    expect(run('| logfmt | ip != ip("10.0.0.0/8")', 'ip=10.2.3.4')).toBeNull();
  });
  it('a missing label fails numeric filters; a value that is not a number keeps the line with LabelFilterErr', () => {
    expect(run('| logfmt | n > 1', 'm=2')).toBeNull();
    expect(labelsOf('| logfmt | n > 1', 'n=abc')).toMatchObject({ __error__: 'LabelFilterErr' });
  });
  it('and, or, comma', () => {
    expect(run('| logfmt | a="1" and b="2"', 'a=1 b=3')).toBeNull();
    expect(run('| logfmt | a="1" or b="2"', 'a=1 b=3')).not.toBeNull();
    expect(run('| logfmt | a="1", b="3"', 'a=1 b=3')).not.toBeNull();
    expect(run('| logfmt | __error__=""', 'a=1')).not.toBeNull();
  });
});

describe('formatting and labels', () => {
  it('line_format with labels, functions, conditionals, __line__ and __timestamp__', () => {
    expect(run('| logfmt | line_format "{{.a | ToUpper}}-{{ if eq .b \\"2\\" }}two{{ else }}other{{ end }}"', 'a=x b=2')?.line).toBe('X-two');
    expect(run('| line_format "{{ __line__ | len }} {{ __timestamp__ | date \\"2006-01-02T15:04:05.000Z07:00\\" }}"', 'abc')?.line).toBe('3 2023-11-14T22:13:20.123Z');
    expect(run('| line_format "{{.missing}}|"', 'abc')?.line).toBe('|');
  });
  it('label_format renames and templates from the labels before the stage', () => {
    expect(labelsOf('| logfmt | label_format c=a, d="{{.a}}{{.b}}"', 'a=1 b=2')).toEqual({ app: 'x', b: '2', c: '1', d: '12' });
  });
  it('drop and keep, by name or by matcher; keep leaves __error__', () => {
    expect(labelsOf('| logfmt | drop a, b="2"', 'a=1 b=2 c=3')).toEqual({ app: 'x', c: '3' });
    expect(labelsOf('| logfmt | drop b="9"', 'b=2')).toEqual({ app: 'x', b: '2' });
    expect(labelsOf('| logfmt | keep a, b="9"', 'a=1 b=2')).toEqual({ a: '1' });
    expect(labelsOf('| json | keep a', 'oops')).toEqual({ __error__: 'JSONParserErr', __error_details__: expect.any(String) });
  });
  it('decolorize removes ANSI sequences', () => {
    expect(run('| decolorize', '\u001b[1;31mred\u001b[0m and \u001b[32mgreen\u001b[0m')?.line).toBe('red and green');
  });
  it('a template error sets TemplateFormatErr and leaves the line', () => {
    expect(run('| line_format "{{ div 1 0 }}"', 'abc')).toMatchObject({ line: 'abc', labels: { __error__: 'TemplateFormatErr' } });
  });
});
