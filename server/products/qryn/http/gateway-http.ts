import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzipSync, inflateSync } from 'node:zlib';
import { uncompressSync } from 'snappy';
import { IngestError } from '../ingest/batch';
import type { QrynInstanceRow } from '../instances/qryn-repository';
import type { StorageClient } from '../storage/storage-client';

// What the gateway's parts share: the error that carries an HTTP status, reading a bounded (and possibly
// compressed) body, form parameters, the JSON answers in the shape Loki and Prometheus clients parse, and the
// request a read API is handed once the caller is authenticated.

/** An access token (a JWT: three base64url parts, the header starting `{"`), never an instance token (`qt_…`). */
export const SESSION_BEARER = /^Bearer\s+(eyJ[\w-]*\.[\w-]+\.[\w-]+)\s*$/i;

export const MAX_BODY_BYTES = 16 * 1024 * 1024;
export const MAX_DECODED_BYTES = 64 * 1024 * 1024;

export type Scope = 'read' | 'write';
export interface Access {
  instance: QrynInstanceRow;
  scopes: Set<Scope>;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * An authenticated read, handed to each read API (Prometheus, Loki, Tempo) in turn; the first that knows the path
 * answers it. `lookup` is the instance's server-side cache of label and series lookups (docs/qryn.md).
 */
export interface ReadRequest {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  /** The path below the instance: `/api/v1/query`, `/loki/api/v1/labels`, … */
  path: string;
  url: URL;
  access: Access;
  storage: StorageClient;
  nowNs: bigint;
  lookup<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /** The cache key part for a time range (the days a lookup reads). */
  dayKey(range: { startNs: bigint; endNs: bigint }): string;
  log(message: string): void;
}

/** A read API: answers the request and returns true, or returns false when the path is not one of its calls. */
export type ReadApi = (request: ReadRequest) => Promise<boolean>;

/**
 * Reads a body, bounded in size. `account`, when given, is told every byte held (the declared length first, then
 * what arrives beyond it, then the decompressed size) and may throw to refuse the body before it is held
 * (the gateway's in-flight bound, gateway-limits.ts).
 */
export async function readBody(req: IncomingMessage, account?: (bytes: number) => void): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) {
    req.resume();
    throw new HttpError(413, `The body must be at most ${MAX_BODY_BYTES} bytes.`);
  }
  if (account && Number.isFinite(declared) && declared > 0) {
    try {
      account(declared);
    } catch (error) {
      req.resume();
      throw error;
    }
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const before = size;
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `The body must be at most ${MAX_BODY_BYTES} bytes.`);
    if (account && size > declared) account(size - Math.max(before, declared));
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks);
  const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
  try {
    if (encoding === 'gzip' || encoding === 'deflate') {
      const decoded = encoding === 'gzip' ? gunzipSync(raw, { maxOutputLength: MAX_DECODED_BYTES }) : inflateSync(raw, { maxOutputLength: MAX_DECODED_BYTES });
      account?.(decoded.length);
      return decoded;
    }
  } catch (error) {
    if (error instanceof HttpError || error instanceof IngestError) throw error;
    throw new IngestError(`The body could not be decompressed (${encoding}).`);
  }
  // Prometheus sends `Content-Encoding: snappy` with remote write; the protobuf paths always decompress snappy.
  if (encoding && encoding !== 'identity' && encoding !== 'snappy') throw new HttpError(415, `Unsupported content encoding "${encoding.slice(0, 20)}".`);
  return raw;
}

export const contentType = (req: IncomingMessage) => String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();

export function parseJsonBody(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new IngestError('The body is not valid JSON.');
  }
}

/** Form bodies the gateway has already read (to check their length before any read API runs). */
const readForms = new WeakMap<IncomingMessage, URLSearchParams>();

/** Reads a form-encoded read call's body once; formParams then answers from it. */
export async function preloadForm(req: IncomingMessage, url: URL): Promise<URLSearchParams> {
  const params = await formParams(req, url);
  readForms.set(req, params);
  return params;
}

/** The query string, and for POST the form-encoded body (Prometheus and Loki clients send either). */
export async function formParams(req: IncomingMessage, url: URL): Promise<URLSearchParams> {
  const preloaded = readForms.get(req);
  if (preloaded) return new URLSearchParams(preloaded);
  const params = new URLSearchParams(url.search);
  if (req.method === 'POST') {
    if (contentType(req) !== 'application/x-www-form-urlencoded') throw new HttpError(415, 'Send the parameters form-encoded (application/x-www-form-urlencoded).');
    for (const [k, v] of new URLSearchParams((await readBody(req)).toString('utf8'))) params.append(k, v);
  }
  return params;
}

/** Snappy block format (Loki protobuf, remote write); the declared length is checked before decompressing. */
export function unsnappy(raw: Buffer, account?: (bytes: number) => void): Buffer {
  let length = 0;
  let shift = 0;
  for (let i = 0; i < Math.min(raw.length, 5); i++) {
    length += (raw[i] & 0x7f) * 2 ** shift;
    shift += 7;
    if ((raw[i] & 0x80) === 0) break;
  }
  if (raw.length === 0) throw new IngestError('The body is empty: a snappy-compressed protobuf message was expected.');
  if (length > MAX_DECODED_BYTES) throw new HttpError(413, 'The decompressed body is too large.');
  account?.(length);
  try {
    return uncompressSync(raw, { asBuffer: true }) as Buffer;
  } catch {
    throw new IngestError('The body is not snappy-compressed (block format).');
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), 'cache-control': 'no-store' });
  res.end(payload);
}

export const success = (res: ServerResponse, data: unknown) => sendJson(res, 200, { status: 'success', data });

export function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify({ status: 'error', errorType: status === 400 ? 'bad_data' : 'error', error: message, message });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), 'cache-control': 'no-store', ...headers });
  res.end(payload);
}

export function empty(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'cache-control': 'no-store' });
  res.end();
}

export function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
