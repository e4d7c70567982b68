// The account-deletion machine's generated paths walked in the browser (e2e/model-walk.ts): Account Settings' Delete
// account link and the modal at /account/delete, on a fresh verified account registered once through the identity
// server's page (the demo accounts stay as they are). Closing the modal leaves for /account, where the page's actor
// ends; the link starts the next one, which opens the modal as it mounts: a person sees closed → confirming either
// way. The one path that really deletes the account runs last. Refusals a fresh account cannot provoke (open
// invoices, a server failure) are a request gate's answers.
import type { BrowserContext } from '@playwright/test';
import { ErrorText } from '../contract/errors';
import { accountDeletionMachine } from '../src/machines/account-deletion/account-deletion.machine';
import { expect } from './fixtures';
import { FRESH_PASSWORD, freshVerifiedAccount, signInAgain } from './fresh-account';
import { describeBrowserModel, reuseIn, type WalkContext } from './model-walk';
import { RequestGate } from './request-gate';

const PAY_LINK = 'http://127.0.0.1:8080/api/payments/local/invoices/inv_1/pay';
const FAILURE = 'Something broke.';

type Walk = WalkContext<{ gate: RequestGate<'deleteAccount'> }>;

let context: BrowserContext | undefined;
let email = '';

const modal = (walk: Walk) => walk.page.getByRole('alertdialog');
const deletesAccount = (path: { steps: Array<{ event: { type: string } }> }) => path.steps.some((step) => step.event.type === 'xstate.done.actor.deleteAccount');

describeBrowserModel('account deletion: generated paths in the browser', {
  name: 'account-deletion',
  machine: accountDeletionMachine,
  samples: {
    events: {
      'deletion.open': [{ type: 'deletion.open' }],
      'deletion.confirm': [{ type: 'deletion.confirm' }],
      'deletion.close': [{ type: 'deletion.close' }],
      'xstate.done.actor.deleteAccount': [{ type: 'xstate.done.actor.deleteAccount', output: { message: 'Your account has been deleted.' } }],
      'xstate.error.actor.deleteAccount': [
        { type: 'xstate.error.actor.deleteAccount', error: Object.assign(new Error(ErrorText.pendingPayments), { status: 402, body: { message: ErrorText.pendingPayments, payment_link: PAY_LINK } }) },
        { type: 'xstate.error.actor.deleteAccount', error: Object.assign(new Error('Server error'), { status: 500, description: FAILURE }) },
      ],
    },
  },
  runLast: deletesAccount,
  async open({ browser, baseURL }) {
    if (!context) {
      context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      email = `deletion-walk-${Date.now()}@example.com`;
      await freshVerifiedAccount(page, email, 'Dora');
      await page.close();
    }
    const page = await context.newPage();
    await page.goto('/account');
    await expect(page.getByRole('link', { name: 'Delete account' })).toBeVisible({ timeout: 30_000 });
    const gate = await RequestGate.install(page, { deleteAccount: { method: 'DELETE', path: /\/api\/users\/?$/ } });
    return {
      page,
      world: { gate },
      close: async () => {
        // A path that ends in `deleting` leaves DELETE users held: it must never reach the server after the path.
        const held = await gate.waitFor('deleteAccount', 1).then(
          () => true,
          () => false,
        );
        if (held) await gate.answer('deleteAccount', 500, { message: 'Server error', description: FAILURE });
        await page.close();
      },
    };
  },
  // A path that ends on /account with the modal closed leaves the page as `open` gives it.
  reuse: reuseIn('closed'),
  finish: async () => {
    await context?.close();
    context = undefined;
  },
  states: {
    closed: async (walk) => {
      await expect(walk.page).toHaveURL(/\/account$/);
      await expect(modal(walk)).toHaveCount(0);
    },
    confirming: async (walk) => {
      await expect(modal(walk)).toContainText('Delete your account?');
      await expect(modal(walk).getByRole('button', { name: 'Delete my account' })).toBeEnabled();
      await expect(modal(walk).getByRole('alert')).toHaveCount(0);
    },
    deleting: async (walk) => {
      await walk.world.gate.waitFor('deleteAccount');
      await expect(modal(walk).getByRole('button', { name: /^(Delete my account|Try again)$/ })).toHaveAttribute('aria-busy', 'true');
      await expect(modal(walk).getByRole('button', { name: 'Cancel', exact: true })).toBeDisabled();
    },
    pendingPayments: async (walk) => {
      await expect(modal(walk)).toContainText(ErrorText.pendingPayments);
      await expect(modal(walk).getByRole('link', { name: 'Pay now' })).toHaveAttribute('href', PAY_LINK);
    },
    failed: async (walk) => {
      await expect(modal(walk).getByRole('alert')).toContainText(FAILURE);
      await expect(modal(walk).getByRole('button', { name: 'Try again' })).toBeEnabled();
    },
    deleted: async (walk) => {
      // Signed out of the identity server too: the console's root sends a signed-out visitor to the login page.
      await expect(walk.page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 20_000 });
      expect(await signInAgain(walk.page, email, FRESH_PASSWORD)).toBe(false);
    },
  },
  events: {
    'deletion.open': { perform: (walk) => walk.page.getByRole('link', { name: 'Delete account' }).click() },
    'deletion.confirm': { perform: (walk) => modal(walk).getByRole('button', { name: /^(Delete my account|Try again)$/ }).click() },
    // The footer's Cancel or Close, not the dialog's ✕ (also named Close), which comes after it.
    'deletion.close': { perform: (walk) => modal(walk).getByRole('button', { name: /^(Cancel|Close)$/ }).first().click() },
    'xstate.done.actor.deleteAccount': { perform: (walk) => walk.world.gate.release('deleteAccount') },
    'xstate.error.actor.deleteAccount': {
      perform: (walk, event) => {
        const error = (event as unknown as { error: { status: number } }).error;
        return error.status === 402
          ? walk.world.gate.answer('deleteAccount', 402, { message: ErrorText.pendingPayments, description: 'Please pay the open invoices.', payment_link: PAY_LINK })
          : walk.world.gate.answer('deleteAccount', 500, { message: 'Server error', description: FAILURE });
      },
    },
  },
});
