// Counts attempts per key in a fixed window (in this process's memory): enough to stop a script from using the
// platform as a port scanner or a password guesser through the external-cluster connect. A restart forgets the counts;
// the window is short, so that costs an attacker one window at most.
export interface AttemptLimiter {
  /** Takes one attempt for the key: 0 when allowed, else the seconds until the window ends. */
  take(key: string): number;
}

export function createAttemptLimiter(options: { attempts: number; windowMs: number; now?: () => number }): AttemptLimiter {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key) {
      const at = now();
      // Forget windows that ended, so the map stays as small as the number of recent callers.
      if (windows.size > 10_000) for (const [k, w] of windows) if (at - w.start >= options.windowMs) windows.delete(k);
      let window = windows.get(key);
      if (!window || at - window.start >= options.windowMs) windows.set(key, (window = { start: at, count: 0 }));
      if (window.count >= options.attempts) return Math.ceil((window.start + options.windowMs - at) / 1000);
      window.count += 1;
      return 0;
    },
  };
}
