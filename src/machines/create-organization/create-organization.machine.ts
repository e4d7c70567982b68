/**
 * Create organization (spec 000 section 2 "Create organization", section 5 Organization name, section 8 errors).
 * States:
 * - loading                  owned organizations and a remembered draft are read and checked against the server
 * - loadFailed               that read failed: 'We had issues loading your organization information.'; retry
 * - alreadyOwner             the user owns an organization: 'You already own an organization…' and 'Switch to {name}'
 * - naming.editing           the name is blank or breaks a rule (the view shows the rule's message); Create disabled
 * - naming.checking          GET stripe/billing-account-id: is the name already used for a billing account?
 * - naming.taken             a billing account already has this name; Create disabled
 * - naming.resumable         the name is the user's own unfinished billing account (opened by this wizard, in any
 *                            browser, never given an organization); Create continues with it at the card step, or
 *                            straight at "create the organization" when it has a card
 * - naming.checkFailed       the check failed; Create disabled until the name is checked again
 * - naming.available         Create enabled
 * - creatingBillingAccount   POST billing/ for the new organization's billing account
 * - billingAccountFailed     'An error occurred while creating the billing account for your organization.'; retry
 * - card                     the card step (card-setup machine in the view); 'card.attached' moves on
 * - waiting                  the spec's 500 ms pause before the organization is created
 * - creatingOrganization     POST organizations/ {display_name, billing_account_id}
 * - organizationFailed       'Error while creating organization' with the API's description or 'An error occurred
 *                            while creating the organization.'; retry
 * - switching                sign in as the new organization (the auth machine's organization switch)
 * - switchFailed             the organization exists but the switch failed; retry the switch only
 * - done                     final: 'Organization created successfully' and the console opens in the organization
 *
 * Each step keeps what it produced (billing account id, card, organization id), so a retry starts at the failed
 * step and never creates a second billing account, card or organization. The draft (name, billing account id, card
 * attached) is saved after each step so that leaving and coming back resumes from the server's state.
 */
import { assign, fromPromise, setup } from 'xstate';
import { decodeInput } from '../../../contract/common';
import { OrganizationName } from '../../../contract/organizations';

export const CREATE_DELAY_MS = 500;
export const BILLING_ACCOUNT_ERROR = 'An error occurred while creating the billing account for your organization.';
export const ORGANIZATION_ERROR = 'An error occurred while creating the organization.';
export const LOAD_ERROR = 'We had issues loading your organization information.';
export const NAME_TAKEN_MESSAGE = 'A billing account with this name already exists. Please choose another name.';
export const RESUME_MESSAGE = 'You started creating this organization before and did not finish. Create continues with its billing account.';
export const NAME_CHECK_ERROR = 'We could not check this name. Please try again.';
export const SWITCH_ERROR = 'Your organization was created, but we could not sign you in to it.';
export const ORGANIZATION_ERROR_TITLE = 'Error while creating organization';
export const SUCCESS_MESSAGE = 'Organization created successfully';

export interface OwnedOrganization {
  id: number;
  name: string;
}

export interface WizardDraft {
  name: string;
  billingAccountId: number;
  hasCard: boolean;
}

/** A billing account the user opened in this wizard (any browser) for an organization never created. */
export interface UnfinishedAccount {
  name: string;
  billingAccountId: number;
  hasCard: boolean;
  /** When the platform removes it (ISO date). */
  removedAfter: string;
}

export interface WizardStart {
  owned: OwnedOrganization | null;
  /** A draft whose billing account the server still has under that name. */
  draft: WizardDraft | null;
  /** The server's unfinished billing accounts of the user, offered by name while naming (none when a draft resumes). */
  unfinished?: readonly UnfinishedAccount[];
}

/** The name check's answer: the billing account of that name, and whether it is the user's own unfinished one. */
export interface NameCheck {
  billingAccountId: number | null;
  unfinished?: boolean;
  hasCard?: boolean;
}

export interface CreateOrganizationContext {
  name: string;
  billingAccountId: number | null;
  hasCard: boolean;
  organizationId: number | null;
  owned: OwnedOrganization | null;
  unfinished: readonly UnfinishedAccount[];
  error: string | null;
}

export type CreateOrganizationEvent =
  | { type: 'name.change'; name: string }
  | { type: 'organization.create' }
  | { type: 'card.attached' }
  | { type: 'retry' };

/** The organization name's rule messages; empty when the name is valid. */
export function organizationNameErrors(name: string): string[] {
  const outcome = decodeInput(OrganizationName, name);
  return outcome.ok ? [] : Object.values(outcome.errors).flat();
}

/** Error texts of the API carry a description; the spec shows it, else the step's fallback. */
export function describeFailure(error: unknown, fallback: string): string {
  if (error && typeof error === 'object') {
    const description = (error as { description?: unknown }).description;
    if (typeof description === 'string' && description.trim()) return description;
  }
  return fallback;
}

const resumedDraft = ({ context }: { context: CreateOrganizationContext }): WizardDraft => ({
  name: context.name.trim(),
  billingAccountId: context.billingAccountId!,
  hasCard: context.hasCard,
});

export const createOrganizationMachine = setup({
  types: {
    context: {} as CreateOrganizationContext,
    events: {} as CreateOrganizationEvent,
  },
  actors: {
    loadStart: fromPromise<WizardStart>(async () => {
      throw new Error('loadStart is provided where the actor is created');
    }),
    checkName: fromPromise<NameCheck, { name: string }>(async () => {
      throw new Error('checkName is provided where the actor is created');
    }),
    createBillingAccount: fromPromise<{ billingAccountId: number }, { name: string }>(async () => {
      throw new Error('createBillingAccount is provided where the actor is created');
    }),
    createOrganization: fromPromise<{ organizationId: number }, { name: string; billingAccountId: number }>(async () => {
      throw new Error('createOrganization is provided where the actor is created');
    }),
    switchOrganization: fromPromise<void, { organizationId: number }>(async () => {
      throw new Error('switchOrganization is provided where the actor is created');
    }),
  },
  guards: {
    ownsOrganization: (_, params: { start: WizardStart }) => params.start.owned !== null,
    draftHasCard: (_, params: { start: WizardStart }) => params.start.draft?.hasCard === true,
    hasDraft: (_, params: { start: WizardStart }) => params.start.draft !== null,
    isValidName: (_, params: { name: string }) => organizationNameErrors(params.name).length === 0,
    isFree: (_, params: { check: NameCheck }) => params.check.billingAccountId === null,
    isResumable: (_, params: { check: NameCheck }) => params.check.unfinished === true,
    hasCard: ({ context }) => context.hasCard,
  },
  actions: {
    // Browser and React effects, supplied with .provide() where the actor is created.
    saveDraft: (_, _params: WizardDraft) => undefined,
    clearDraft: () => undefined,
    notifyCreated: (_, _params: { message: string }) => undefined,
    openOrganization: (_, _params: { organizationId: number }) => undefined,
  },
  delays: { createDelay: CREATE_DELAY_MS },
}).createMachine({
  id: 'createOrganization',
  initial: 'loading',
  context: { name: '', billingAccountId: null, hasCard: false, organizationId: null, owned: null, unfinished: [], error: null },
  states: {
    loading: {
      invoke: {
        id: 'loadStart',
        src: 'loadStart',
        onDone: [
          {
            guard: { type: 'ownsOrganization', params: ({ event }) => ({ start: event.output }) },
            target: 'alreadyOwner',
            actions: assign({ owned: ({ event }) => event.output.owned }),
          },
          {
            guard: { type: 'draftHasCard', params: ({ event }) => ({ start: event.output }) },
            target: 'waiting',
            actions: assign(({ event }) => ({ name: event.output.draft!.name, billingAccountId: event.output.draft!.billingAccountId, hasCard: true })),
          },
          {
            guard: { type: 'hasDraft', params: ({ event }) => ({ start: event.output }) },
            target: 'card',
            actions: assign(({ event }) => ({ name: event.output.draft!.name, billingAccountId: event.output.draft!.billingAccountId })),
          },
          { target: 'naming', actions: assign({ unfinished: ({ event }) => event.output.unfinished ?? [] }) },
        ],
        onError: { target: 'loadFailed', actions: assign({ error: LOAD_ERROR }) },
      },
    },
    loadFailed: {
      on: { retry: { target: 'loading', actions: assign({ error: null }) } },
    },
    alreadyOwner: {},
    naming: {
      initial: 'editing',
      on: {
        'name.change': [
          {
            guard: { type: 'isValidName', params: ({ event }) => ({ name: event.name }) },
            target: '.checking',
            reenter: true,
            actions: assign({ name: ({ event }) => event.name, billingAccountId: null, hasCard: false, error: null }),
          },
          { target: '.editing', actions: assign({ name: ({ event }) => event.name, billingAccountId: null, hasCard: false, error: null }) },
        ],
      },
      states: {
        editing: {},
        checking: {
          invoke: {
            id: 'checkName',
            src: 'checkName',
            input: ({ context }) => ({ name: context.name.trim() }),
            onDone: [
              { guard: { type: 'isFree', params: ({ event }) => ({ check: event.output }) }, target: 'available' },
              {
                guard: { type: 'isResumable', params: ({ event }) => ({ check: event.output }) },
                target: 'resumable',
                actions: assign({ billingAccountId: ({ event }) => event.output.billingAccountId, hasCard: ({ event }) => event.output.hasCard === true }),
              },
              { target: 'taken', actions: assign({ error: NAME_TAKEN_MESSAGE }) },
            ],
            onError: { target: 'checkFailed', actions: assign({ error: NAME_CHECK_ERROR }) },
          },
        },
        taken: {},
        resumable: {
          on: {
            // The resumed account becomes this browser's draft too, so leaving again resumes from here.
            'organization.create': [
              { guard: 'hasCard', target: '#createOrganization.waiting', actions: { type: 'saveDraft', params: resumedDraft } },
              { target: '#createOrganization.card', actions: { type: 'saveDraft', params: resumedDraft } },
            ],
          },
        },
        checkFailed: {},
        available: {
          on: {
            'organization.create': { target: '#createOrganization.creatingBillingAccount' },
          },
        },
      },
    },
    creatingBillingAccount: {
      invoke: {
        id: 'createBillingAccount',
        src: 'createBillingAccount',
        input: ({ context }) => ({ name: context.name.trim() }),
        onDone: {
          target: 'card',
          actions: [
            assign({ billingAccountId: ({ event }) => event.output.billingAccountId, error: null }),
            { type: 'saveDraft', params: ({ context, event }) => ({ name: context.name.trim(), billingAccountId: event.output.billingAccountId, hasCard: false }) },
          ],
        },
        onError: {
          target: 'billingAccountFailed',
          actions: assign({ error: ({ event }) => describeFailure(event.error, BILLING_ACCOUNT_ERROR) }),
        },
      },
    },
    billingAccountFailed: {
      on: { retry: { target: 'creatingBillingAccount', actions: assign({ error: null }) } },
    },
    card: {
      on: {
        'card.attached': {
          target: 'waiting',
          actions: [
            assign({ hasCard: true, error: null }),
            { type: 'saveDraft', params: ({ context }) => ({ name: context.name.trim(), billingAccountId: context.billingAccountId!, hasCard: true }) },
          ],
        },
      },
    },
    waiting: {
      after: { createDelay: 'creatingOrganization' },
    },
    creatingOrganization: {
      invoke: {
        id: 'createOrganization',
        src: 'createOrganization',
        input: ({ context }) => ({ name: context.name.trim(), billingAccountId: context.billingAccountId! }),
        onDone: {
          target: 'switching',
          actions: [assign({ organizationId: ({ event }) => event.output.organizationId, error: null }), 'clearDraft'],
        },
        onError: {
          target: 'organizationFailed',
          actions: assign({ error: ({ event }) => describeFailure(event.error, ORGANIZATION_ERROR) }),
        },
      },
    },
    organizationFailed: {
      on: { retry: { target: 'creatingOrganization', actions: assign({ error: null }) } },
    },
    switching: {
      invoke: {
        id: 'switchOrganization',
        src: 'switchOrganization',
        input: ({ context }) => ({ organizationId: context.organizationId! }),
        onDone: {
          target: 'done',
          actions: [
            { type: 'notifyCreated', params: { message: SUCCESS_MESSAGE } },
            { type: 'openOrganization', params: ({ context }) => ({ organizationId: context.organizationId! }) },
          ],
        },
        onError: { target: 'switchFailed', actions: assign({ error: SWITCH_ERROR }) },
      },
    },
    switchFailed: {
      on: { retry: { target: 'switching', actions: assign({ error: null }) } },
    },
    done: { type: 'final' },
  },
});

export type CreateOrganizationMachine = typeof createOrganizationMachine;
