// The PromQL read side's limits, as environment settings (README's configuration table, docs/qryn.md). Defaults are
// Prometheus' own (its --query.timeout, --query.max-samples, --query.lookback-delta and the API's 11,000 points).

import { parseSecondsOrDuration } from '../../../../packages/promql/parser/duration';

export interface PromqlSettings {
  /** Longest evaluation of one query; a `timeout` parameter may only shorten it. */
  timeoutMs: number;
  /** Most samples one query may hold in memory at once. */
  maxSamples: number;
  /** How far back an instant selector looks for a series' last sample. */
  lookbackDeltaMs: number;
  /** Most points per series of a range query ((end − start) / step + 1). */
  maxPointsPerSeries: number;
  /** Worker threads that evaluate queries off the gateway's event loop. */
  workers: number;
}

/** A Prometheus duration (`1m30s`, `250ms`) or seconds with a fraction (`90`, `1.5`), in ms; undefined if invalid. */
export function parseDurationMs(text: string): number | undefined {
  try {
    return parseSecondsOrDuration(text);
  } catch {
    return undefined;
  }
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number, read: (text: string) => number | undefined): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = read(raw.trim());
  if (value === undefined || !Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive ${read === parseDurationMs ? 'duration (e.g. 2m)' : 'whole number'}, not "${raw}".`);
  return value;
}

const integer = (text: string) => (/^\d+$/.test(text) ? Number(text) : undefined);

export function promqlSettings(env: NodeJS.ProcessEnv = process.env): PromqlSettings {
  return {
    timeoutMs: positive(env, 'QRYN_PROMQL_TIMEOUT', 120_000, parseDurationMs),
    maxSamples: positive(env, 'QRYN_PROMQL_MAX_SAMPLES', 50_000_000, integer),
    lookbackDeltaMs: positive(env, 'QRYN_PROMQL_LOOKBACK_DELTA', 300_000, parseDurationMs),
    maxPointsPerSeries: positive(env, 'QRYN_PROMQL_MAX_POINTS', 11_000, integer),
    workers: positive(env, 'QRYN_PROMQL_WORKERS', 2, integer),
  };
}
