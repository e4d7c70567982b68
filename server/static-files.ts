import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { createGzip } from 'node:zlib';

// The CSP of the console: no inline script anywhere. Inline styles are allowed because the component library
// sets runtime style attributes; frames only from this origin (keycloak-js's silent check-sso iframe).
export const CONSOLE_CSP = buildConsoleCsp();

/**
 * With the hosted card provider configured (STRIPE_PUBLISHABLE_KEY), the card form loads the provider's script and
 * its card iframes, so exactly those origins are added; with the local provider (the default) nothing is.
 */
export function buildConsoleCsp(options: { hostedPayments?: boolean } = {}): string {
  const stripe = options.hostedPayments;
  return [
    "default-src 'self'",
    `script-src 'self'${stripe ? ' https://js.stripe.com' : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${stripe ? ' https://api.stripe.com' : ''}`,
    `frame-src 'self'${stripe ? ' https://js.stripe.com https://hooks.stripe.com' : ''}`,
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), usb=(), payment=(self "https://js.stripe.com")';

// Pages that keycloak-js loads in a hidden iframe of the console must be frameable by the console itself.
const FRAMEABLE_PAGES = new Set(['/silent-check-sso.html']);

/** Headers every response of the platform carries; framing is refused unless a page opts in. */
export function setSecurityHeaders(
  res: ServerResponse,
  options: { frameable?: boolean; csp?: string } = {},
): void {
  const base = options.csp ?? CONSOLE_CSP;
  const csp = options.frameable ? base.replace("frame-ancestors 'none'", "frame-ancestors 'self'") : base;
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Frame-Options', options.frameable ? 'SAMEORIGIN' : 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.map', '.txt', '.webmanifest']);

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head>
<body><h1>The console is not built</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds it when needed), then reload.</p></body></html>`;

/**
 * Serves Vite's dist/: hashed files under /assets/ are immutable for a year; everything else revalidates; an
 * unknown path gets index.html (the console's router decides), so deep links work. Text files are gzipped when
 * the client accepts it, using a precompressed .gz beside the file when the build made one.
 */
export function createStaticFileHandler(staticDir: string, options: { hostedPayments?: boolean } = {}) {
  const root = path.resolve(staticDir);
  const csp = buildConsoleCsp(options);
  return async function serveStatic(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed');
      return;
    }
    const pathname = safeDecodePath(req.url);
    if (pathname === undefined) {
      // A malformed percent-escape is the client's mistake: answer 400, never a server error.
      setSecurityHeaders(res, { csp });
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Bad request: the address is not valid.');
      return;
    }
    setSecurityHeaders(res, { frameable: FRAMEABLE_PAGES.has(pathname), csp });
    const candidate = path.resolve(root, `.${pathname}`);
    let file = candidate.startsWith(root + path.sep) ? candidate : undefined;
    if (file && !(await isFile(file))) file = undefined;
    const hashedAsset = !!file && pathname.startsWith('/assets/');
    if (!file) {
      // A missing hashed asset is a real 404 (an old tab asking for a file of the previous build), not a page.
      if (pathname.startsWith('/assets/')) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Not found');
        return;
      }
      file = path.join(root, 'index.html');
      if (!(await isFile(file))) {
        res.writeHead(503, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : NOT_BUILT);
        return;
      }
    }
    const ext = path.extname(file).toLowerCase();
    const headers: Record<string, string> = {
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'Cache-Control': hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
      Vary: 'Accept-Encoding',
    };
    const gzip = COMPRESSIBLE.has(ext) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (gzip) {
      headers['Content-Encoding'] = 'gzip';
      const precompressed = `${file}.gz`;
      res.writeHead(200, headers);
      if (req.method === 'HEAD') return void res.end();
      if (await isFile(precompressed)) createReadStream(precompressed).pipe(res);
      else createReadStream(file).pipe(createGzip()).pipe(res);
      return;
    }
    const body = await readFile(file);
    headers['Content-Length'] = String(body.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

function safeDecodePath(url: string | undefined): string | undefined {
  try {
    return decodeURIComponent(new URL(url ?? '/', 'http://x').pathname);
  } catch {
    return undefined;
  }
}
