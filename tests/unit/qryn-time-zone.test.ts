// The explorer's time zone: times formatted in UTC, the browser's zone or an IANA zone (summer time included), the
// choice in the address (`tz`), an unknown zone read as UTC.
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXPLORER_STATE, readExplorerUrl, writeExplorerUrl } from '../../src/machines/qryn-explorer/explorer-url';
import { formatInZone, resolveZone, zoneChoices } from '../../src/views/stack/qryn/explorer/time-zone';

describe('the time zone', () => {
  it('formats a time in the zone, to the minute, second or millisecond', () => {
    const t = Date.UTC(2026, 6, 1, 23, 30, 5, 42);
    expect(formatInZone(t, 'UTC')).toBe('2026-07-01 23:30:05');
    expect(formatInZone(t, 'UTC', 'ms')).toBe('2026-07-01 23:30:05.042');
    expect(formatInZone(t, 'Europe/Berlin', 'minute')).toBe('2026-07-02 01:30');
    expect(formatInZone(Date.UTC(2026, 0, 1, 23, 30), 'Europe/Berlin')).toBe('2026-01-02 00:30:00');
    expect(formatInZone(t, 'America/New_York')).toBe('2026-07-01 19:30:05');
  });

  it('resolves the choice: utc, the browser, an IANA zone; an unknown one as UTC', () => {
    expect(resolveZone('utc')).toBe('UTC');
    expect(resolveZone('browser')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(resolveZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(resolveZone('Mars/Olympus')).toBe('UTC');
    expect(zoneChoices().slice(0, 2).map((z) => z.value)).toEqual(['utc', 'browser']);
    expect(zoneChoices().some((z) => z.value === 'Pacific/Auckland')).toBe(true);
  });

  it('is in the address when it is not UTC', () => {
    const written = writeExplorerUrl(new URLSearchParams(), { ...DEFAULT_EXPLORER_STATE, timeZone: 'Asia/Kolkata' });
    expect(written.toString()).toBe('tz=Asia%2FKolkata');
    expect(readExplorerUrl(written).timeZone).toBe('Asia/Kolkata');
    expect(readExplorerUrl(new URLSearchParams('tz=browser')).timeZone).toBe('browser');
    expect(readExplorerUrl(new URLSearchParams('tz=Mars/Olympus')).timeZone).toBe('utc');
  });
});
