// The read scheduler's settings (README's configuration table, docs/qryn.md "Reads of many instances"), read from
// the environment once at the platform's start; a malformed one stops the start naming it.

export interface ReadSchedulerSettings {
  /** Reads running at once over every instance (what the query workers and the storage can serve side by side). */
  concurrency: number;
  /** Reads one instance may have running at once: less than `concurrency`, so the others always find room. */
  instanceRunning: number;
  /** Reads one instance may have waiting; one more is refused (429 with Retry-After). */
  instanceQueued: number;
}

export const DEFAULT_READ_SCHEDULER_SETTINGS: ReadSchedulerSettings = { concurrency: 8, instanceRunning: 2, instanceQueued: 16 };

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw.trim()) < min) throw new Error(`${name} must be a whole number of at least ${min}, not "${raw}".`);
  return Number(raw.trim());
}

export function readSchedulerSettings(env: NodeJS.ProcessEnv = process.env): ReadSchedulerSettings {
  const concurrency = whole(env, 'QRYN_READ_CONCURRENCY', DEFAULT_READ_SCHEDULER_SETTINGS.concurrency, 1);
  const instanceRunning = whole(env, 'QRYN_READ_INSTANCE_RUNNING', Math.min(DEFAULT_READ_SCHEDULER_SETTINGS.instanceRunning, concurrency), 1);
  if (instanceRunning > concurrency) {
    throw new Error(`QRYN_READ_INSTANCE_RUNNING must not be above QRYN_READ_CONCURRENCY (${concurrency}), not "${env.QRYN_READ_INSTANCE_RUNNING}".`);
  }
  const instanceQueued = whole(env, 'QRYN_READ_INSTANCE_QUEUED', DEFAULT_READ_SCHEDULER_SETTINGS.instanceQueued, 0);
  return { concurrency, instanceRunning, instanceQueued };
}
