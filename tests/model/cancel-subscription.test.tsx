// @vitest-environment jsdom
// Model-based test of the cancel-subscription machine (a product page's confirm modal): every generated path is
// replayed on a real actor with POST integrations/{product}/cancel as a controlled double, and through the modal.
import { expect } from 'vitest';
import { cancelSubscriptionMachine } from '../../src/machines/cancel-subscription/cancel-subscription.machine';
import { CancelSubscriptionDialog, cancelDescription } from '../../src/views/stack/cancel-subscription-dialog';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const input = { productSlug: 'loggen', projectId: 7 };
const notified: string[] = [];
let stackOpened = 0;
const machine = cancelSubscriptionMachine.provide({
  actions: {
    notifyCancelled: (_, output) => void notified.push(output.message),
    openStack: () => void stackOpened++,
  },
});
const cancelled = { message: 'The subscription has been scheduled for cancellation.', cancellationDateTimestamp: 1_800_000_000 };

const events = {
  'cancel.open': [{ type: 'cancel.open' }],
  'cancel.confirm': [{ type: 'cancel.confirm' }],
  'cancel.keep': [{ type: 'cancel.keep' }],
  'xstate.done.actor.cancelSubscription': [{ type: 'xstate.done.actor.cancelSubscription', output: cancelled }],
  'xstate.error.actor.cancelSubscription': [
    { type: 'xstate.error.actor.cancelSubscription', error: Object.assign(new Error('Not found'), { description: 'loggen is not enabled for this project.' }) },
  ],
} satisfies ModelEvents<typeof machine>;

const states = {
  closed: (s) => {
    expect(s.context).toMatchObject({ ...input, error: null });
  },
  confirming: (s) => {
    expect(s.context.error).toBeNull();
  },
  cancelling: (s) => {
    expect(s.children.cancelSubscription).toBeDefined();
    expect(s.can({ type: 'cancel.keep' })).toBe(false);
  },
  failed: (s) => {
    expect(s.context.error).toBe('loggen is not enabled for this project.');
  },
  cancelled: (s) => {
    expect(s.status).toBe('done');
    expect(notified.at(-1)).toBe(cancelled.message);
    expect(stackOpened).toBeGreaterThan(0);
  },
} satisfies ModelStates<typeof machine>;

const dialog = (screen: ViewScreen) => {
  const element = screen.getByRole('alertdialog');
  expect(element.getAttribute('data-state')).toBe('open');
  return element;
};
const confirmButton = (screen: ViewScreen) => screen.getAllByRole('button', { name: 'Cancel subscription' }).at(-1)! as HTMLButtonElement;

const viewEvents = {
  'cancel.open': ({ screen, user }) => user.click(screen.getAllByRole('button', { name: 'Cancel subscription' })[0]),
  'cancel.confirm': ({ screen, user }) => user.click(confirmButton(screen)),
  'cancel.keep': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Keep subscription' })),
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  // A closing dialog stays in the DOM as 'closed' until its exit animation ends, which jsdom never plays.
  closed: ({ screen }) => {
    expect(screen.queryByRole('alertdialog')?.getAttribute('data-state') ?? 'closed').toBe('closed');
    expect((screen.getAllByRole('button', { name: 'Cancel subscription' })[0] as HTMLButtonElement).disabled).toBe(false);
  },
  confirming: ({ screen }) => {
    expect(dialog(screen).textContent).toContain('Cancel the Loggen subscription?');
    expect(dialog(screen).textContent).toContain(cancelDescription('loggen', 'Loggen'));
  },
  cancelling: ({ screen }) => {
    expect(confirmButton(screen).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Keep subscription' }) as HTMLButtonElement).disabled).toBe(true);
  },
  failed: ({ screen }) => {
    expect(dialog(screen).textContent).toContain('loggen is not enabled for this project.');
    expect(confirmButton(screen).disabled).toBe(false);
  },
  cancelled: ({ screen }) => expect(screen.queryByRole('alertdialog')?.getAttribute('data-state') ?? 'closed').toBe('closed'),
} satisfies ViewStates<typeof machine>;

describeModel('cancel subscription machine', {
  name: 'cancel-subscription',
  machine,
  input,
  events,
  states,
  view: { render: (actor) => <CancelSubscriptionDialog actor={actor} productSlug="loggen" productName="Loggen" />, events: viewEvents, states: viewStates },
});
