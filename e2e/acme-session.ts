// Switching a signed-in demo user into the Acme organization and calling the API with the token the console holds.
import type { Page } from '@playwright/test';
import { recordAccessTokens, type ReceivedToken } from './access-tokens';
import { expect } from './fixtures';

export interface AcmeSession {
  organizationId: number;
  tokens: ReceivedToken[];
  api(method: 'GET' | 'POST' | 'DELETE', path: string, data?: unknown): ReturnType<Page['request']['fetch']>;
}

/**
 * Opens /projects, switches to Acme through the sidebar and waits for a token scoped to it. By keyboard, the link is
 * focused and Enter follows it, for the walks that use no mouse.
 */
export async function enterAcme(page: Page, by: 'mouse' | 'keyboard' = 'mouse'): Promise<AcmeSession> {
  const tokens = recordAccessTokens(page);
  await page.goto('/projects');
  await expect.poll(() => tokens.length).toBeGreaterThan(0);
  const acme = page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Acme' });
  if (by === 'mouse') await acme.click();
  else {
    await acme.focus();
    await page.keyboard.press('Enter');
  }
  await expect.poll(() => typeof tokens.at(-1)?.claims.organization_id).toBe('number');
  return {
    organizationId: tokens.at(-1)!.claims.organization_id as number,
    tokens,
    api: (method, path, data) =>
      page.request.fetch(`/api/${path}`, { method, headers: { Authorization: `Bearer ${tokens.at(-1)!.raw}` }, ...(data === undefined ? {} : { data }) }),
  };
}

/** A fresh project in Acme, made through the API; `name` gets a suffix so every call makes a new one. */
export async function freshAcmeProject(session: AcmeSession, name: string): Promise<{ id: number; slug: string }> {
  const created = await session.api('POST', 'projects/', { name: `${name} ${Date.now().toString(36)}` });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as { id: number; slug: string };
}
