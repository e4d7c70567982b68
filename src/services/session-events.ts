// A tiny bridge from the HTTP client to the auth actor, kept apart from http.ts so the first route does not load
// the HTTP client (and its schemas) just to listen for 401/403.

let unauthorizedListener: (() => void) | null = null;

/** The auth actor registers here: a 401/403 from the API logs the user out. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListener = listener;
  return () => {
    if (unauthorizedListener === listener) unauthorizedListener = null;
  };
}

export function notifyUnauthorized(): void {
  unauthorizedListener?.();
}
