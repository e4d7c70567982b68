// Parse errors worded for a person (editor/query-error.ts) and the range a range query is evaluated over
// (explorer/evaluation-range.ts): the last evaluation point is the range's end, whatever the step.
import { describe, expect, it } from 'vitest';
import { autoStepSeconds } from '../../src/services/qryn-explorer';
import { explainQueryError, missingCloser } from '../../src/views/stack/qryn/editor/query-error';
import { endAlignedRange } from '../../src/views/stack/qryn/explorer/evaluation-range';

describe('query errors for a person', () => {
  it('names the closer a query that ends too early is missing (Loki, Tempo, Prometheus)', () => {
    expect(explainQueryError('parse error at line 1, col 13: syntax error: unexpected $end', '{job="app"')).toBe('The query ends too early: a closing } is missing.');
    expect(explainQueryError('invalid TraceQL query: parse error at line 1, col 20: syntax error: unexpected $end', '{ span.http.status = ')).toBe(
      'The query ends too early: a closing } is missing.',
    );
    expect(explainQueryError('parse error at line 1, col 18: syntax error: unexpected $end', 'rate({job="app"}[5m]')).toBe('The query ends too early: a closing ) is missing.');
    expect(explainQueryError('1:10: parse error: unclosed left brace', 'up{job="a"')).toBe('The query ends too early: a closing } is missing.');
    expect(explainQueryError('parse error at line 1, col 9: syntax error: unexpected $end', '{job="ap')).toBe('The query ends too early: a closing " is missing.');
  });

  it('quotes the text where an unexpected token is, with its column, instead of the grammar token', () => {
    expect(explainQueryError('invalid TraceQL query: parse error at line 1, col 15: syntax error: unexpected }', '{ .a = "b" && }')).toBe('The query has } where it cannot go (column 15).');
    expect(explainQueryError('parse error at line 1, col 1: syntax error: unexpected IDENTIFIER', 'job="app"')).toBe('The query has job where it cannot go (column 1).');
    expect(explainQueryError('parse error at line 2, col 3: syntax error: unexpected IDENTIFIER, expecting STRING', '{a="b"}\n| json x')).toBe('The query has json where it cannot go (line 2, column 3).');
  });

  it('keeps other reasons, capitalised, and messages that are not parse errors as they are', () => {
    expect(explainQueryError('1:1: parse error: unknown function with name "foo"', 'foo(up)')).toBe('Unknown function with name "foo".');
    expect(explainQueryError('The instance could not be reached.', 'up')).toBe('The instance could not be reached.');
  });

  it('finds what is still open, skipping brackets inside strings', () => {
    expect(missingCloser('{a="(}"')).toBe('}');
    expect(missingCloser('sum(rate(x[5m]')).toBe(')');
    expect(missingCloser('{a=`x')).toBe('`');
    expect(missingCloser('{a="\\"')).toBe('"');
    expect(missingCloser('up')).toBeNull();
  });
});

describe('the evaluation range', () => {
  const DAY = 86_400_000;
  it('ends at the range end: "Last 7 days" at the auto step no longer stops 37 minutes early', () => {
    const range = { from: 1_764_000_000_000 - 7 * DAY, to: 1_764_000_000_000 };
    const step = autoStepSeconds(range);
    expect(step).toBe(2420);
    const aligned = endAlignedRange(range, step);
    expect(aligned.to).toBe(range.to);
    // Every point from start by step: the last one is the end, the first within one step of the asked start.
    expect((aligned.to - aligned.from) % (step * 1000)).toBe(0);
    expect(aligned.from).toBeGreaterThanOrEqual(range.from);
    expect(aligned.from - range.from).toBeLessThan(step * 1000);
    expect(range.from + Math.floor((range.to - range.from) / (step * 1000)) * step * 1000).toBe(range.to - 37 * 60_000);
  });

  it('leaves a range the step divides, and nonsense steps, alone', () => {
    const range = { from: 0, to: 3_600_000 };
    expect(endAlignedRange(range, 15)).toEqual(range);
    expect(endAlignedRange(range, 0)).toEqual(range);
  });
});
