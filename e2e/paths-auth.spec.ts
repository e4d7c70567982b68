// The auth machine's generated paths walked in the browser (e2e/model-walk.ts): the console's sign-in session, from
// keycloak-js's check-sso on a page load through the identity server's login page, the organization switch in the
// sidebar, a token refresh, a session ended in another tab and the logout. Each path gets a context of its own, as
// sign-in state is the subject: signed out for a path that starts without a session, the demo owner's saved session
// for one that keeps it, and a sign-in of its own through the login page for one that ends it (ending the saved
// session would sign every later spec out). The paths are walked from two inputs, written to the console's
// localStorage orgId before it loads: Acme remembered (the samples' input), and the personal account remembered, the
// only way a browser finds a session ready on load (a sign-in's first tokens are never scoped to an organization).
//
// The identity server's requests are held by the request gate while the state that waits for them is checked, then
// let through; the page's own navigations there (the login redirect, the logout) are stopped and then made as the
// page made them (e2e/request-gate.ts, `navigation`). What a person cannot make the identity server answer is the
// gate's answer to the real request: its token endpoint failing while keycloak-js starts (503), refusing an
// organization exchange (400 invalid_grant, as for an organization the user no longer belongs to), and answering
// the sign-in's code without a refresh token (as a client without refresh tokens is answered).
import type { Page } from '@playwright/test';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { authMachine, type AuthMachine } from '../src/machines/auth/auth.machine';
import { SAMPLE_SIGN_IN_FAILURE, authInput, authPersonalInput, authSamples } from '../src/machines/auth/auth.samples';
import type { AuthSession } from '../src/services/auth';
import { STORAGE_KEYS } from '../src/services/browser-storage';
import { tokenOrganizationId } from '../src/services/token';
import { recordAccessTokens, type ReceivedToken } from './access-tokens';
import { demoAccounts } from './demo-accounts';
import { asRole, expect } from './fixtures';
import { signInThroughConsole } from './login-page';
import { describeBrowserModel, type BrowserModel, type WalkContext } from './model-walk';
import { RequestGate } from './request-gate';

const tokenEndpoint = /\/protocol\/openid-connect\/token$/;
const gated = {
  // keycloak-js's check-sso: the login address without a page (prompt=none), loaded in a hidden frame.
  checkSso: { method: 'GET', path: /\/protocol\/openid-connect\/auth\?(?=.*prompt=none)/ },
  loginRedirect: { method: 'GET', path: /\/protocol\/openid-connect\/auth\?(?!.*prompt=none)/, navigation: true },
  codeExchange: { method: 'POST', path: tokenEndpoint, body: /(^|&)grant_type=authorization_code(&|$)/ },
  accountExchange: { method: 'POST', path: tokenEndpoint, body: /(^|&)organization_id=/ },
  logout: { method: 'GET', path: /\/protocol\/openid-connect\/logout$/, navigation: true },
} as const;

type Account = 'acme' | 'personal';

interface World {
  gate: RequestGate<keyof typeof gated>;
  tokens: ReceivedToken[];
  acmeId: number;
  /** The account the console acts as once signed in: the one its token is scoped to. */
  account: Account;
  /** The account the running exchange asks for. */
  asked: Account;
}

type Walk = WalkContext<World>;

const owner = demoAccounts.owner;
const sidebar = (walk: Walk) => walk.page.getByRole('complementary', { name: 'Sidebar' });
const accountLink = (walk: Walk, account: Account) => sidebar(walk).getByRole('link', { name: account === 'acme' ? /^Acme/ : /^Personal account/ });
const userMenu = (page: Page) => page.getByRole('button', { name: `User menu for ${owner.name}` });
const accountOf = (organizationId: number | null): Account => (organizationId === null ? 'personal' : 'acme');

async function expectLoading(walk: Walk, label: string): Promise<void> {
  await expect(walk.page.getByTestId('full-page-loading').getByRole('status')).toHaveText(label);
  await expect(userMenu(walk.page)).toHaveCount(0);
}

/** The session a sample event carries: an outcome's output or a refresh's session. */
const sessionOf = (event: AnyEventObject): AuthSession | null => (event as { output?: AuthSession | null; session?: AuthSession }).output ?? (event as { session?: AuthSession }).session ?? null;

// The real Acme's id, read once from the demo owner's sidebar: the samples' Acme stands for it.
let acmeId: number | undefined;

async function findAcme(page: Page): Promise<number> {
  await page.goto('/projects');
  const href = await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: /^Acme/ }).getAttribute('href');
  const id = Number(new URL(href ?? '', 'http://console').searchParams.get('organization'));
  expect(id, `the sidebar's Acme link (${href}) names the organization`).toBeGreaterThan(0);
  return id;
}

/** A fresh context for one path, with the account `remembered` written where the console reads it on load. */
const openRemembering =
  (remembered: Account): BrowserModel<AuthMachine, World>['open'] =>
  async ({ browser, baseURL, path }) => {
    if (acmeId === undefined) {
      const context = await browser.newContext({ baseURL, storageState: asRole('owner').storageState });
      acmeId = await findAcme(await context.newPage());
      await context.close();
    }
    const events = path.steps.slice(1).map((step) => step.event);
    const first = events[0];
    // A path that starts with a failing start-up is signed in too: keycloak-js fails on the sign-in's code.
    const signedIn = !(first?.type === 'xstate.done.actor.initialiseSession' && sessionOf(first) === null);
    const endsSession = events.some((event) => event.type === 'auth.logout' || event.type === 'auth.session.expired');
    const context = await browser.newContext({ baseURL, storageState: signedIn && !endsSession ? asRole('owner').storageState : undefined });
    const page = await context.newPage();
    // Time passes for a token to near its end: installed before the console loads, so keycloak-js reads it too.
    if (events.some((event) => event.type === 'auth.token.refreshed' || event.type === 'auth.session.expired')) await page.clock.install();
    if (signedIn && endsSession) await signInThroughConsole(page, baseURL, owner.email);
    else await page.goto('/silent-check-sso.html'); // a page of the console's origin, to write its storage
    // Empty for the personal account, as the console itself stores it (services/account-mode.ts).
    const stored = remembered === 'acme' ? String(acmeId) : '';
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [STORAGE_KEYS.organizationId, stored] as const);
    const tokens = recordAccessTokens(page);
    const gate = await RequestGate.install(page, gated);
    // Not waiting for the load event: the held check-sso frame would delay it.
    await page.goto('/', { waitUntil: 'commit' });
    const world: World = { gate, tokens, acmeId, account: 'personal', asked: 'acme' };
    return { page, world, close: () => context.close() };
  };

describeBrowserModel('auth: generated paths in the browser', {
  name: 'auth',
  // The node actor that keeps in step with the page only tells states apart: the page's warning is enough.
  machine: authMachine.provide({ actions: { warnSwitchFailed: () => undefined } }),
  samples: authSamples,
  open: openRemembering('acme'),
  variants: [
    { name: 'Acme remembered', input: authInput },
    { name: 'personal account remembered', input: authPersonalInput, open: openRemembering('personal') },
  ],
  states: {
    initialising: async (walk) => {
      await walk.world.gate.waitFor('checkSso');
      await expectLoading(walk, 'Loading');
    },
    // Signed out, a protected page asks for the login page at once (RequireAuth): the gate stops that redirect.
    unauthenticated: async (walk) => {
      await walk.world.gate.waitFor('loginRedirect');
      await expectLoading(walk, 'Loading');
    },
    redirectingToLogin: async (walk) => {
      await expect(walk.page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      expect(new URL(walk.page.url()).pathname).toMatch(/^\/realms\/observability\//);
      await expect(walk.page.getByLabel('Email')).toBeVisible();
    },
    switchingAccount: async (walk) => {
      await walk.world.gate.waitFor('accountExchange');
      await expect(walk.page.getByTestId('full-page-loading').getByRole('status')).toHaveText('Switching account');
    },
    authenticated: async (walk) => {
      await expect(userMenu(walk.page)).toBeVisible();
      await expect(accountLink(walk, walk.world.account)).toHaveAttribute('aria-current', 'true');
      await expect(accountLink(walk, walk.world.account === 'acme' ? 'personal' : 'acme')).not.toHaveAttribute('aria-current', 'true');
      const organization = walk.world.tokens.at(-1)?.claims.organization_id ?? null;
      expect(organization, 'the organization of the token the console received last').toBe(walk.world.account === 'acme' ? walk.world.acmeId : null);
    },
    loggingOut: async (walk) => {
      await walk.world.gate.waitFor('logout');
      await expectLoading(walk, 'Signing out');
    },
    failed: async (walk) => {
      const alert = walk.page.getByRole('alert').filter({ has: walk.page.getByRole('heading', { name: 'We could not sign you in' }) });
      await expect(alert).toContainText(SAMPLE_SIGN_IN_FAILURE);
      await expect(alert.getByRole('button', { name: 'Try again' })).toBeEnabled();
    },
  },
  events: {
    'xstate.done.actor.initialiseSession': {
      // The identity server's check-sso answers: no session (a fresh browser), or a code the console exchanges for
      // its first tokens.
      perform: async (walk, event) => {
        const session = sessionOf(event);
        await walk.world.gate.release('checkSso');
        if (!session) return;
        walk.world.account = 'personal';
        walk.world.asked = 'acme';
        if (session.hasRefreshToken) await walk.world.gate.release('codeExchange');
        else await walk.world.gate.rewrite('codeExchange', withoutRefreshToken);
      },
      unreachableSample: (event) =>
        tokenOrganizationId(sessionOf(event)?.claims ?? null) === null
          ? undefined
          : "a sign-in's first tokens are never scoped to an organization: the identity server keeps the organization on the refresh-token chain (server/identity/organization-switch.ts), so a remembered organization is reached through the exchange (switchingAccount)",
    },
    'xstate.error.actor.initialiseSession': {
      perform: async (walk) => {
        await walk.world.gate.release('checkSso');
        await walk.world.gate.answer('codeExchange', 503, { error: 'temporarily_unavailable', error_description: 'The identity server is not available.' });
      },
    },
    'auth.retry': { perform: (walk) => walk.page.getByRole('button', { name: 'Try again' }).click() },
    // A person's part is opening a page of the console: RequireAuth asks for the login page by itself.
    'auth.login': { perform: (walk) => walk.world.gate.release('loginRedirect') },
    'xstate.error.actor.redirectToLogin': {
      unreachable:
        "keycloak-js's login only builds the login address (with the Web Crypto its check-sso already used to start the session) and navigates: nothing a person or the identity server does makes it fail",
    },
    'organization.switch': {
      perform: async (walk, event) => {
        walk.world.asked = accountOf((event as unknown as { organizationId: number | null }).organizationId);
        await accountLink(walk, walk.world.asked).click();
      },
    },
    'xstate.done.actor.exchangeRefreshToken': {
      perform: async (walk) => {
        await walk.world.gate.release('accountExchange');
        walk.world.account = walk.world.asked;
      },
      unreachableSample: (event, from) =>
        tokenOrganizationId(sessionOf(event)?.claims ?? null) === from.context.selectedOrganizationId
          ? undefined
          : 'the identity server scopes exchanged tokens to the account asked for, or refuses the exchange',
    },
    'xstate.error.actor.exchangeRefreshToken': {
      perform: (walk) => walk.world.gate.answer('accountExchange', 400, { error: 'invalid_grant', error_description: 'You are not a member of this organization.' }),
    },
    // Time passes until the access token nears its end, then the person opens another page: keycloak-js refreshes
    // the token before the page's first request.
    'auth.token.refreshed': {
      perform: async (walk) => {
        const received = walk.world.tokens.length;
        await outliveAccessToken(walk);
        await expect.poll(() => walk.world.tokens.length, 'a refreshed token').toBeGreaterThan(received);
      },
      unreachableSample: (event, from) => {
        if (tokenOrganizationId(sessionOf(event)?.claims ?? null) === tokenOrganizationId(from.context.decodedToken)) return refreshBlocked(from);
        return 'a refresh keeps the organization of its refresh-token chain: tokens for another account come only from the exchange';
      },
    },
    // The person signs out in another tab of the same browser: the identity server ends the session, so this tab's
    // next refresh is refused (400 invalid_grant) and keycloak-js drops the session.
    'auth.session.expired': {
      perform: async (walk) => {
        const other = await walk.page.context().newPage();
        await other.goto('/logout');
        await expect(other.getByRole('heading', { name: 'Sign in' })).toBeVisible();
        await other.close();
        const refresh = walk.page.waitForResponse((response) => response.request().method() === 'POST' && tokenEndpoint.test(new URL(response.url()).pathname));
        await outliveAccessToken(walk);
        expect((await refresh).status(), 'the identity server refuses the refresh').toBe(400);
      },
      unreachableSample: (_event, from) => refreshBlocked(from),
    },
    'auth.logout': { perform: (walk) => sidebar(walk).getByRole('link', { name: 'Logout' }).click() },
    // The identity server ends its session and sends the browser back to the console, which loads signed out: that
    // is the machine's loggingOut → unauthenticated for a person. The page that asked leaves, so its own endSession
    // never settles (services/auth.ts says why); the console that loads finds no session in its check-sso.
    'xstate.done.actor.endSession': {
      perform: async (walk) => {
        await walk.world.gate.release('logout');
        await walk.world.gate.release('checkSso');
      },
    },
    'xstate.error.actor.endSession': {
      unreachable:
        "keycloak-js's logout only builds the identity server's logout address and leaves the page: it cannot fail in the console (an identity server that is down shows its error after the console has left)",
    },
  },
});

/** The identity server's answer to the sign-in's code as a client without refresh tokens gets it. */
function withoutRefreshToken(body: unknown): unknown {
  return Object.fromEntries(Object.entries(body as Record<string, unknown>).filter(([key]) => key !== 'refresh_token'));
}

function refreshBlocked(from: AnyMachineSnapshot): string | undefined {
  return from.context.hasRefreshToken ? undefined : 'without a refresh token keycloak-js never asks the identity server again (a token the API refuses logs out instead)';
}

/** The page's clock moves past the access token's life, then the person opens the Billing page (its reads need a token). */
async function outliveAccessToken(walk: Walk): Promise<void> {
  const exp = Number(walk.world.tokens.at(-1)?.claims.exp);
  expect(exp, 'the expiry of the token the console holds').toBeGreaterThan(0);
  await walk.page.clock.setSystemTime(exp * 1000 + 1_000);
  await sidebar(walk).getByRole('link', { name: 'Billing', exact: true }).click();
}
