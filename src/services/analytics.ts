// Product analytics sits behind this small interface; the default does nothing visible (no third-party host).

export interface Analytics {
  identify(userId: string, traits?: Record<string, unknown>): void;
  capture(event: string, properties?: Record<string, unknown>): void;
  /** Forgets the identity; resetDeviceId also forgets the anonymous device id (done on logout). */
  reset(options?: { resetDeviceId?: boolean }): void;
}

const silentAnalytics: Analytics = {
  identify: () => undefined,
  capture: () => undefined,
  reset: () => undefined,
};

let current: Analytics = silentAnalytics;

export function getAnalytics(): Analytics {
  return current;
}

/** Installs a real provider (for example from a lazily loaded module in production builds). */
export function setAnalytics(analytics: Analytics): void {
  current = analytics;
}
