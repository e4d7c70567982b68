import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeInput } from '../../contract/common';
import { VALIDATION_ERROR_MESSAGE } from '../../contract/validation-error';
import type { Schema } from 'effect';

/** Largest request body the API reads; telemetry batches and every form fit well below it. */
export const MAX_BODY_BYTES = 64 * 1024;

/** An answer other than 2xx. Thrown anywhere in a route, turned into `{message, description}` by the handler. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly description: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, description: string) => new ApiError(400, message, description);
export const forbidden = (description: string) => new ApiError(403, 'Forbidden', description);
export const notFound = (description: string) => new ApiError(404, 'Not found', description);
export const conflict = (message: string, description: string) => new ApiError(409, message, description);

/** 422 with field messages (the same `{field: [messages]}` the console forms show). */
export class ValidationError extends ApiError {
  constructor(readonly details: Record<string, string[]>) {
    super(422, VALIDATION_ERROR_MESSAGE, 'Some fields are not valid.', { details });
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** For a body serialized once and sent many times (shared reads). */
export function sendJsonText(res: ServerResponse, status: number, payload: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

const tooLarge = (limit: number) => new ApiError(413, 'Payload too large', `The request body must be at most ${limit} bytes.`);

// The body the API handler read before routing (to refuse NUL bytes and oversize bodies on every route alike).
const PRE_READ = Symbol('preReadBody');

/** Reads the whole body up to `limit` bytes (413 beyond), remembering it so readBody can decode it later. */
export async function preReadBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  const body = Buffer.concat(chunks);
  (req as IncomingMessage & { [PRE_READ]?: Buffer })[PRE_READ] = body;
  return body;
}

/** Reads the body up to MAX_BODY_BYTES; JSON or urlencoded by content type; empty body is `{}`. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const preRead = (req as IncomingMessage & { [PRE_READ]?: Buffer })[PRE_READ];
  const raw = preRead ?? (await preReadBody(req, limit));
  if (raw.length > limit) throw tooLarge(limit);
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('Malformed JSON', 'The request body is not valid JSON.');
  }
}

/** True when a string anywhere in the value holds a NUL character (PostgreSQL text cannot store one). */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object') return Object.entries(value).some(([key, entry]) => key.includes('\u0000') || containsNul(entry));
  return false;
}

export const nulRefused = () => badRequest('Invalid characters', 'The request contains a NUL character (\\u0000), which no value may hold.');

/** Decodes with a contract schema: shape problems are 400, broken rules 422 with field messages. */
export function decodeOrThrow<S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, input: unknown): S['Type'] {
  const outcome = decodeInput(schema, input);
  if (outcome.ok) return outcome.value;
  if (outcome.shape) {
    const summary = Object.entries(outcome.errors)
      .map(([field, messages]) => `${field}: ${messages.join(', ')}`)
      .join('; ');
    throw new ApiError(400, 'Invalid request', `The request does not have the expected shape (${summary}).`, {
      details: outcome.errors,
    });
  }
  throw new ValidationError(outcome.errors);
}
