import type { AddressRules } from '../../net/address-rules';
import { guardedRequest, RequestRefused } from '../../net/guarded-request';

// A few queries over ClickHouse's HTTP interface (basic auth; FORMAT JSON answers { data: [...] }). The platform
// needs only SELECTs and a handful of statements, so no client library is involved.

export interface ClickhouseEndpoint {
  host: string;
  port: number;
  secure?: boolean;
  user: string;
  password: string;
  /** A user-given server (an external cluster): connect only under these address rules, checked at connect time. */
  rules?: AddressRules;
}

export class ClickhouseError extends Error {
  constructor(
    message: string,
    /** ClickHouse's error code (193 wrong password, 195 address not allowed), or 0 when the server was not reached. */
    readonly code: number,
  ) {
    super(message);
  }
}

export async function clickhouseQuery<T = Record<string, unknown>>(endpoint: ClickhouseEndpoint, sql: string, options: { timeoutMs?: number; database?: string } = {}): Promise<T[]> {
  const text = await clickhouseExec(endpoint, `${sql} FORMAT JSON`, options);
  return (JSON.parse(text) as { data: T[] }).data;
}

export async function clickhouseExec(endpoint: ClickhouseEndpoint, sql: string, options: { timeoutMs?: number; database?: string } = {}): Promise<string> {
  // An IPv6 address goes in brackets in a URL.
  const host = endpoint.host.includes(':') && !endpoint.host.startsWith('[') ? `[${endpoint.host}]` : endpoint.host;
  const url = new URL(`${endpoint.secure ? 'https' : 'http'}://${host}:${endpoint.port}/`);
  if (options.database) url.searchParams.set('database', options.database);
  if (endpoint.rules) return guardedExec(url, endpoint, sql, options.timeoutMs ?? 5_000, endpoint.rules);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${endpoint.user}:${endpoint.password}`).toString('base64')}` },
      body: sql,
      signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new ClickhouseError(`Could not reach ${endpoint.host}:${endpoint.port} (${cause}).`, 0);
  }
  const text = await response.text();
  if (!response.ok) {
    const code = Number(/Code: (\d+)/.exec(text)?.[1] ?? 0);
    throw new ClickhouseError(text.split(', e.what()')[0].trim() || `HTTP ${response.status}`, code);
  }
  return text;
}

async function guardedExec(url: URL, endpoint: ClickhouseEndpoint, sql: string, timeoutMs: number, rules: AddressRules): Promise<string> {
  let answer;
  try {
    // No redirects: a ClickHouse server does not send any, and following one would reach an address nobody typed.
    answer = await guardedRequest(url.toString(), { method: 'POST', headers: { authorization: basicAuth(endpoint) }, body: sql, timeoutMs, maxRedirects: 0, maxBodyChars: 8 * 1024 * 1024 }, rules);
  } catch (error) {
    const cause = error instanceof RequestRefused ? 'address not allowed' : ((error as { code?: string }).code ?? (error as Error).name);
    throw new ClickhouseError(`Could not reach ${endpoint.host}:${endpoint.port} (${cause}).`, 0);
  }
  if (answer.status < 200 || answer.status >= 300) {
    const code = Number(/Code: (\d+)/.exec(answer.body)?.[1] ?? 0);
    throw new ClickhouseError(answer.body.split(', e.what()')[0].trim() || `HTTP ${answer.status}`, code);
  }
  return answer.body;
}

const basicAuth = (endpoint: ClickhouseEndpoint) => `Basic ${Buffer.from(`${endpoint.user}:${endpoint.password}`).toString('base64')}`;

/** True when the server answers SELECT 1 with these credentials. */
export async function answersSelectOne(endpoint: ClickhouseEndpoint, timeoutMs = 2_000): Promise<boolean> {
  try {
    return (await clickhouseExec(endpoint, 'SELECT 1', { timeoutMs })).trim() === '1';
  } catch {
    return false;
  }
}
