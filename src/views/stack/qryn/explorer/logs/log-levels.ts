// The colours and names of log levels, as Grafana's Explore colours them (critical purple, error red, warning amber,
// info green, debug blue, trace light blue, unknown grey); the Radix scale's step 9 with a fixed fallback.
import type { LogLevel } from '../../../../../services/qryn-logs';

export const LEVEL_COLOURS: Record<LogLevel, string> = {
  critical: 'var(--colors-purple-9, #8e4ec6)',
  error: 'var(--colors-red-9, #e5484d)',
  warning: 'var(--colors-amber-9, #ffc53d)',
  info: 'var(--colors-green-9, #30a46c)',
  debug: 'var(--colors-blue-9, #0090ff)',
  trace: 'var(--colors-cyan-9, #00a2c7)',
  unknown: 'var(--colors-gray-8, #8d8d8d)',
};

export const LEVEL_NAMES: Record<LogLevel, string> = {
  critical: 'critical',
  error: 'error',
  warning: 'warning',
  info: 'info',
  debug: 'debug',
  trace: 'trace',
  unknown: 'unknown',
};
