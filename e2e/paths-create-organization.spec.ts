// The create-organization machine's generated paths walked in the browser (e2e/model-walk.ts): the wizard at
// /organization/create, signed in through the real login page as a fresh verified account (a new one once an
// account has created its organization), or as the demo owner for the 'already owns one' answer.
import type { BrowserContext, Page } from '@playwright/test';
import { ErrorText } from '../contract/errors';
import {
  BILLING_ACCOUNT_ERROR,
  LOAD_ERROR,
  NAME_CHECK_ERROR,
  NAME_TAKEN_MESSAGE,
  RESUME_MESSAGE,
  ORGANIZATION_ERROR,
  ORGANIZATION_ERROR_TITLE,
  SUCCESS_MESSAGE,
  createOrganizationMachine,
  organizationNameErrors,
} from '../src/machines/create-organization/create-organization.machine';
import { createOrganizationSamples } from '../src/machines/create-organization/create-organization.samples';
import { asRole, expect } from './fixtures';
import { fillCardForm, followMailLink, registerThroughConsole } from './fresh-account';
import { describeBrowserModel, type WalkContext } from './model-walk';
import { RequestGate } from './request-gate';

const gated = {
  loadStart: { method: 'GET', path: /^\/api\/organizations\/users\/owner\/?$/ },
  checkName: { method: 'GET', path: /^\/api\/stripe\/billing-account-id\/?$/ },
  createBillingAccount: { method: 'POST', path: /^\/api\/billing\/?$/ },
  createOrganization: { method: 'POST', path: /^\/api\/organizations\/?$/ },
  // The organization switch exchanges the refresh token at the identity server.
  // The organization switch exchanges the refresh token at the identity server; signing in posts there too, so it
  // is held only from the moment the organization exists.
  switchOrganization: { method: 'POST', path: /\/protocol\/openid-connect\/token$/, armLater: true },
} as const;

interface World {
  gate: RequestGate<keyof typeof gated>;
  /** The valid name this walk types for the samples' 'New Org' (billing account names are unique per user). */
  name: string;
  /** The name the wizard shows. */
  shown: () => string;
}

type Walk = WalkContext<World>;
type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

// One fresh account per worker, replaced once it owns an organization (the wizard then only offers the switch).
let account: { state: StorageState; ownsOrganization: boolean } | undefined;
let typed = '';

const status = (walk: Walk) => walk.page.getByRole('main').getByRole('status');
const createButton = (walk: Walk) => walk.page.getByRole('button', { name: 'Create', exact: true });
const nameField = (walk: Walk) => walk.page.getByRole('textbox', { name: /^Organization name/ });
const tryAgain = async (walk: Walk) => expect(walk.page.getByRole('button', { name: 'Try again' })).toBeVisible();
const serverError = (description: string) => ({ error: 'Server error', description });

/**
 * What a person leaves behind on an earlier visit: a billing account under this name (the wizard remembers it), and
 * with `withCard` a card on it too, the organization itself not created (the connection dropped at that moment).
 */
async function leaveDraft(page: Page, name: string, withCard: boolean): Promise<void> {
  await page.goto('/organization/create');
  await page.getByRole('textbox', { name: /^Organization name/ }).fill(name);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('form', { name: 'Card' })).toBeVisible();
  if (withCard) {
    const dropOrganization = /\/api\/organizations\/?$/;
    await page.route(dropOrganization, (route) => (route.request().method() === 'POST' ? route.abort() : route.fallback()));
    await fillCardForm(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Add card and create organization' }).click();
    await expect(page.getByText(ORGANIZATION_ERROR_TITLE).first()).toBeVisible();
    await page.unroute(dropOrganization);
  }
  typed = name;
}

describeBrowserModel('create organization: generated paths in the browser', {
  name: 'create-organization',
  machine: createOrganizationMachine,
  samples: createOrganizationSamples,
  async open({ browser, baseURL, path }) {
    const owner = path.steps.some((step) => step.event.type === 'xstate.done.actor.loadStart' && (step.event as { output?: { owned?: unknown } }).output?.owned);
    if (!owner && (!account || account.ownsOrganization)) {
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      const email = `walk-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;
      await registerThroughConsole(page, '/projects', email, 'Walker');
      await followMailLink(page, email, /verify-email/);
      await expect(page.getByRole('heading', { name: 'Email verified' })).toBeVisible();
      account = { state: await context.storageState(), ownsOrganization: false };
      await context.close();
    }
    const context = await browser.newContext({ baseURL, storageState: owner ? asRole('owner').storageState : account!.state });
    const page = await context.newPage();
    const name = `Walk ${Date.now().toString(36)}`;
    typed = '';
    const draft = path.steps.map((step) => (step.event as { output?: { draft?: { hasCard: boolean } | null } }).output?.draft).find(Boolean);
    if (draft) await leaveDraft(page, name, draft.hasCard);
    // The user's own unfinished billing account, left in another browser: the same visit, without this one's draft.
    const abandoned = path.steps
      .map((step) => (step.event.type === 'xstate.done.actor.checkName' ? (step.event as { output?: { unfinished?: boolean; hasCard?: boolean } }).output : undefined))
      .find((output) => output?.unfinished);
    if (abandoned) {
      await leaveDraft(page, name, abandoned.hasCard === true);
      await page.evaluate(() => localStorage.removeItem('organizationDraft'));
    }
    const gate = await RequestGate.install(page, gated);
    await page.goto('/organization/create');
    const createsOrganization = path.steps.some((step) => step.event.type === 'xstate.done.actor.createOrganization');
    return {
      page,
      world: { gate, name, shown: () => typed },
      close: async () => {
        if (createsOrganization && account) account.ownsOrganization = true;
        await context.close();
      },
    };
  },
  states: {
    loading: async (walk) => {
      await walk.world.gate.waitFor('loadStart');
      await expect(status(walk)).toHaveText('Loading…');
    },
    loadFailed: async (walk) => {
      await expect(walk.page.getByText(LOAD_ERROR)).toBeVisible();
      await tryAgain(walk);
    },
    alreadyOwner: async (walk) => {
      await expect(walk.page.getByText(ErrorText.alreadyOwnsOrganization)).toBeVisible();
      await expect(walk.page.getByRole('button', { name: 'Switch to Acme' })).toBeVisible();
    },
    'naming.editing': async (walk) => {
      await expect(createButton(walk)).toBeDisabled();
      const [rule] = walk.world.shown().trim() ? organizationNameErrors(walk.world.shown()) : [];
      if (rule) await expect(walk.page.getByText(rule)).toBeVisible();
      else await expect(walk.page.getByText(/Must be at least|must match/)).toHaveCount(0);
    },
    'naming.checking': async (walk) => {
      await walk.world.gate.waitFor('checkName');
      await expect(walk.page.getByText('Checking the name…')).toBeVisible();
      await expect(createButton(walk)).toBeDisabled();
    },
    'naming.taken': async (walk) => {
      await expect(walk.page.getByText(NAME_TAKEN_MESSAGE)).toBeVisible();
      await expect(createButton(walk)).toBeDisabled();
    },
    'naming.checkFailed': async (walk) => {
      await expect(walk.page.getByText(NAME_CHECK_ERROR)).toBeVisible();
      await expect(createButton(walk)).toBeDisabled();
    },
    'naming.resumable': async (walk) => {
      await expect(walk.page.getByText(RESUME_MESSAGE)).toBeVisible();
      await expect(createButton(walk)).toBeEnabled();
    },
    'naming.available': async (walk) => {
      await expect(createButton(walk)).toBeEnabled();
      await expect(walk.page.getByRole('list', { name: 'Steps' }).locator('[aria-current="step"]')).toHaveText('1. Name');
    },
    creatingBillingAccount: async (walk) => {
      await walk.world.gate.waitFor('createBillingAccount');
      await expect(status(walk)).toHaveText('Creating the billing account…');
    },
    billingAccountFailed: async (walk) => {
      await expect(walk.page.getByText(BILLING_ACCOUNT_ERROR)).toBeVisible();
      await tryAgain(walk);
    },
    card: async (walk) => {
      await expect(walk.page.getByRole('list', { name: 'Steps' }).locator('[aria-current="step"]')).toHaveText('2. Card');
      await expect(walk.page.getByRole('form', { name: 'Card' })).toBeVisible();
    },
    // Shown for the spec's 500 ms pause and while the organization is created.
    waiting: async (walk) => expect(walk.page.getByText(`Creating your organization ${walk.world.shown()}…`)).toBeVisible(),
    creatingOrganization: async (walk) => {
      await walk.world.gate.waitFor('createOrganization');
      await expect(status(walk)).toHaveText(`Creating your organization ${walk.world.shown()}…`);
    },
    organizationFailed: async (walk) => {
      await expect(walk.page.getByText(ORGANIZATION_ERROR_TITLE).first()).toBeVisible();
      await expect(walk.page.getByText(ORGANIZATION_ERROR)).toBeVisible();
      await tryAgain(walk);
    },
    // The console's own sign-in screen covers the wizard while the session is exchanged for the organization's.
    switching: async (walk) => {
      await walk.world.gate.waitFor('switchOrganization');
      await expect(walk.page.getByRole('status').filter({ hasText: 'Switching account' })).toBeVisible();
    },
    switchFailed: {
      unreachable:
        "the console's sign-in screen replaces the wizard while the session is switched, which stops the wizard's actor; " +
        'after a refused switch the wizard starts afresh and offers the switch to the organization the user now owns',
    },
    done: async (walk) => {
      await walk.page.waitForURL((url) => url.pathname === '/organization');
      await expect(walk.page.getByText(SUCCESS_MESSAGE)).toBeVisible();
      await expect(walk.page.getByText(`${walk.world.shown()} Team`)).toBeVisible();
    },
  },
  events: {
    'name.change': {
      perform: async (walk, event) => {
        const sample = (event as unknown as { name: string }).name;
        // The samples' valid name stands for a name this account has not used yet.
        typed = organizationNameErrors(sample).length === 0 ? walk.world.name : sample;
        await nameField(walk).fill(typed);
      },
    },
    'organization.create': { perform: (walk) => createButton(walk).click() },
    'card.attached': {
      perform: async (walk) => {
        await fillCardForm(walk.page, '4242 4242 4242 4242');
        await walk.page.getByRole('button', { name: 'Add card and create organization' }).click();
      },
    },
    retry: { perform: (walk) => walk.page.getByRole('button', { name: 'Try again' }).click() },
    'xstate.done.actor.loadStart': {
      perform: async (walk, event) => {
        await walk.world.gate.release('loadStart');
        // A remembered draft is checked against the server's billing accounts (the same call as the name check).
        if ((event as { output?: { draft?: unknown } }).output?.draft) await walk.world.gate.release('checkName');
      },
    },
    'xstate.error.actor.loadStart': { perform: (walk) => walk.world.gate.answer('loadStart', 500, serverError('down')) },
    'xstate.done.actor.checkName': {
      // Free: the real server (the name is new). Taken: the server's answer names a billing account, as it does for
      // a name this user already gave one.
      perform: (walk, event) =>
        (event as unknown as { output: { billingAccountId: number | null; unfinished?: boolean } }).output.billingAccountId === null ||
        (event as unknown as { output: { unfinished?: boolean } }).output.unfinished
          ? walk.world.gate.release('checkName')
          : walk.world.gate.rewrite('checkName', (body) => ({ ...(body as object), billing_account_id: 5 })),
    },
    'xstate.error.actor.checkName': { perform: (walk) => walk.world.gate.answer('checkName', 500, serverError('down')) },
    'xstate.done.actor.createBillingAccount': { perform: (walk) => walk.world.gate.release('createBillingAccount') },
    'xstate.error.actor.createBillingAccount': { perform: (walk) => walk.world.gate.answer('createBillingAccount', 500, { error: 'Server error' }) },
    'xstate.done.actor.createOrganization': {
      perform: async (walk) => {
        walk.world.gate.arm('switchOrganization');
        await walk.world.gate.release('createOrganization');
      },
    },
    'xstate.error.actor.createOrganization': { perform: (walk) => walk.world.gate.answer('createOrganization', 500, { error: 'Server error' }) },
    'xstate.done.actor.switchOrganization': { perform: (walk) => walk.world.gate.release('switchOrganization') },
    'xstate.error.actor.switchOrganization': {
      perform: (walk) => walk.world.gate.answer('switchOrganization', 400, { error: 'invalid_grant', error_description: 'refused' }),
    },

  },
});
