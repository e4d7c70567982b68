// The time zone the explorer shows times in (chart axes and legends, result tables, log times, the volume's table):
// UTC, the browser's, or any IANA zone the browser knows, chosen in the shell and kept in the address (`tz`). The
// range fields stay in UTC: that is what they say.
import { createContext, useContext } from 'react';

/** The zone as the address holds it: `utc` (absent), `browser`, or an IANA name. */
export type TimeZoneSetting = string;

export const BROWSER_ZONE = 'browser';
export const UTC_ZONE = 'utc';

/** Whether the browser knows an IANA zone by this name. */
export function knownZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The IANA name to format with. */
export function resolveZone(setting: TimeZoneSetting): string {
  if (setting === BROWSER_ZONE) return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  if (setting === UTC_ZONE || !knownZone(setting)) return 'UTC';
  return setting;
}

/** The zones offered: UTC, the browser's, then every IANA zone the browser lists. */
export function zoneChoices(): { value: string; label: string }[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [
    { value: UTC_ZONE, label: 'UTC' },
    { value: BROWSER_ZONE, label: `Browser (${resolveZone(BROWSER_ZONE)})` },
    ...listed.filter((z) => z !== 'UTC').map((z) => ({ value: z, label: z })),
  ];
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formatters.set(zone, f);
  }
  return f;
}

/** `YYYY-MM-DD HH:mm`, `…:ss` or `…:ss.SSS` in the zone (an IANA name). */
export function formatInZone(ms: number, zone: string, precision: 'minute' | 'second' | 'ms' = 'second'): string {
  const parts = Object.fromEntries(formatterFor(zone).formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const minute = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
  if (precision === 'minute') return minute;
  const second = `${minute}:${parts.second}`;
  return precision === 'ms' ? `${second}.${String(((ms % 1000) + 1000) % 1000).padStart(3, '0')}` : second;
}

/** The IANA zone in force (UTC outside the explorer's shell). */
export const TimeZone = createContext<string>('UTC');

export function useTimeZone(): string {
  return useContext(TimeZone);
}
