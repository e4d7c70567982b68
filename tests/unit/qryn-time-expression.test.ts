// Typed time ranges: Grafana's `now` expressions (offsets, calendar months, rounding to the unit in UTC, the end
// rounded up), mixed with absolute times, checked at their fields, and kept in the address as typed.
import { describe, expect, it } from 'vitest';
import { checkAbsoluteRange, DEFAULT_EXPLORER_STATE, RANGE_ORDER_MESSAGE, readExplorerUrl, resolveRange, TIME_FORMAT_MESSAGE, writeExplorerUrl } from '../../src/machines/qryn-explorer/explorer-url';
import { evaluateTimeExpression, isTimeExpression } from '../../src/machines/qryn-explorer/time-expression';

// Sunday 2026-11-29 10:07:30.250 UTC.
const NOW = Date.UTC(2026, 10, 29, 10, 7, 30, 250);

describe('time expressions', () => {
  it('offsets now by fixed units and by calendar months and years', () => {
    expect(evaluateTimeExpression('now', NOW)).toBe(NOW);
    expect(evaluateTimeExpression('now-3h', NOW)).toBe(NOW - 3 * 3_600_000);
    expect(evaluateTimeExpression('now-1w+2d', NOW)).toBe(NOW - 5 * 86_400_000);
    expect(evaluateTimeExpression('now-1M', NOW)).toBe(Date.UTC(2026, 9, 29, 10, 7, 30, 250));
    expect(evaluateTimeExpression('now+1y', NOW)).toBe(Date.UTC(2027, 10, 29, 10, 7, 30, 250));
  });

  it('rounds to the start of the unit, or for an end to its last millisecond', () => {
    expect(evaluateTimeExpression('now-1d/d', NOW)).toBe(Date.UTC(2026, 10, 28));
    expect(evaluateTimeExpression('now-1d/d', NOW, true)).toBe(Date.UTC(2026, 10, 29) - 1);
    expect(evaluateTimeExpression('now/h', NOW)).toBe(Date.UTC(2026, 10, 29, 10));
    // The week starts on Monday.
    expect(evaluateTimeExpression('now/w', NOW)).toBe(Date.UTC(2026, 10, 23));
    expect(evaluateTimeExpression('now/M', NOW, true)).toBe(Date.UTC(2026, 11, 1) - 1);
  });

  it('is not anything else', () => {
    for (const text of ['now-', 'now-3x', 'now-1d/d/d', 'yesterday', 'now - 3h', '3h']) expect(isTimeExpression(text), text).toBe(false);
    expect(evaluateTimeExpression('now-3x', NOW)).toBeNull();
  });
});

describe('typed ranges', () => {
  it('keeps now-based times as typed, absolute ones as times, and checks each field', () => {
    expect(checkAbsoluteRange('now-3h', 'now', NOW)).toEqual({ range: { kind: 'expression', from: 'now-3h', to: 'now' } });
    expect(checkAbsoluteRange('2026-11-29 08:00', 'now', NOW)).toEqual({ range: { kind: 'expression', from: String(Date.UTC(2026, 10, 29, 8)), to: 'now' } });
    expect(checkAbsoluteRange('now-1d/d', 'now-1d/d', NOW)).toEqual({ range: { kind: 'expression', from: 'now-1d/d', to: 'now-1d/d' } });
    expect(checkAbsoluteRange('now-3q', 'now', NOW)).toEqual({ from: TIME_FORMAT_MESSAGE });
    expect(checkAbsoluteRange('now', 'now-1h', NOW)).toEqual({ to: RANGE_ORDER_MESSAGE });
  });

  it('goes into the address as typed and is evaluated at each run', () => {
    const written = writeExplorerUrl(new URLSearchParams(), { ...DEFAULT_EXPLORER_STATE, range: { kind: 'expression', from: 'now-1d/d', to: 'now-1d/d' } });
    expect(written.toString()).toBe('from=now-1d%2Fd&to=now-1d%2Fd');
    const range = readExplorerUrl(written).range;
    expect(range).toEqual({ kind: 'expression', from: 'now-1d/d', to: 'now-1d/d' });
    expect(resolveRange(range, NOW)).toEqual({ from: Date.UTC(2026, 10, 28), to: Date.UTC(2026, 10, 29) - 1 });
    // A preset ending now stays a preset.
    expect(readExplorerUrl(new URLSearchParams('from=now-6h&to=now')).range).toEqual({ kind: 'relative', value: 'now-6h' });
  });
});
