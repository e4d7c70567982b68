// @vitest-environment jsdom
// Model-based test of the account-deletion machine (the /account/delete modal) with its pending-payment branch:
// every generated path is replayed on a real actor with DELETE users as a controlled double, and through the modal.
import { useSelector } from '@xstate/react';
import { expect } from 'vitest';
import { ErrorText } from '../../contract/errors';
import { accountDeletionMachine } from '../../src/machines/account-deletion/account-deletion.machine';
import { ApiError } from '../../src/services/errors';
import { DELETE_ACCOUNT_WARNING, DeleteAccountDialog } from '../../src/views/account/delete-account-dialog';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const LINK = 'http://127.0.0.1:8080/api/payments/local/invoices/inv_1/pay';
const signedOut: string[] = [];
let left = 0;
const machine = accountDeletionMachine.provide({
  actions: { signOut: (_, params) => void signedOut.push(params.message), leave: () => void left++ },
});

const pending = new ApiError(ErrorText.pendingPayments, { status: 402, description: 'Please pay the open invoices.', body: { message: ErrorText.pendingPayments, payment_link: LINK } });
const events = {
  'deletion.open': [{ type: 'deletion.open' }],
  'deletion.confirm': [{ type: 'deletion.confirm' }],
  'deletion.close': [{ type: 'deletion.close' }],
  'xstate.done.actor.deleteAccount': [{ type: 'xstate.done.actor.deleteAccount', output: { message: 'Your account has been deleted.' } }],
  'xstate.error.actor.deleteAccount': [
    { type: 'xstate.error.actor.deleteAccount', error: pending },
    { type: 'xstate.error.actor.deleteAccount', error: new ApiError('Server error', { status: 500, description: 'Something broke.' }) },
  ],
} satisfies ModelEvents<typeof machine>;

const states = {
  closed: (s) => {
    expect(s.context.paymentLink).toBeNull();
    expect(s.context.error).toBeNull();
  },
  confirming: (s) => expect(s.can({ type: 'deletion.confirm' })).toBe(true),
  deleting: (s) => expect(s.can({ type: 'deletion.close' })).toBe(false),
  pendingPayments: (s) => {
    expect(s.context.paymentLink).toBe(LINK);
    expect(s.can({ type: 'deletion.confirm' })).toBe(false);
  },
  failed: (s) => expect(s.context.error).toBe('Something broke.'),
  deleted: (s) => {
    expect(s.status).toBe('done');
    expect(signedOut.at(-1)).toBe('Your account has been deleted.');
  },
} satisfies ModelStates<typeof machine>;

function Harness({ actor }: { actor: Parameters<typeof DeleteAccountDialog>[0]['actor'] }) {
  const closed = useSelector(actor, (s) => s.matches('closed'));
  return (
    <>
      <button type="button" disabled={!closed} onClick={() => actor.send({ type: 'deletion.open' })}>
        Delete account
      </button>
      <DeleteAccountDialog actor={actor} />
    </>
  );
}

const dialog = (screen: ViewScreen) => {
  const element = screen.getByRole('alertdialog');
  expect(element.getAttribute('data-state')).toBe('open');
  return element;
};

const viewEvents = {
  'deletion.open': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Delete account' })),
  'deletion.confirm': ({ screen, user }) => user.click(screen.getByRole('button', { name: /Delete my account|Try again/ })),
  'deletion.close': ({ screen, user }) => user.click(screen.getAllByRole('button', { name: /^(Close|Cancel)$/ }).find((b) => !b.getAttribute('aria-label'))!),
} satisfies ViewEvents<typeof machine>;

const closedView = ({ screen }: { screen: ViewScreen }) => expect(screen.queryByRole('alertdialog')?.getAttribute('data-state') ?? 'closed').toBe('closed');
const viewStates = {
  closed: closedView,
  confirming: ({ screen }) => expect(dialog(screen).textContent).toContain(DELETE_ACCOUNT_WARNING),
  deleting: ({ screen }) => expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true),
  pendingPayments: ({ screen }) => {
    expect(dialog(screen).textContent).toContain(ErrorText.pendingPayments);
    expect(screen.getByRole('link', { name: 'Pay now' }).getAttribute('href')).toBe(LINK);
  },
  failed: ({ screen }) => {
    expect(dialog(screen).textContent).toContain('Something broke.');
    expect(screen.getAllByRole('button', { name: 'Close' }).length).toBeGreaterThan(0);
  },
  deleted: closedView,
} satisfies ViewStates<typeof machine>;

describeModel('account deletion machine', {
  name: 'account-deletion',
  machine,
  events,
  states,
  view: { render: (actor) => <Harness actor={actor} />, events: viewEvents, states: viewStates },
});
