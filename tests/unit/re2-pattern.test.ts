import { describe, expect, it } from 'vitest';
import { compileAnchored, compileUnanchored, RegexError, rewriteFlagSettings, toClickHouseRegex } from '../../packages/re2-pattern/re2-pattern';

describe('RE2 patterns', () => {
  it('anchored matchers match the whole value, with RE2 flags JavaScript refuses', () => {
    expect(compileAnchored('(?i)NODE')('node')).toBe(true);
    expect(compileAnchored('no')('node')).toBe(false);
    expect(compileAnchored('a|b')('a')).toBe(true);
    expect(compileAnchored('a|b')('ab')).toBe(false);
    expect(compileUnanchored('o.e')('node')).toBe(true);
    expect(compileUnanchored('\\Qa.b\\E')('xa.bx')).toBe(true);
    expect(compileUnanchored('\\Qa.b\\E')('xaxbx')).toBe(false);
  });

  it('refuses what RE2 refuses (backreferences, lookahead) with a RegexError naming the pattern', () => {
    expect(() => compileAnchored('(a)\\1')).toThrow(RegexError);
    expect(() => compileAnchored('a(?=b)')).toThrow(/a\(\?=b\)/);
  });

  it('rewrites flag settings into flag groups that end with their enclosing group', () => {
    expect(rewriteFlagSettings('(?i)abc')).toBe('(?i:abc)');
    expect(rewriteFlagSettings('a(?i)b(c)d')).toBe('a(?i:b(c)d)');
    expect(rewriteFlagSettings('(x(?i)y)z')).toBe('(x(?i:y))z');
    expect(rewriteFlagSettings('a|(?i)b|c')).toBe('a|(?i:b|c)');
    expect(rewriteFlagSettings('[(?i)]x')).toBe('[(?i)]x');
    expect(rewriteFlagSettings('\\(?i)x')).toBe('\\(?i)x');
    expect(rewriteFlagSettings('\\Q(?i)\\Ex')).toBe('\\Q(?i)\\Ex');
    expect(rewriteFlagSettings('(?i)\\Qa)')).toBe('(?i:\\Qa)\\E)');
  });

  it('gives ClickHouse the pattern with `.` kept off newlines, flag settings as groups, anchored or not', () => {
    expect(toClickHouseRegex('(?i)node', true)).toBe('(?-s:^(?:(?i:node))$)');
    expect(toClickHouseRegex('foo.bar', false)).toBe('(?-s:foo.bar)');
    expect(toClickHouseRegex('\\Qa.b', false)).toBe('(?-s:\\Qa.b\\E)');
    expect(() => toClickHouseRegex('(a)\\1', false)).toThrow(RegexError);
  });

  it('the ClickHouse form means in RE2 what the pattern means', () => {
    const cases = ['foo.bar', '(?i)a.b', '(?s)a.b', 'a.*', '^b', 'a$', '\\Qa.b\\E', '[^x]+', '(?i)A|b.c'];
    const inputs = ['foo-bar', 'foo\nbar', 'a\nb', 'A-B', 'b\na', 'a\n', 'a.b', 'x\ny', 'B\nC', 'b-c'];
    for (const pattern of cases) {
      for (const anchored of [true, false]) {
        const original = anchored ? compileAnchored(pattern) : compileUnanchored(pattern);
        const pushed = compileUnanchored(toClickHouseRegex(pattern, anchored));
        for (const input of inputs) expect([pattern, anchored, input, pushed(input)]).toEqual([pattern, anchored, input, original(input)]);
      }
    }
  });

  it('the rewrite keeps the meaning (checked with RE2 on both forms)', () => {
    const cases = ['(?i)abc', 'a(?i)b(c)d', '(x(?i)y)z', 'a|(?i)b|c', '(?s)a.b', '(?i)a(?-i)b'];
    const inputs = ['abc', 'ABC', 'aBcd', 'abCd', 'xYz', 'xyZ', 'a', 'B', 'C', 'a\nb', 'Ab', 'AB'];
    for (const pattern of cases) {
      const original = compileAnchored(pattern);
      const rewritten = compileAnchored(rewriteFlagSettings(pattern));
      for (const input of inputs) expect([pattern, input, rewritten(input)]).toEqual([pattern, input, original(input)]);
    }
  });
});
