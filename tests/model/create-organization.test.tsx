// @vitest-environment jsdom
// Model-based test of the create-organization wizard, replayed on a real actor and through the wizard's screen in
// jsdom. The card step renders the real card form driven by a card-setup actor whose provider calls succeed at
// once: the 'card.attached' step is a person filling and sending that form. The card form's own failures are the
// card-setup model's business (tests/model/card-setup.test.tsx).
import { useActorRef } from '@xstate/react';
import { useEffect } from 'react';
import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { ErrorText } from '../../contract/errors';
import { ORGANIZATION_LENGTH_OR_PATTERN } from '../console/organization/texts';
import { cardSetupMachine, type CardConfirmation } from '../../src/machines/card-setup/card-setup.machine';
import {
  BILLING_ACCOUNT_ERROR,
  LOAD_ERROR,
  NAME_CHECK_ERROR,
  NAME_TAKEN_MESSAGE,
  RESUME_MESSAGE,
  ORGANIZATION_ERROR,
  ORGANIZATION_ERROR_TITLE,
  SUCCESS_MESSAGE,
  SWITCH_ERROR,
  createOrganizationMachine,
} from '../../src/machines/create-organization/create-organization.machine';
import {
  SAMPLE_BILLING_ACCOUNT_ID,
  SAMPLE_ORGANIZATION_ID,
  createOrganizationEvents,
} from '../../src/machines/create-organization/create-organization.samples';
import { CardForm } from '../../src/views/billing-card/card-form';
import { LocalCardFields } from '../../src/views/billing-card/local-card-fields';
import { CreateOrganizationWizard } from '../../src/views/organization/create-organization-wizard';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewStates } from '../support/model-based';

installDomStubs();

const effects: string[] = [];
const machine = createOrganizationMachine.provide({
  actions: {
    saveDraft: (_, draft) => void effects.push(`draft:${draft.billingAccountId}:${draft.hasCard}`),
    clearDraft: () => void effects.push('draft:cleared'),
    notifyCreated: (_, params) => void effects.push(`toast:${params.message}`),
    openOrganization: (_, params) => void effects.push(`open:${params.organizationId}`),
  },
});
type Machine = typeof machine;

const ACCOUNT = SAMPLE_BILLING_ACCOUNT_ID;
const ORG = SAMPLE_ORGANIZATION_ID;

// The same samples the statechart studio plays.
const events = createOrganizationEvents satisfies ModelEvents<Machine>;

const states = {
  loading: (s) => expect(s.context.error).toBeNull(),
  loadFailed: (s) => expect(s.context.error).toBe(LOAD_ERROR),
  alreadyOwner: (s) => expect(s.context.owned).toEqual({ id: 3, name: 'Acme' }),
  'naming.editing': (s) => {
    expect(s.can({ type: 'organization.create' })).toBe(false);
    expect(['', 'ab', 'Acme!']).toContain(s.context.name);
  },
  'naming.checking': (s) => {
    expect(s.context.name).toBe('New Org');
    expect(s.can({ type: 'organization.create' })).toBe(false);
  },
  'naming.taken': (s) => {
    expect(s.context.error).toBe(NAME_TAKEN_MESSAGE);
    expect(s.can({ type: 'organization.create' })).toBe(false);
  },
  'naming.checkFailed': (s) => {
    expect(s.context.error).toBe(NAME_CHECK_ERROR);
    expect(s.can({ type: 'organization.create' })).toBe(false);
  },
  // The user's own unfinished billing account of this name: Create continues with it (no second billing account).
  'naming.resumable': (s) => {
    expect(s.context.error).toBeNull();
    expect(s.context.billingAccountId).toBe(ACCOUNT);
    expect(s.can({ type: 'organization.create' })).toBe(true);
  },
  'naming.available': (s) => {
    expect(s.context.name).toBe('New Org');
    expect(s.can({ type: 'organization.create' })).toBe(true);
  },
  creatingBillingAccount: (s) => expect(s.context.billingAccountId).toBeNull(),
  billingAccountFailed: (s) => {
    expect(s.context.error).toBe(BILLING_ACCOUNT_ERROR);
    expect(s.context.billingAccountId).toBeNull();
  },
  card: (s) => {
    expect(s.context.billingAccountId).toBe(ACCOUNT);
    expect(s.context.hasCard).toBe(false);
  },
  waiting: (s) => {
    expect(s.context.hasCard).toBe(true);
    expect(s.context.organizationId).toBeNull();
  },
  creatingOrganization: (s) => {
    expect(s.context.billingAccountId).toBe(ACCOUNT);
    expect(s.context.hasCard).toBe(true);
  },
  organizationFailed: (s) => {
    expect(s.context.error).toBe(ORGANIZATION_ERROR);
    // The retry goes back to the organization call only: the billing account and the card are kept.
    expect(s.context.billingAccountId).toBe(ACCOUNT);
    expect(s.context.hasCard).toBe(true);
  },
  switching: (s) => {
    expect(s.context.organizationId).toBe(ORG);
    expect(effects.at(-1)).toBe('draft:cleared');
  },
  switchFailed: (s) => {
    expect(s.context.error).toBe(SWITCH_ERROR);
    expect(s.context.organizationId).toBe(ORG);
  },
  done: (s) => {
    expect(s.status).toBe('done');
    expect(effects.slice(-2)).toEqual([`toast:${SUCCESS_MESSAGE}`, `open:${ORG}`]);
  },
} satisfies ModelStates<Machine>;

/** The card step of the test: the real card form, with provider calls that succeed at once. */
function CardStep({ billingAccountId, onAttached }: { billingAccountId: number; onAttached: () => void }) {
  const actor = useActorRef(
    cardSetupMachine.provide({
      actors: {
        requestSetupIntent: fromPromise(async (): Promise<{ clientSecret: unknown }> => ({ clientSecret: 'seti_local_x_secret_y' })),
        confirmCard: fromPromise(async (): Promise<CardConfirmation> => ({ paymentMethodId: 'pm_local_1' })),
        attachPaymentMethod: fromPromise(async (): Promise<unknown> => ({ message: 'Payment method updated' })),
      },
    }),
    { input: { billingAccountId } },
  );
  useEffect(() => {
    const subscription = actor.subscribe((s) => {
      if (s.status === 'done') onAttached();
    });
    return () => subscription.unsubscribe();
  }, [actor, onAttached]);
  return <CardForm actor={actor} renderDetails={(props) => <LocalCardFields {...props} />} submitLabel="Add card and create organization" />;
}

const required = (text: string) => new RegExp(`^${text}\\*?$`);

const viewEvents = {
  'name.change': async ({ screen, user, event }) => {
    const input = screen.getByLabelText(required('Organization name'));
    await user.clear(input);
    if (event.name) await user.paste(event.name);
  },
  'organization.create': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Create' })),
  'card.attached': async ({ screen, user }) => {
    const paste = async (label: string | RegExp, value: string) => {
      await user.click(screen.getByLabelText(label));
      await user.paste(value);
    };
    await paste(required('Address'), '1 Main Street');
    await paste(required('City'), 'Berlin');
    await paste(required('Postal code'), '10115');
    await user.click(screen.getByRole('combobox', { name: 'Country' }));
    await user.click(screen.getByRole('option', { name: 'Germany' }));
    await paste(required('Phone'), '+49 30 1234567');
    await paste('Card number', '4242 4242 4242 4242');
    await paste('Expiry (MM/YY)', '12/34');
    await paste('CVC', '123');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Add card and create organization' }));
    // The card actor's calls settle on the microtask queue, then the wizard hears about the card.
    await screen.findByText(/Creating your organization/);
  },
  retry: ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Try again' })),
} satisfies ViewEvents<Machine>;

type Screen = Parameters<ViewStates<Machine>['loading']>[0]['screen'];
const createButton = (screen: Screen) => screen.getByRole('button', { name: 'Create' }) as HTMLButtonElement;
const currentStep = (screen: Screen) => screen.getByRole('list', { name: 'Steps' }).querySelector('[aria-current="step"]')?.textContent;

const viewStates = {
  loading: ({ screen }) => expect(screen.getByRole('status').textContent).toBe('Loading…'),
  loadFailed: ({ screen }) => {
    expect(screen.getByText(LOAD_ERROR)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  },
  alreadyOwner: ({ screen }) => {
    expect(screen.getByText(ErrorText.alreadyOwnsOrganization)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Switch to Acme' })).toBeTruthy();
  },
  'naming.editing': ({ screen, snapshot }) => {
    expect(createButton(screen).disabled).toBe(true);
    const expected = ORGANIZATION_LENGTH_OR_PATTERN[snapshot.context.name];
    if (expected) expect(screen.getByText(expected)).toBeTruthy();
    else expect(screen.queryByText(/Must be at least|must match/)).toBeNull();
  },
  'naming.checking': ({ screen }) => {
    expect(createButton(screen).disabled).toBe(true);
    expect(screen.getByText('Checking the name…')).toBeTruthy();
  },
  'naming.taken': ({ screen }) => {
    expect(createButton(screen).disabled).toBe(true);
    expect(screen.getByText(NAME_TAKEN_MESSAGE)).toBeTruthy();
  },
  'naming.checkFailed': ({ screen }) => {
    expect(createButton(screen).disabled).toBe(true);
    expect(screen.getByText(NAME_CHECK_ERROR)).toBeTruthy();
  },
  'naming.resumable': ({ screen }) => {
    expect(createButton(screen).disabled).toBe(false);
    expect(screen.getByText(RESUME_MESSAGE)).toBeTruthy();
    expect(screen.queryByText(NAME_TAKEN_MESSAGE)).toBeNull();
  },
  'naming.available': ({ screen }) => {
    expect(createButton(screen).disabled).toBe(false);
    expect(currentStep(screen)).toBe('1. Name');
  },
  creatingBillingAccount: ({ screen }) => expect(screen.getByRole('status').textContent).toBe('Creating the billing account…'),
  billingAccountFailed: ({ screen }) => {
    expect(screen.getByText(BILLING_ACCOUNT_ERROR)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  },
  card: ({ screen }) => {
    expect(currentStep(screen)).toBe('2. Card');
    expect(screen.getByRole('form', { name: 'Card' })).toBeTruthy();
  },
  waiting: ({ screen }) => expect(screen.getByRole('status').textContent).toBe('Creating your organization New Org…'),
  creatingOrganization: ({ screen }) => expect(screen.getByRole('status').textContent).toBe('Creating your organization New Org…'),
  organizationFailed: ({ screen }) => {
    expect(screen.getByText(ORGANIZATION_ERROR_TITLE)).toBeTruthy();
    expect(screen.getByText(ORGANIZATION_ERROR)).toBeTruthy();
  },
  switching: ({ screen }) => expect(screen.getByRole('status').textContent).toBe('Signing you in to New Org…'),
  switchFailed: ({ screen }) => {
    expect(screen.getByText(SWITCH_ERROR)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  },
  done: ({ screen }) => expect(screen.getByRole('status').textContent).toBe(SUCCESS_MESSAGE),
} satisfies ViewStates<Machine>;

describeModel('create organization machine', {
  name: 'create-organization',
  machine,
  events,
  states,
  simplePaths: false,
  view: {
    render: (actor) => (
      <CreateOrganizationWizard
        actor={actor}
        renderCardStep={(billingAccountId, onAttached) => <CardStep billingAccountId={billingAccountId} onAttached={onAttached} />}
        onSwitch={() => undefined}
      />
    ),
    events: viewEvents,
    states: viewStates,
  },
});
