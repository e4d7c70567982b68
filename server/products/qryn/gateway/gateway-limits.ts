import { HttpError } from '../http/gateway-http';

// The gateway's guards against one tenant (or anyone) exhausting the platform (docs/qryn.md, "Limits"; every
// figure is an environment variable with a default):
// - bytes in flight: push bodies being read, decompressed, decoded or written are counted per instance and overall;
//   a push that would pass the instance's share is answered 429, one that would pass the overall bound 503, both
//   before the body is held in memory (the declared length is reserved first, then every chunk);
// - per push: at most so many distinct series;
// - per instance: samples (log lines, metric samples, spans) per second, a token bucket with a burst;
// - failed sign-ins per credential and per address: past the allowance within a window, 429 until it ends;
// - per instance: bytes stored (stored-bytes.ts), measured in ClickHouse every few seconds; over it pushes get 429.

export interface GatewayLimits {
  /** Push bytes held at once over all instances (raw and decompressed). */
  inflightBytes: number;
  /** Push bytes held at once by one instance. */
  instanceInflightBytes: number;
  /** Distinct series in one push. */
  seriesPerPush: number;
  /** Samples (lines, metric samples, spans) per second and instance, sustained. */
  samplesPerSecond: number;
  /** Samples one instance may send at once above the sustained rate (also the largest push accepted). */
  samplesBurst: number;
  /** Failed sign-ins allowed per credential and per address within failedLoginWindowMs. */
  failedLogins: number;
  failedLoginWindowMs: number;
  /** Characters of a query (`query`, `match[]`, `q`, …) the read calls accept. */
  maxQueryLength: number;
  /**
   * How long a credential's access is kept before the database is asked again. A rotated key or deleted token is
   * dropped from it at once on every instance (docs/architecture.md "Growing past one machine"); this bounds what
   * a missed notification leaves stale.
   */
  authCacheMs: number;
  /** Bytes on disk one instance may store; past them pushes are refused (0 = no quota). */
  maxStoredBytes: number;
  /** How old the measure of an instance's stored bytes may be before the store is asked again. */
  storedBytesRefreshMs: number;
}

export const DEFAULT_GATEWAY_LIMITS: GatewayLimits = {
  inflightBytes: 256 * 1024 * 1024,
  instanceInflightBytes: 64 * 1024 * 1024,
  seriesPerPush: 10_000,
  samplesPerSecond: 50_000,
  samplesBurst: 100_000,
  failedLogins: 20,
  failedLoginWindowMs: 5 * 60_000,
  maxQueryLength: 4_096,
  authCacheMs: 2_000,
  // 10 GB (decimal, the unit storage is priced in: docs/qryn.md "Costs"): room for weeks of a small tenant's
  // compressed data, and small enough that a few tenants cannot fill the one disk of the embedded storage server.
  maxStoredBytes: 10_000_000_000,
  storedBytesRefreshMs: 5_000,
};

const ENV: Record<keyof GatewayLimits, string> = {
  inflightBytes: 'QRYN_INFLIGHT_BYTES',
  instanceInflightBytes: 'QRYN_INSTANCE_INFLIGHT_BYTES',
  seriesPerPush: 'QRYN_SERIES_PER_PUSH',
  samplesPerSecond: 'QRYN_SAMPLES_PER_SECOND',
  samplesBurst: 'QRYN_SAMPLES_BURST',
  failedLogins: 'QRYN_FAILED_LOGINS',
  failedLoginWindowMs: 'QRYN_FAILED_LOGIN_WINDOW_MS',
  maxQueryLength: 'QRYN_MAX_QUERY_LENGTH',
  authCacheMs: 'QRYN_AUTH_CACHE_MS',
  maxStoredBytes: 'QRYN_MAX_STORED_BYTES',
  storedBytesRefreshMs: 'QRYN_STORED_BYTES_REFRESH_MS',
};

/** Limits that 0 turns off. */
const ZERO_IS_OFF = new Set<keyof GatewayLimits>(['maxStoredBytes']);

/** The limits from the environment, defaults where unset; a malformed value is refused by name. */
export function gatewayLimits(env: Record<string, string | undefined>): GatewayLimits {
  const limits = { ...DEFAULT_GATEWAY_LIMITS };
  for (const key of Object.keys(ENV) as (keyof GatewayLimits)[]) {
    const value = env[ENV[key]];
    if (value === undefined || value === '') continue;
    const n = Number(value);
    if (ZERO_IS_OFF.has(key) && n === 0) {
      limits[key] = 0;
      continue;
    }
    if (!Number.isSafeInteger(n) || n <= 0) {
      throw new Error(`${ENV[key]} must be a positive whole number${ZERO_IS_OFF.has(key) ? ' or 0 (off)' : ''} (got "${value}").`);
    }
    limits[key] = n;
  }
  return limits;
}

/** What the gateway refused of one instance since the platform started (its Overview shows them). */
export interface Refusals {
  /** Pushes answered 429 or 503 because too many bytes were in flight. */
  busy: number;
  /** Pushes over the series or rate limits. */
  overLimit: number;
  /** Requests refused after too many failed sign-ins. */
  throttledLogins: number;
  /** Pushes refused because the instance stored more than its quota. */
  overQuota: number;
}

export function createGatewayGuards(limits: GatewayLimits, nowMs: () => number = Date.now) {
  let total = 0;
  const perInstance = new Map<string, number>();
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refusals = new Map<string, Refusals>();
  const failures = new Map<string, { count: number; until: number }>();

  const refusalsOf = (instanceId: string) => {
    let entry = refusals.get(instanceId);
    if (!entry) {
      entry = { busy: 0, overLimit: 0, throttledLogins: 0, overQuota: 0 };
      // Instance ids in paths are not checked before sign-in: unknown ones are counted but not kept without bound.
      if (refusals.size < 10_000) refusals.set(instanceId, entry);
    }
    return entry;
  };

  return {
    limits,

    /** A ticket counting one push's bytes; `add` throws 429/503 past a bound, `release` gives them back. */
    ticket(instanceId: string) {
      let held = 0;
      return {
        add(bytes: number): void {
          const mine = perInstance.get(instanceId) ?? 0;
          if (mine + bytes > limits.instanceInflightBytes) {
            refusalsOf(instanceId).busy++;
            throw new HttpError(429, `This instance has too much data being written at the moment (at most ${limits.instanceInflightBytes} bytes at once). Retry shortly.`, { 'retry-after': '1' });
          }
          if (total + bytes > limits.inflightBytes) {
            refusalsOf(instanceId).busy++;
            throw new HttpError(503, 'The ingestion gateway is busy. Retry shortly.', { 'retry-after': '1' });
          }
          perInstance.set(instanceId, mine + bytes);
          total += bytes;
          held += bytes;
        },
        release(): void {
          if (held === 0) return;
          total -= held;
          const left = (perInstance.get(instanceId) ?? held) - held;
          if (left <= 0) perInstance.delete(instanceId);
          else perInstance.set(instanceId, left);
          held = 0;
        },
      };
    },

    /** Bytes in flight now (overall, or of one instance). */
    inflight: (instanceId?: string) => (instanceId === undefined ? total : (perInstance.get(instanceId) ?? 0)),

    /** Checks a decoded push against the series and rate limits; takes its samples from the bucket when it passes. */
    admit(instanceId: string, push: { series: number; samples: number }): void {
      if (push.series > limits.seriesPerPush) {
        refusalsOf(instanceId).overLimit++;
        throw new HttpError(429, `A push may carry at most ${limits.seriesPerPush} distinct series (this one has ${push.series}). Split it.`);
      }
      if (push.samples > limits.samplesBurst) {
        refusalsOf(instanceId).overLimit++;
        throw new HttpError(429, `A push may carry at most ${limits.samplesBurst} lines or samples (this one has ${push.samples}). Split it.`);
      }
      const now = nowMs();
      const bucket = buckets.get(instanceId) ?? { tokens: limits.samplesBurst, at: now };
      bucket.tokens = Math.min(limits.samplesBurst, bucket.tokens + ((now - bucket.at) / 1000) * limits.samplesPerSecond);
      bucket.at = now;
      if (bucket.tokens < push.samples) {
        buckets.set(instanceId, bucket);
        refusalsOf(instanceId).overLimit++;
        const waitS = Math.max(1, Math.ceil((push.samples - bucket.tokens) / limits.samplesPerSecond));
        throw new HttpError(429, `This instance sends more than ${limits.samplesPerSecond} lines or samples per second. Retry in ${waitS} s.`, { 'retry-after': String(waitS) });
      }
      bucket.tokens -= push.samples;
      buckets.set(instanceId, bucket);
    },

    /** Throws 429 while a credential or an address has used up its failed sign-ins. */
    checkLogin(instanceId: string, keys: string[]): void {
      const now = nowMs();
      for (const key of keys) {
        const entry = failures.get(key);
        if (entry && entry.until > now && entry.count >= limits.failedLogins) {
          refusalsOf(instanceId).throttledLogins++;
          const waitS = Math.ceil((entry.until - now) / 1000);
          throw new HttpError(429, `Too many failed sign-ins. Try again in ${waitS} s.`, { 'retry-after': String(waitS) });
        }
      }
    },

    failedLogin(keys: string[]): void {
      const now = nowMs();
      if (failures.size > 100_000) for (const [key, entry] of failures) if (entry.until <= now) failures.delete(key);
      for (const key of keys) {
        const entry = failures.get(key);
        if (!entry || entry.until <= now) failures.set(key, { count: 1, until: now + limits.failedLoginWindowMs });
        else entry.count++;
      }
    },

    /** Counts a push refused over the stored-bytes quota (stored-bytes.ts decides). */
    overQuota(instanceId: string): void {
      refusalsOf(instanceId).overQuota++;
    },

    refusals: (instanceId: string): Refusals => ({ ...refusalsOf(instanceId) }),
  };
}

export type GatewayGuards = ReturnType<typeof createGatewayGuards>;
