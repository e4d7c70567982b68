// @vitest-environment jsdom
// Model-based test of the card-setup machine, replayed on a real actor and through the card form (the local card
// fields of card mock mode) in jsdom: typing, choosing a country in the searchable list, ticking the terms.
import { expect } from 'vitest';
import {
  CARD_INCOMPLETE_MESSAGE,
  INVALID_CLIENT_SECRET_MESSAGE,
  MISSING_PAYMENT_METHOD_MESSAGE,
  cardSetupMachine,
  type BillingDetails,
} from '../../src/machines/card-setup/card-setup.machine';
import { CardForm } from '../../src/views/billing-card/card-form';
import { LocalCardFields } from '../../src/views/billing-card/local-card-fields';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates, type ViewUser } from '../support/model-based';
import { installDomStubs } from '../console/organization/dom-stubs';

installDomStubs();

const notified: string[] = [];
const machine = cardSetupMachine.provide({ actions: { notifyFailure: (_, params) => void notified.push(params.message) } });
type Machine = typeof machine;

const details: BillingDetails = {
  address: '1 Main Street',
  address2: '',
  city: 'Berlin',
  postalCode: '10115',
  country: 'DE',
  phone: '+49 30 1234567',
};
const SECRET = 'seti_local_abc_secret_def';
const DECLINED = 'Your card was declined.';

const events = {
  'card.submit': [
    { type: 'card.submit', complete: true, billingDetails: details },
    { type: 'card.submit', complete: false, billingDetails: { ...details, address: '' } },
  ],
  'xstate.done.actor.requestSetupIntent': [
    { type: 'xstate.done.actor.requestSetupIntent', output: { clientSecret: SECRET } },
    { type: 'xstate.done.actor.requestSetupIntent', output: { clientSecret: undefined } },
  ],
  'xstate.error.actor.requestSetupIntent': [{ type: 'xstate.error.actor.requestSetupIntent', error: new Error('Server down') }],
  'xstate.done.actor.confirmCard': [
    { type: 'xstate.done.actor.confirmCard', output: { paymentMethodId: 'pm_local_1' } },
    { type: 'xstate.done.actor.confirmCard', output: { error: DECLINED } },
    { type: 'xstate.done.actor.confirmCard', output: { paymentMethodId: null } },
  ],
  'xstate.error.actor.confirmCard': [{ type: 'xstate.error.actor.confirmCard', error: new Error('Network lost') }],
  'xstate.done.actor.attachPaymentMethod': [{ type: 'xstate.done.actor.attachPaymentMethod', output: { message: 'Payment method updated' } }],
  'xstate.error.actor.attachPaymentMethod': [{ type: 'xstate.error.actor.attachPaymentMethod', error: new Error('Attach refused') }],
} satisfies ModelEvents<Machine>;

const FAILURES = [INVALID_CLIENT_SECRET_MESSAGE, 'Server down', DECLINED, MISSING_PAYMENT_METHOD_MESSAGE, 'Network lost', 'Attach refused'];

const states = {
  'editing.idle': (s) => {
    expect(s.context.error).toBeNull();
    expect(s.context.clientSecret).toBeNull();
  },
  'editing.incomplete': (s) => expect(s.context.error).toBe(CARD_INCOMPLETE_MESSAGE),
  'editing.failed': (s) => {
    expect(FAILURES).toContain(s.context.error);
    expect(notified.at(-1)).toBe(s.context.error);
    // What succeeded is kept for the retry: a secret only after a valid setup answer, a card only once confirmed.
    if (s.context.error === 'Attach refused') expect(s.context.paymentMethodId).toBe('pm_local_1');
    if (s.context.error === DECLINED) expect(s.context.clientSecret).toBe(SECRET);
  },
  requestingSetup: (s) => {
    expect(s.context.clientSecret).toBeNull();
    expect(s.context.billingDetails).toEqual(details);
  },
  confirmingCard: (s) => {
    expect(s.context.clientSecret).toBe(SECRET);
    expect(s.context.paymentMethodId).toBeNull();
  },
  attaching: (s) => expect(s.context.paymentMethodId).toBe('pm_local_1'),
  attached: (s) => {
    expect(s.status).toBe('done');
    expect(s.output).toEqual({ paymentMethodId: 'pm_local_1' });
  },
} satisfies ModelStates<Machine>;

type Screen = ViewScreen;
type User = ViewUser;

/** Required fields carry an asterisk in their label. */
const label = (text: string | RegExp) => (typeof text === 'string' ? new RegExp(`^${text.replace(/[()/]/g, '\\$&')}\\*?$`) : text);

async function fill(screen: Screen, user: User, text: string | RegExp, value: string) {
  const input = screen.getByLabelText(label(text));
  if ((input as HTMLInputElement).value === value) return;
  await user.clear(input);
  // Pasting is one input event per field instead of one per key: the paths stay fast.
  if (value) await user.paste(value);
}

async function chooseCountry(screen: Screen, user: User) {
  const input = screen.getByRole('combobox', { name: 'Country' });
  if ((input as HTMLInputElement).value === 'Germany') return;
  // Typing into Ark's combobox is unreliable under jsdom; the search itself is exercised in the browser (e2e).
  await user.click(input);
  await user.click(screen.getByRole('option', { name: 'Germany' }));
}

const viewEvents = {
  'card.submit': async ({ screen, user, event }) => {
    await fill(screen, user, /^Address\*?$/, event.billingDetails.address);
    await fill(screen, user, 'City', event.billingDetails.city);
    await fill(screen, user, 'Postal code', event.billingDetails.postalCode);
    await chooseCountry(screen, user);
    await fill(screen, user, 'Phone', event.billingDetails.phone);
    await fill(screen, user, 'Card number', '4242 4242 4242 4242');
    await fill(screen, user, 'Expiry (MM/YY)', '12/34');
    await fill(screen, user, 'CVC', '123');
    const terms = screen.getByRole('checkbox');
    if (!(terms as HTMLInputElement).checked) await user.click(terms);
    await user.click(screen.getByRole('button', { name: 'Save card' }));
  },
} satisfies ViewEvents<Machine>;

function formIsEditable(screen: Screen) {
  expect((screen.getByRole('button', { name: 'Save card' }) as HTMLButtonElement).disabled).toBe(false);
  expect(screen.queryByRole('status')).toBeNull();
}

function formIsPending(screen: Screen, text: string) {
  expect(screen.getByRole('status').textContent).toBe(text);
  expect(screen.getByLabelText(/^Address\*?$/).closest('fieldset')!.disabled).toBe(true);
  expect(screen.getByRole('button', { name: /Save card/ }).hasAttribute('disabled')).toBe(true);
}

const viewStates = {
  'editing.idle': ({ screen }) => {
    formIsEditable(screen);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: 'Terms of Service' }).getAttribute('target')).toBe('_blank');
  },
  'editing.incomplete': ({ screen }) => {
    formIsEditable(screen);
    expect(screen.getByText(CARD_INCOMPLETE_MESSAGE)).toBeTruthy();
    expect(screen.getByText('The address is required')).toBeTruthy();
    // Nothing typed is lost: the other fields keep their values.
    expect((screen.getByLabelText(label('City')) as HTMLInputElement).value).toBe('Berlin');
  },
  'editing.failed': ({ screen, snapshot }) => {
    formIsEditable(screen);
    expect(screen.getByText(snapshot.context.error!)).toBeTruthy();
    expect((screen.getByLabelText('Card number') as HTMLInputElement).value).toBe('4242 4242 4242 4242');
    expect((screen.getByRole('combobox', { name: 'Country' }) as HTMLInputElement).value).toBe('Germany');
  },
  requestingSetup: ({ screen }) => formIsPending(screen, 'Preparing the card setup…'),
  confirmingCard: ({ screen }) => formIsPending(screen, 'Confirming your card…'),
  attaching: ({ screen }) => formIsPending(screen, 'Saving your card…'),
  attached: ({ screen }) => expect(screen.getByRole('status').textContent).toBe('The card is saved.'),
} satisfies ViewStates<Machine>;

describeModel('card setup machine', {
  name: 'card-setup',
  machine,
  input: { billingAccountId: 41 },
  simplePaths: false,
  events,
  states,
  view: {
    render: (actor) => <CardForm actor={actor} renderDetails={(props) => <LocalCardFields {...props} />} />,
    events: viewEvents,
    states: viewStates,
  },
});
