// Locale rules of the spec: dates en-GB; numbers and prices en-US in USD with at most 2 fraction digits.

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const currencyFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 2 });

function toDate(value: Date | string | number): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDate(value: Date | string | number): string {
  const date = toDate(value);
  return date ? dateFormat.format(date) : '';
}

export function formatDateTime(value: Date | string | number): string {
  const date = toDate(value);
  return date ? dateTimeFormat.format(date) : '';
}

export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

export function formatPrice(amount: number): string {
  return currencyFormat.format(amount);
}

/** Prices that arrive in cents (Hepic plans, retention tiers) are divided by 100 first. */
export function formatCents(cents: number): string {
  return currencyFormat.format(cents / 100);
}

export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(count)} ${count === 1 ? singular : plural}`;
}

export const BYTE_UNITS = { GB: 1e9, TB: 1e12, GiB: 1.073741824e9, TiB: 1.099511627776e12 } as const;

export function formatBytes(bytes: number): string {
  if (bytes >= BYTE_UNITS.TB) return `${formatNumber(bytes / BYTE_UNITS.TB)} TB`;
  if (bytes >= BYTE_UNITS.GB) return `${formatNumber(bytes / BYTE_UNITS.GB)} GB`;
  if (bytes >= 1e6) return `${formatNumber(bytes / 1e6)} MB`;
  if (bytes >= 1e3) return `${formatNumber(bytes / 1e3)} kB`;
  return `${formatNumber(bytes)} B`;
}
