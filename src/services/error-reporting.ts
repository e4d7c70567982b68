// Error monitoring sits behind this small interface; the default keeps errors in the browser console only.

export interface ErrorReporter {
  setUser(user: { id: string; email?: string } | null): void;
  captureException(error: unknown, context?: Record<string, unknown>): void;
}

const consoleReporter: ErrorReporter = {
  setUser: () => undefined,
  captureException: (error, context) => {
    // Visible to developers only; the user sees the route error view or a toast instead.
    console.error('[reported]', error, context ?? '');
  },
};

let current: ErrorReporter = consoleReporter;

export function getErrorReporter(): ErrorReporter {
  return current;
}

export function setErrorReporter(reporter: ErrorReporter): void {
  current = reporter;
}

export function reportError(error: unknown, context?: Record<string, unknown>): void {
  current.captureException(error, context);
}
