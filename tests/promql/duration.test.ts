// PromQL's duration grammar (packages/promql/parser/duration.ts): Prometheus' model.ParseDuration for literals and
// settings, seconds-or-duration for API parameters.

import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration, parseSecondsOrDuration } from '../../packages/promql/parser/duration';

describe('parseDuration (model.ParseDuration)', () => {
  it.each([
    ['0', 0], ['5m', 300_000], ['1h30m', 5_400_000], ['1y2w3d4h5m6s7ms', 31_536_000_000 + 1_209_600_000 + 259_200_000 + 14_400_000 + 300_000 + 6000 + 7],
    ['500ms', 500], ['90s', 90_000], ['0s', 0],
  ])('reads %s', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', '1s1h', '5m5m', '1.5h', '-5m', '5', '1h 30m', '5M', '1us', '1ns', '30m1h', '1s1s'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('refuses what overflows an int64 of nanoseconds', () => {
    expect(parseDuration('292y')).toBe(292 * 31_536_000_000);
    expect(parseDuration('300y')).toBeUndefined();
  });

  it('prints as model.Duration.String', () => {
    expect(formatDuration(5_400_000)).toBe('1h30m');
    expect(formatDuration(604_800_000)).toBe('1w');
    expect(formatDuration(0)).toBe('0s');
  });
});

describe('parseSecondsOrDuration (the API parameters)', () => {
  it.each([
    ['15', 15_000], ['1.5', 1500], ['0.001', 1], ['1e1', 10_000], ['1m30s', 90_000], ['2h', 7_200_000], ['0x10p0', 16_000],
  ])('reads %s', (text, ms) => expect(parseSecondsOrDuration(text)).toBe(ms));

  it.each(['1s1h', '5m5m', '1.5m', 'abc', '', '1m 30s'])('refuses %j with the reason', (text) => {
    expect(() => parseSecondsOrDuration(text)).toThrow(`cannot parse ${JSON.stringify(text)} to a valid duration`);
  });

  it('refuses a number of seconds beyond int64 nanoseconds', () => {
    expect(() => parseSecondsOrDuration('1e10')).toThrow('cannot parse "1e10" to a valid duration. It overflows int64');
    expect(() => parseSecondsOrDuration('Inf')).toThrow('It overflows int64');
  });
});
