// LogQL's duration grammar (packages/logql/syntax/duration.ts): ranges, literals, values from lines, API parameters.

import { describe, expect, it } from 'vitest';
import {
  parseDurationLiteralNs, parseGoDurationNs, parseModelDurationNs, parseSecondsOrDurationNs,
} from '../../packages/logql/syntax/duration';

const S = 1e9;

describe('ranges: model.ParseDuration', () => {
  it.each([['5m', 300 * S], ['1h30m', 5400 * S], ['1d', 86_400 * S], ['2w', 14 * 86_400 * S], ['1y', 365 * 86_400 * S], ['0', 0], ['250ms', 0.25 * S]])(
    'reads %s',
    (text, ns) => expect(parseModelDurationNs(text)).toBe(ns),
  );
  it.each(['1.5h', '30s1m', '5m5m', '1us', '-5m', '', '5'])('refuses %j', (text) => expect(parseModelDurationNs(text)).toBeNaN());
});

describe("values read from lines: Go's time.ParseDuration", () => {
  it.each([
    ['1.5s', 1.5 * S], ['0.3s', 0.3 * S], ['1h1h', 7200 * S], ['-2m', -120 * S], ['+1s', S], ['250us', 250_000], ['250µs', 250_000],
    ['10ns', 10], ['.5m', 30 * S], ['1m30s', 90 * S], ['0', 0],
  ])('reads %s', (text, ns) => expect(parseGoDurationNs(text)).toBe(ns));
  it.each(['1d', '1w', '5', '', '.s', '1.5', 'abc', '1 s'])('refuses %j', (text) => expect(parseGoDurationNs(text)).toBeNaN());
});

describe('literals: model.ParseDuration, else Go', () => {
  it.each([['5d', 5 * 86_400 * S], ['1d12h', 36 * 3600 * S], ['1.5h', 5400 * S], ['1h1h', 7200 * S], ['2w', 14 * 86_400 * S]])(
    'reads %s',
    (text, ns) => expect(parseDurationLiteralNs(text)).toBe(ns),
  );
  it.each(['1.5d', '5', 'x'])('refuses %j', (text) => expect(parseDurationLiteralNs(text)).toBeNaN());
});

describe('API parameters: seconds or model.ParseDuration', () => {
  it.each([['15', 15 * S], ['0.5', 0.5 * S], ['1m30s', 90 * S], ['1h', 3600 * S], ['1e2', 100 * S]])(
    'reads %s',
    (text, ns) => expect(parseSecondsOrDurationNs(text)).toBe(ns),
  );
  it.each(['1.5m', '30s1m', 'x', ''])('refuses %j naming the value', (text) => {
    expect(() => parseSecondsOrDurationNs(text)).toThrow(`cannot parse "${text}" to a valid duration`);
  });
  it('refuses what overflows an int64 of nanoseconds', () => {
    expect(() => parseSecondsOrDurationNs('1e12')).toThrow('It overflows int64');
  });
});
