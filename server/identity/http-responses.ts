import type { IncomingMessage, ServerResponse } from 'node:http';

// The few response shapes the identity server's own endpoints send (the provider answers its endpoints itself).

/** Largest form the login and registration pages accept. */
export const FORM_BODY_LIMIT = 16 * 1024;

export class FormTooLargeError extends Error {
  constructor() {
    super('form too large');
  }
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > FORM_BODY_LIMIT) throw new FormTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(html);
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

export function sendUnauthorized(res: ServerResponse): void {
  res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
  sendJson(res, 401, { error: 'invalid_token', error_description: 'A valid bearer access token is required.' });
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { Location: location, 'Cache-Control': 'no-store' });
  res.end();
}
