import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// The developer pages show every user's verification links and invitation codes and move business time: any process
// on the machine (a customer's ClickHouse server with url(), a neighbour's script) could open them on the loopback
// address. So they answer only with a key that the platform prints at start next to their address: in the address
// (?key=, which also sets a cookie for the /dev pages, so the page's own forms and reloads work), in the
// X-Dev-Pages-Key header (scripts and tests), or in that cookie.

export const DEV_PAGES_COOKIE = 'dev_pages_key';
export const DEV_PAGES_HEADER = 'x-dev-pages-key';

/** DEV_PAGES_KEY when given (at least 16 characters), else a new random key for this start. */
export function devPagesKeyFrom(env: NodeJS.ProcessEnv): string {
  const given = env.DEV_PAGES_KEY;
  if (given === undefined || given === '') return randomBytes(24).toString('base64url');
  if (given.length < 16) throw new Error('DEV_PAGES_KEY must be at least 16 characters (or unset for a random key per start).');
  return given;
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of String(req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/**
 * True when the request carries the key. A key in the address is moved into a cookie. Otherwise answers 404, as for
 * a page that does not exist, and false.
 */
export function admitDevPageRequest(req: IncomingMessage, res: ServerResponse, key: string): boolean {
  const fromQuery = new URL(req.url ?? '/', 'http://x').searchParams.get('key');
  const header = req.headers[DEV_PAGES_HEADER];
  const offered = [fromQuery, typeof header === 'string' ? header : undefined, cookieValue(req, DEV_PAGES_COOKIE)];
  if (offered.some((value) => value !== undefined && value !== null && same(value, key))) {
    if (fromQuery !== null && same(fromQuery, key)) {
      res.setHeader('Set-Cookie', `${DEV_PAGES_COOKIE}=${encodeURIComponent(key)}; Path=/dev; HttpOnly; SameSite=Strict`);
    }
    return true;
  }
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end('Not found. The developer pages need the key printed by npm start (…/dev/outbox?key=…).');
  return false;
}
