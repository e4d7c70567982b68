import { describe, expect, it } from 'vitest';
import { goDuration, tagType } from '../../server/products/qryn/read/trace-reader';

// Tag values as Tempo types them: durations written as Go writes them, stored types named as Tempo names them.

describe('tag values', () => {
  it('writes durations as Go’s time.Duration.String()', () => {
    expect(goDuration(0n)).toBe('0s');
    expect(goDuration(999n)).toBe('999ns');
    expect(goDuration(1_500n)).toBe('1.5µs');
    expect(goDuration(20_000_000n)).toBe('20ms');
    expect(goDuration(1_500_000_000n)).toBe('1.5s');
    expect(goDuration(90_000_000_000n)).toBe('1m30s');
    expect(goDuration(3_600_000_000_000n)).toBe('1h0m0s');
    expect(goDuration(3_723_000_000_001n)).toBe('1h2m3.000000001s');
  });

  it('names stored types, and reads untyped older values from their form', () => {
    expect(tagType('42', 'i')).toBe('int');
    expect(tagType('42', 's')).toBe('string');
    expect(tagType('0.5', 'd')).toBe('float');
    expect(tagType('true', 'b')).toBe('bool');
    expect(tagType('42', undefined)).toBe('int');
    expect(tagType('x', undefined)).toBe('string');
  });
});
