// The three error kinds of the spec (section 3). Route error views and toasts read message and description.

/** A way out offered by a route error view (for example 'Go to Stack'). */
export interface ErrorAction {
  label: string;
  to: string;
}

export class ApiError extends Error {
  readonly description: string;
  readonly status: number;
  readonly type: string;
  readonly action?: ErrorAction;
  /** The parsed error body, for answers that carry more than message and description (e.g. payment_link). */
  readonly body?: unknown;
  constructor(message: string, options: { description?: string; status?: number; type?: string; action?: ErrorAction; body?: unknown } = {}) {
    super(message);
    this.name = 'ApiError';
    this.body = options.body;
    this.description = options.description ?? '';
    this.status = options.status ?? 400;
    this.type = options.type ?? 'api';
    this.action = options.action;
  }
}

export class AuthenticationError extends Error {
  readonly description: string;
  readonly status: number;
  constructor(message: string, options: { description?: string; status?: number } = {}) {
    super(message);
    this.name = 'AuthenticationError';
    this.description = options.description ?? '';
    this.status = options.status ?? 401;
  }
}

/** 401 with reason "reauthentication_required": the call needs a fresh sign-in; not a logout. */
export class ReauthenticationRequiredError extends Error {
  readonly description: string;
  readonly status = 401;
  readonly reason = 'reauthentication_required';
  constructor(message: string, options: { description?: string } = {}) {
    super(message);
    this.name = 'ReauthenticationRequiredError';
    this.description = options.description ?? '';
  }
}

export class ValidationError extends Error {
  readonly status: number;
  readonly details: Record<string, unknown>;
  constructor(message: string, options: { status?: number; details?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'ValidationError';
    this.status = options.status ?? 422;
    this.details = options.details ?? {};
  }
}

/** A GET that failed with 400/404: shown by the route error view and reported to monitoring. */
export class DataQueryError extends ApiError {
  constructor(message: string, options: { description?: string; status?: number } = {}) {
    super(message, { ...options, type: 'data-query' });
    this.name = 'DataQueryError';
  }
}

/** A mutation that failed with 400/500: reported, shown as an error toast, and a 400 result for the form. */
export class DataMutationError extends ApiError {
  constructor(message: string, options: { description?: string; status?: number } = {}) {
    super(message, { ...options, type: 'data-mutation' });
    this.name = 'DataMutationError';
  }
}

export class ServerError extends ApiError {
  constructor(message: string, options: { description?: string; status?: number } = {}) {
    super(message, { ...options, type: 'server' });
    this.name = 'ServerError';
  }
}

export const PARSE_ERROR_MESSAGE = 'Some data could not be parsed';
export const UNKNOWN_ERROR_MESSAGE = 'Unknown error';

/** Picks the human message of an error body: message, then error, then details, else 'Unknown error'. */
export function errorBodyMessage(body: unknown): string {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of ['message', 'error', 'details'] as const) {
      const value = record[key];
      if (typeof value === 'string' && value.trim() !== '') return value;
      // The card provider's shape: {error: {message, code}}.
      const nested = value && typeof value === 'object' ? (value as { message?: unknown }).message : undefined;
      if (typeof nested === 'string' && nested.trim() !== '') return nested;
    }
  }
  // A body that is not JSON (a proxy's HTML error page, say) is never shown as a heading.
  if (typeof body === 'string' && body.trim() !== '') return PARSE_ERROR_MESSAGE;
  return UNKNOWN_ERROR_MESSAGE;
}

export function errorBodyDescription(body: unknown): string {
  if (body && typeof body === 'object') {
    const value = (body as Record<string, unknown>).description;
    if (typeof value === 'string') return value;
  }
  return '';
}

/** A 422's details as the field messages a form shows (field name → messages). */
export function fieldErrorsOf(error: ValidationError): Record<string, string[]> {
  return Object.fromEntries(Object.entries(error.details).map(([key, value]) => [key, Array.isArray(value) ? value.map(String) : [String(value)]]));
}
