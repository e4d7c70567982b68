// One page for every path of a browser walk (e2e/model-walk.ts) that runs as the demo owner in Acme: signed in and
// switched to Acme once, its request gate installed once and reset per path; each path then opens its screen with
// a full load, which starts the page's actors afresh. Saves a context, a sign-in restore and the switch per path.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { enterAcme, type AcmeSession } from './acme-session';
import { asRole } from './fixtures';
import { RequestGate, type GatedRequest } from './request-gate';

export interface WalkPage<TName extends string> {
  page: Page;
  session: AcmeSession;
  gate: RequestGate<TName>;
}

export function ownerWalkPage<TName extends string>(gated: Record<TName, GatedRequest>) {
  let shared: (WalkPage<TName> & { context: BrowserContext }) | undefined;
  return {
    async open(browser: Browser, baseURL: string): Promise<WalkPage<TName>> {
      if (shared) {
        await shared.gate.reset();
        return shared;
      }
      const context = await browser.newContext({ baseURL, storageState: asRole('owner').storageState });
      const page = await context.newPage();
      const session = await enterAcme(page);
      const gate = await RequestGate.install(page, gated);
      shared = { context, page, session, gate };
      return shared;
    },
    async finish(): Promise<void> {
      await shared?.context.close();
      shared = undefined;
    },
  };
}
