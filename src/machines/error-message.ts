// The text a machine shows for a failed call: the API error's description, else its message, else the flow's own
// fallback sentence.
export function errorMessage(error: unknown, fallback: string): string {
  const e = error as { description?: unknown; message?: unknown } | null;
  if (e && typeof e.description === 'string' && e.description) return e.description;
  if (e && typeof e.message === 'string' && e.message) return e.message;
  return fallback;
}
