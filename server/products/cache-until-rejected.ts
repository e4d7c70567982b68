// A value loaded once and shared (a credential box read from the database): a failed load is not kept, so the next
// call loads again instead of answering the same rejection until the process restarts.
export function cacheUntilRejected<T>(load: () => Promise<T>): () => Promise<T> {
  let cached: Promise<T> | undefined;
  return () =>
    (cached ??= load().catch((error: unknown) => {
      cached = undefined;
      throw error;
    }));
}
