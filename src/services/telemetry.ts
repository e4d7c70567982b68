// Telemetry is batched (spec section 1): a batch leaves every 250 ms or as soon as it holds 50 items.

export interface TelemetryItem {
  name: string;
  time: number;
  attributes?: Record<string, string | number | boolean>;
}

export interface TelemetryBatcher {
  record(item: Omit<TelemetryItem, 'time'> & { time?: number }): void;
  flush(): void;
  stop(): void;
}

export const TELEMETRY_INTERVAL_MS = 250;
export const TELEMETRY_MAX_ITEMS = 50;

export function createTelemetryBatcher(options: {
  send: (items: TelemetryItem[]) => void | Promise<void>;
  intervalMs?: number;
  maxItems?: number;
  now?: () => number;
}): TelemetryBatcher {
  const intervalMs = options.intervalMs ?? TELEMETRY_INTERVAL_MS;
  const maxItems = options.maxItems ?? TELEMETRY_MAX_ITEMS;
  const now = options.now ?? Date.now;
  let queue: TelemetryItem[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    // Telemetry must never break the console: failures are dropped.
    Promise.resolve()
      .then(() => options.send(batch))
      .catch(() => undefined);
  };

  return {
    record(item) {
      queue.push({ ...item, time: item.time ?? now() });
      if (queue.length >= maxItems) flush();
      else if (!timer) timer = setTimeout(flush, intervalMs);
    },
    flush,
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      queue = [];
    },
  };
}
