// The one HTTP client of the console (ky): API base URL, bearer token refreshed with a 5 s margin, snake_case
// bodies out, responses decoded with the contract/ schema (wire form) then camelCased in, and the spec's error
// mapping (000 section 8). The schema library is not imported here: a read with a contract schema loads the decoder
// (schema-decode.ts) on its first use, and the first reads of the shell use hand-written checks (wire-checks.ts), so
// the first paint needs no effect Schema.
import type { Schema } from 'effect';
import ky, { HTTPError, type Options } from 'ky';
import { resolveUrl, settings } from '../config/settings';
import { camelizeKeys, snakeizeKeys, type Camelize } from '../lib/case';
import { getAccessToken } from './auth';
import {
  ApiError,
  AuthenticationError,
  DataMutationError,
  DataQueryError,
  errorBodyDescription,
  errorBodyMessage,
  PARSE_ERROR_MESSAGE,
  ReauthenticationRequiredError,
  ServerError,
  ValidationError,
} from './errors';
import { reportError } from './error-reporting';
import { notifyUnauthorized } from './session-events';
import { toast } from './toast-store';
import type { WireCheck } from './wire-checks';
import { VALIDATION_ERROR_MESSAGE } from '../../contract/validation-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Decodable = Schema.Top & { readonly DecodingServices: never };

export interface RequestOptions {
  /** Query parameters, sent as given (the API's query names are already snake_case). */
  searchParams?: Record<string, string | number | boolean | undefined>;
  /** A JSON body written in camelCase; converted to snake_case on the way out. */
  json?: unknown;
  /** A form body (application/x-www-form-urlencoded), sent as is. */
  form?: Record<string, string>;
  signal?: AbortSignal;
  /** How long the call may take in ms (default REQUEST_TIMEOUT_MS); for calls whose work legitimately takes longer. */
  timeoutMs?: number;
}

/** The time limit of an ordinary call: the platform is considered unreachable after it. */
export const REQUEST_TIMEOUT_MS = 30_000;

function apiBase(): string {
  return resolveUrl(settings.apiUrl, globalThis.location?.origin ?? 'http://localhost');
}

const client = ky.create({
  retry: 0,
  timeout: REQUEST_TIMEOUT_MS,
  hooks: {
    beforeRequest: [
      async (request) => {
        const token = await getAccessToken();
        if (token) request.headers.set('authorization', `Bearer ${token}`);
      },
    ],
  },
});

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Maps a failed response to the spec's error kinds; GET and mutations differ. */
export function mapHttpError(method: HttpMethod, status: number, body: unknown): Error {
  const message = errorBodyMessage(body);
  const description = errorBodyDescription(body);
  // A GET refused with 401/403 means the session no longer holds (the spec logs the user out). A mutation refused
  // with 403 is an ordinary "you may not do this" (a read-only member, a non-owner): it is shown, not a logout.
  // A call that needs a recent sign-in (a password change) says so; the form sends the user to sign in again.
  if (status === 401 && (body as { reason?: unknown } | null)?.reason === 'reauthentication_required') {
    return new ReauthenticationRequiredError(message, { description });
  }
  if (status === 401 || (status === 403 && method === 'GET')) return new AuthenticationError(message, { description, status });
  const details = body && typeof body === 'object' && typeof (body as { details?: unknown }).details === 'object' ? ((body as { details: Record<string, unknown> }).details ?? {}) : {};
  if (status === 422) return new ValidationError(message, { details, status });
  // The integrations' calls answer broken rules with 400 and the same body (spec 001 §8): field messages for the
  // form, not a failed mutation. A 400 about the request's shape ('Invalid request') stays a data error.
  if (status === 400 && message === VALIDATION_ERROR_MESSAGE && (body as { details?: unknown }).details) return new ValidationError(message, { details, status });
  if (method === 'GET') {
    if (status === 400 || status === 404) return new DataQueryError(message, { description, status });
    if (status === 500 || status === 502) return new ServerError(message, { description, status });
    return new ApiError(message, { description, status });
  }
  if (status === 400 || status === 500) return new DataMutationError(message, { description, status });
  if (status === 404) return new ApiError(message, { description, status: 404 });
  return new ApiError(message, { description, status, body });
}

/** Side effects of a failed call: logout on 401 (403 for GET), monitoring for query/mutation errors, a toast for mutations. */
function handleError(error: Error): void {
  if (error instanceof AuthenticationError) {
    notifyUnauthorized();
    return;
  }
  if (error instanceof DataQueryError || error instanceof DataMutationError || error instanceof ServerError) reportError(error);
  const forbidden = error instanceof ApiError && error.status === 403;
  if (error instanceof DataMutationError || forbidden) toast.error(error.message, (error as ApiError).description || undefined);
}

/** The error a read whose answer does not match its contract shape gives (reported once, with its cause). */
export function wireDecodeFailure(cause: unknown): ApiError {
  const error = new ApiError(PARSE_ERROR_MESSAGE, { description: 'The server answered with data the console does not understand.', status: 500 });
  reportError(error, { cause });
  return error;
}

function kyOptionsFor(method: HttpMethod, options: RequestOptions): Options {
  const kyOptions: Options = { method, signal: options.signal, prefixUrl: apiBase() };
  if (options.timeoutMs !== undefined) kyOptions.timeout = options.timeoutMs;
  if (options.searchParams) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(options.searchParams)) if (value !== undefined) params.set(key, String(value));
    kyOptions.searchParams = params;
  }
  if (options.json !== undefined) kyOptions.json = snakeizeKeys(options.json);
  if (options.form) kyOptions.body = new URLSearchParams(options.form);
  return kyOptions;
}

async function send(method: HttpMethod, path: string, options: RequestOptions): Promise<unknown> {
  const kyOptions = kyOptionsFor(method, options);
  try {
    const response = await client(path.replace(/^\//, ''), kyOptions);
    return await readBody(response);
  } catch (cause) {
    if (cause instanceof HTTPError) {
      const error = mapHttpError(method, cause.response.status, await readBody(cause.response));
      handleError(error);
      throw error;
    }
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    // Network failure or timeout: the platform is unreachable.
    const error = new ServerError('We could not reach the server', { description: 'Please check your connection and reload the page.', status: 503 });
    reportError(error, { cause });
    if (method !== 'GET') toast.error(error.message, error.description);
    throw error;
  }
}

/** A call whose answer is decoded with its contract schema (the schema's module has loaded the library already). */
export async function request<S extends Decodable>(method: HttpMethod, path: string, schema: S, options: RequestOptions = {}): Promise<Camelize<S['Type']>> {
  const body = await send(method, path, options);
  const { decodeWire } = await import('./schema-decode');
  return decodeWire(schema, body);
}

/** A call whose answer is checked by a hand-written check (wire-checks.ts), for the reads the first paint needs. */
export async function requestChecked<T>(method: HttpMethod, path: string, check: WireCheck<T>, options: RequestOptions = {}): Promise<Camelize<T>> {
  const body = await send(method, path, options);
  let checked: T;
  try {
    checked = check(body);
  } catch (cause) {
    throw wireDecodeFailure(cause);
  }
  return camelizeKeys(checked);
}

/**
 * A request whose answer is read as it arrives (a streamed run): the same token, errors and toasts as request(), but
 * the caller reads the body. The time limit is off: a stream lasts as long as the work it reports.
 */
export async function openStream(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<Response> {
  const kyOptions: Options = { ...kyOptionsFor(method, options), timeout: false };
  try {
    return await client(path.replace(/^\//, ''), kyOptions);
  } catch (cause) {
    if (cause instanceof HTTPError) {
      const error = mapHttpError(method, cause.response.status, await readBody(cause.response));
      handleError(error);
      throw error;
    }
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ServerError('We could not reach the server', { description: 'Please check your connection and reload the page.', status: 503 });
  }
}

export const http = {
  /** A GET checked without the schema library (the shell's first reads). */
  read: <T>(path: string, check: WireCheck<T>, options?: RequestOptions) => requestChecked('GET', path, check, options),
  get: <S extends Decodable>(path: string, schema: S, options?: RequestOptions) => request('GET', path, schema, options),
  post: <S extends Decodable>(path: string, schema: S, options?: RequestOptions) => request('POST', path, schema, options),
  patch: <S extends Decodable>(path: string, schema: S, options?: RequestOptions) => request('PATCH', path, schema, options),
  put: <S extends Decodable>(path: string, schema: S, options?: RequestOptions) => request('PUT', path, schema, options),
  delete: <S extends Decodable>(path: string, schema: S, options?: RequestOptions) => request('DELETE', path, schema, options),
};
