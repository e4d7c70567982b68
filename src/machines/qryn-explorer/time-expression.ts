// Times typed as Grafana writes them: relative to now with offsets and an optional rounding (`now`, `now-3h`,
// `now-1d/d`, `now/w`, `now-2M+1d`), or absolute. Units s m h d w M y; offsets in days and weeks are fixed lengths,
// months and years move the calendar; rounding is in UTC (a week starts on Monday) — to the unit's start for the
// range's start, to its last millisecond for its end, as Grafana rounds.

const EXPRESSION = /^now((?:[+-]\d{1,6}[smhdwMy])*)(?:\/([smhdwMy]))?$/;
const OFFSET = /([+-])(\d{1,6})([smhdwMy])/g;
const FIXED_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

export function isTimeExpression(text: string): boolean {
  return EXPRESSION.test(text.trim());
}

function startOf(ms: number, unit: string): number {
  const d = new Date(ms);
  switch (unit) {
    case 's':
      return Math.floor(ms / 1_000) * 1_000;
    case 'm':
      return Math.floor(ms / 60_000) * 60_000;
    case 'h':
      return Math.floor(ms / 3_600_000) * 3_600_000;
    case 'd':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'w':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    case 'M':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    default:
      return Date.UTC(d.getUTCFullYear(), 0, 1);
  }
}

function add(ms: number, amount: number, unit: string): number {
  if (unit === 'M' || unit === 'y') {
    const d = new Date(ms);
    if (unit === 'M') d.setUTCMonth(d.getUTCMonth() + amount);
    else d.setUTCFullYear(d.getUTCFullYear() + amount);
    return d.getTime();
  }
  return ms + amount * FIXED_MS[unit]!;
}

/** The expression's time at `now`; `end` rounds up to the unit's last millisecond. Null when it is not one. */
export function evaluateTimeExpression(text: string, now: number, end = false): number | null {
  const match = EXPRESSION.exec(text.trim());
  if (!match) return null;
  let ms = now;
  for (const [, sign, amount, unit] of match[1]!.matchAll(OFFSET)) ms = add(ms, (sign === '-' ? -1 : 1) * Number(amount), unit!);
  const round = match[2];
  if (!round) return ms;
  const start = startOf(ms, round);
  return end ? add(start, 1, round) - 1 : start;
}
