import http from 'node:http';
import https from 'node:https';
import { AddressRefused, guardedLookup, parseHost, refusalOf, type AddressRules } from './address-rules';

// An HTTP(S) request to a user-given address under the address rules: the host must be a name or an address, every
// address it resolves to is checked at connect time, and redirects are followed by hand (at most a few), each hop
// checked again the same way. The answer's body is read up to a limit only.

export interface GuardedRequest {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Redirects to follow (each checked); 0 = none. */
  maxRedirects?: number;
  /** Characters of the answer's body kept (the rest is read and dropped). */
  maxBodyChars?: number;
  /** Skip the address rules: for the platform's own services (the project's qryn instance), never for user input. */
  trusted?: boolean;
}

export interface GuardedAnswer {
  status: number;
  body: string;
  url: string;
}

export class RequestRefused extends Error {
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
  }
}

export async function guardedRequest(target: string, request: GuardedRequest, rules: AddressRules): Promise<GuardedAnswer> {
  let url = new URL(target);
  let method = request.method;
  let body = request.body;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RequestRefused(`Only http and https addresses are allowed (got ${url.protocol}).`);
    if (url.username || url.password) throw new RequestRefused('Addresses with a user name or password in them are not allowed.');
    const host = parseHost(url.hostname);
    if (!host) throw new RequestRefused(`${url.hostname} is not a host name or address.`);
    const trusted = hop === 0 && Boolean(request.trusted);
    // Node connects to an address literal without any lookup, so the lookup's check would never run for it.
    if (!trusted && host.family !== 0) {
      const kind = refusalOf(host.host, rules);
      if (kind) throw new RequestRefused(new AddressRefused(url.hostname, host.host, kind).message);
    }
    const answer = await once(url, { ...request, method, body }, rules, trusted);
    const location = answer.headers.location;
    if (answer.status >= 300 && answer.status < 400 && location && hop < (request.maxRedirects ?? 0)) {
      url = new URL(location, url);
      // 303 (and 301/302 after a POST, as browsers do) turns into a GET without a body.
      if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      continue;
    }
    return { status: answer.status, body: answer.body, url: url.toString() };
  }
}

function once(url: URL, request: GuardedRequest, rules: AddressRules, trusted: boolean): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const client = url.protocol === 'https:' ? https : http;
  const limit = request.maxBodyChars ?? 64 * 1024;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: request.method,
        headers: { ...(request.headers ?? {}), ...(request.body !== undefined ? { 'content-length': String(Buffer.byteLength(request.body)) } : {}) },
        ...(trusted ? {} : { lookup: guardedLookup(rules) as unknown as typeof import('node:dns').lookup }),
        timeout: request.timeoutMs ?? 15_000,
        signal: request.signal,
        // A fresh connection per request: a pooled socket would skip the lookup (and the check) of a later call.
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < limit) text += chunk.slice(0, limit - text.length);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error instanceof AddressRefused) reject(new RequestRefused(error.message, error));
      else reject(error);
    });
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}
