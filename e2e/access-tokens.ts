// The access tokens the console receives from the identity server's token endpoint, read off the network the way
// a person's browser receives them, so a test can check the organization a token is scoped to.
import type { Page, Response } from '@playwright/test';

export interface ReceivedToken {
  raw: string;
  claims: Record<string, unknown>;
}

export function decodePayload(jwt: string): Record<string, unknown> {
  const [, payload] = jwt.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Every access token the page receives from now on, newest last. */
export function recordAccessTokens(page: Page): ReceivedToken[] {
  const tokens: ReceivedToken[] = [];
  page.on('response', async (response: Response) => {
    if (!response.url().includes('/protocol/openid-connect/token') || !response.ok()) return;
    const body = (await response.json().catch(() => null)) as { access_token?: string } | null;
    if (body?.access_token) tokens.push({ raw: body.access_token, claims: decodePayload(body.access_token) });
  });
  return tokens;
}
