import { INSTANCE_LIMIT_KEYS, type InstanceReadLimits } from '../instances/read-limits';
// The bounds every qryn read carries to ClickHouse (per query, in the HTTP URL) and the caps on what one answer may
// hold. Environment settings (README's settings table, docs/qryn.md), checked when the gateway is made; the query
// workers read the same environment. ClickHouse 18.16 applies these per query: a read that passes one is stopped by
// ClickHouse itself while it reads, before its memory is spent (not after the whole answer arrived).

export interface ReadSettings {
  /** ClickHouse's max_execution_time, in seconds (timeout_overflow_mode=throw). */
  maxExecutionTimeS: number;
  /** max_rows_to_read (read_overflow_mode=throw); 0: none. */
  maxRowsToRead: number;
  /** max_bytes_to_read (read_overflow_mode=throw); 0: none. */
  maxBytesToRead: number;
  /** max_memory_usage of one read, in bytes; 0: the server's. */
  maxMemoryUsage: number;
  /** max_threads of one read; 0: the server's. */
  maxThreads: number;
  /** max_result_rows (result_overflow_mode=throw); 0: none. */
  maxResultRows: number;
  /** Series of one PromQL answer. */
  promqlMaxSeries: number;
  /** Points (samples) of one PromQL answer, over all its series. */
  promqlMaxPoints: number;
  /** Points of one LogQL metric answer, over all its series. */
  logqlMaxPoints: number;
}

const DEFAULTS: ReadSettings = {
  maxExecutionTimeS: 120,
  maxRowsToRead: 2_000_000_000,
  maxBytesToRead: 0,
  maxMemoryUsage: 1_073_741_824,
  maxThreads: 0,
  maxResultRows: 0,
  promqlMaxSeries: 50_000,
  promqlMaxPoints: 1_000_000,
  logqlMaxPoints: 1_000_000,
};

const NAMES: Record<keyof ReadSettings, string> = {
  maxExecutionTimeS: 'QRYN_READ_MAX_EXECUTION_TIME',
  maxRowsToRead: 'QRYN_READ_MAX_ROWS_TO_READ',
  maxBytesToRead: 'QRYN_READ_MAX_BYTES_TO_READ',
  maxMemoryUsage: 'QRYN_READ_MAX_MEMORY_USAGE',
  maxThreads: 'QRYN_READ_MAX_THREADS',
  maxResultRows: 'QRYN_READ_MAX_RESULT_ROWS',
  promqlMaxSeries: 'QRYN_PROMQL_MAX_SERIES',
  promqlMaxPoints: 'QRYN_PROMQL_MAX_ANSWER_POINTS',
  logqlMaxPoints: 'QRYN_LOKI_MAX_ANSWER_POINTS',
};

/** These must be above 0; the others take 0 for "no bound" (or "the server's own"). */
const POSITIVE = new Set<keyof ReadSettings>(['maxExecutionTimeS', 'promqlMaxSeries', 'promqlMaxPoints', 'logqlMaxPoints']);

/** The settings read from `env`; a malformed one throws naming the variable. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): ReadSettings {
  const out = { ...DEFAULTS };
  for (const key of Object.keys(NAMES) as (keyof ReadSettings)[]) {
    const name = NAMES[key];
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    const text = raw.trim();
    const value = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(value) || (POSITIVE.has(key) && value === 0)) {
      throw new Error(`${name} must be a ${POSITIVE.has(key) ? 'positive' : 'non-negative'} whole number${POSITIVE.has(key) ? '' : ' (0: no bound)'}, not "${raw}".`);
    }
    out[key] = value;
  }
  return out;
}

let cached: { key: string; settings: ReadSettings } | undefined;

/**
 * This process's settings (a worker thread reads the environment it was given, the gateway's), read again when one
 * of the variables changed.
 */
export function currentReadSettings(): ReadSettings {
  const key = Object.values(NAMES).map((name) => process.env[name] ?? '').join('\n');
  if (cached?.key !== key) cached = { key, settings: readSettings(process.env) };
  return cached.settings;
}


/** The platform's settings with an instance's own limits in place of the ones it sets (the API keeps them within). */
export function instanceReadSettings(limits: InstanceReadLimits | null | undefined, base: ReadSettings = currentReadSettings()): ReadSettings {
  const out = { ...base };
  for (const key of INSTANCE_LIMIT_KEYS) {
    const value = limits?.[key];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= (POSITIVE.has(key) ? 1 : 0)) out[key] = value;
  }
  return out;
}

/**
 * ClickHouse's `priority` of a read (lower runs first; 0 takes no part): a read of an instance with more of its own
 * reads waiting behind it is `BACKGROUND`, so ClickHouse pauses it while `NORMAL` reads of the other instances run.
 */
export const READ_PRIORITY = { normal: 1, background: 2 } as const;

/** The settings as ClickHouse URL parameters, for one read (with its priority when given). */
export function clickhouseReadParams(s: ReadSettings, priority?: number): string {
  const params: [string, number | string][] = [['max_execution_time', s.maxExecutionTimeS], ['timeout_overflow_mode', 'throw']];
  if (priority !== undefined) params.push(['priority', priority]);
  if (s.maxRowsToRead > 0 || s.maxBytesToRead > 0) {
    if (s.maxRowsToRead > 0) params.push(['max_rows_to_read', s.maxRowsToRead]);
    if (s.maxBytesToRead > 0) params.push(['max_bytes_to_read', s.maxBytesToRead]);
    params.push(['read_overflow_mode', 'throw']);
  }
  if (s.maxMemoryUsage > 0) params.push(['max_memory_usage', s.maxMemoryUsage]);
  if (s.maxThreads > 0) params.push(['max_threads', s.maxThreads]);
  if (s.maxResultRows > 0) params.push(['max_result_rows', s.maxResultRows], ['result_overflow_mode', 'throw']);
  return params.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
}

/**
 * ClickHouse's error codes for a read stopped by one of these bounds, with the bound's name: 158 TOO_MANY_ROWS, 307
 * TOO_MANY_BYTES, 159 TIMEOUT_EXCEEDED, 241 MEMORY_LIMIT_EXCEEDED, 396 TOO_MANY_ROWS_OR_BYTES (the result).
 */
export const LIMIT_CODES: Record<number, { setting: keyof ReadSettings; what: string }> = {
  158: { setting: 'maxRowsToRead', what: 'rows to read' },
  307: { setting: 'maxBytesToRead', what: 'bytes to read' },
  159: { setting: 'maxExecutionTimeS', what: 'execution time' },
  241: { setting: 'maxMemoryUsage', what: 'memory' },
  396: { setting: 'maxResultRows', what: 'result rows' },
};

/** The environment variable of a setting (for messages). */
export const settingName = (key: keyof ReadSettings) => NAMES[key];

/** A storage refusal for one of the bounds, as a sentence naming the limit; undefined for other errors. */
export function limitRefusal(code: number | undefined, settings: ReadSettings = currentReadSettings()): string | undefined {
  const limit = code === undefined ? undefined : LIMIT_CODES[code];
  if (!limit) return undefined;
  const value = settings[limit.setting];
  const unit = limit.setting === 'maxExecutionTimeS' ? ' s' : '';
  return `the query exceeded the storage's limit on ${limit.what} (${settingName(limit.setting)}: ${value}${unit})`;
}
