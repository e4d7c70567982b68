import { describe, expect, it } from 'vitest';
import { formatBytes, formatCents, formatDate, formatNumber, formatPrice, pluralize } from '../../src/lib/format';

describe('format helpers', () => {
  it('formats dates the en-GB way (day before month)', () => {
    expect(formatDate('2026-03-04T10:00:00Z')).toBe('04 Mar 2026');
    expect(formatDate('not a date')).toBe('');
  });
  it('formats numbers en-US with at most 2 fraction digits', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
    expect(formatNumber(3)).toBe('3');
  });
  it('formats prices in USD with at most 2 fraction digits', () => {
    expect(formatPrice(249)).toBe('$249');
    expect(formatPrice(1234.5)).toBe('$1,234.5');
    expect(formatPrice(0.129)).toBe('$0.13');
  });
  it('divides cent prices by 100', () => {
    expect(formatCents(24900)).toBe('$249');
  });
  it('pluralizes counts', () => {
    expect(pluralize(1, 'day')).toBe('1 day');
    expect(pluralize(4, 'day')).toBe('4 days');
  });
  it('uses decimal units for bytes', () => {
    expect(formatBytes(1.5e9)).toBe('1.5 GB');
    expect(formatBytes(2e12)).toBe('2 TB');
  });
});
