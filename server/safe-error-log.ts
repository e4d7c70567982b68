// What an unexpected error may put in the log: its kind, message, database error code and where it happened, never
// the SQL statement or its parameters (emails, invitation codes, tokens) that database drivers attach to errors.

const KEPT_FIELDS = ['code', 'severity', 'routine', 'constraint', 'table', 'column'] as const;

export function describeErrorForLog(error: unknown): string {
  if (!(error instanceof Error)) return `non-error thrown: ${typeof error}`;
  const details = error as unknown as Record<string, unknown>;
  const kept = KEPT_FIELDS.filter((field) => typeof details[field] === 'string' && details[field] !== '').map((field) => `${field}=${String(details[field])}`);
  const stack = (error.stack ?? '').split('\n').slice(1, 6).join('\n');
  return `${error.name}: ${error.message}${kept.length ? ` (${kept.join(', ')})` : ''}${stack ? `\n${stack}` : ''}`;
}
