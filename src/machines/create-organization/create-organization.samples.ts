// Sample events of the create-organization machine: what its model test (tests/model/create-organization.test.tsx)
// walks it with, and what the statechart studio plays, so both see the same generated paths.
import type { ModelEvents, ModelSamples } from '../../lib/model-paths';
import { DataMutationError } from '../../services/errors';
import type { CreateOrganizationMachine } from './create-organization.machine';

export const SAMPLE_BILLING_ACCOUNT_ID = 41;
export const SAMPLE_ORGANIZATION_ID = 9;

export const createOrganizationEvents = {
  'name.change': [
    { type: 'name.change', name: '' },
    { type: 'name.change', name: 'ab' },
    { type: 'name.change', name: 'Acme!' },
    { type: 'name.change', name: 'New Org' },
  ],
  'organization.create': [{ type: 'organization.create' }],
  'card.attached': [{ type: 'card.attached' }],
  retry: [{ type: 'retry' }],
  'xstate.done.actor.loadStart': [
    { type: 'xstate.done.actor.loadStart', output: { owned: null, draft: null } },
    { type: 'xstate.done.actor.loadStart', output: { owned: { id: 3, name: 'Acme' }, draft: null } },
    { type: 'xstate.done.actor.loadStart', output: { owned: null, draft: { name: 'New Org', billingAccountId: SAMPLE_BILLING_ACCOUNT_ID, hasCard: false } } },
    { type: 'xstate.done.actor.loadStart', output: { owned: null, draft: { name: 'New Org', billingAccountId: SAMPLE_BILLING_ACCOUNT_ID, hasCard: true } } },
  ],
  'xstate.error.actor.loadStart': [{ type: 'xstate.error.actor.loadStart', error: new Error('down') }],
  'xstate.done.actor.checkName': [
    { type: 'xstate.done.actor.checkName', output: { billingAccountId: null } },
    { type: 'xstate.done.actor.checkName', output: { billingAccountId: 5 } },
    // The user's own unfinished billing account of that name (opened in another browser), without and with a card.
    { type: 'xstate.done.actor.checkName', output: { billingAccountId: SAMPLE_BILLING_ACCOUNT_ID, unfinished: true, hasCard: false } },
    { type: 'xstate.done.actor.checkName', output: { billingAccountId: SAMPLE_BILLING_ACCOUNT_ID, unfinished: true, hasCard: true } },
  ],
  'xstate.error.actor.checkName': [{ type: 'xstate.error.actor.checkName', error: new Error('down') }],
  'xstate.done.actor.createBillingAccount': [
    { type: 'xstate.done.actor.createBillingAccount', output: { billingAccountId: SAMPLE_BILLING_ACCOUNT_ID } },
  ],
  'xstate.error.actor.createBillingAccount': [
    { type: 'xstate.error.actor.createBillingAccount', error: new DataMutationError('Unknown error', { status: 500 }) },
  ],
  'xstate.done.actor.createOrganization': [
    { type: 'xstate.done.actor.createOrganization', output: { organizationId: SAMPLE_ORGANIZATION_ID } },
  ],
  'xstate.error.actor.createOrganization': [
    { type: 'xstate.error.actor.createOrganization', error: new DataMutationError('Server error', { status: 500 }) },
  ],
  'xstate.done.actor.switchOrganization': [{ type: 'xstate.done.actor.switchOrganization', output: undefined }],
  'xstate.error.actor.switchOrganization': [{ type: 'xstate.error.actor.switchOrganization', error: new Error('refused') }],
} satisfies ModelEvents<CreateOrganizationMachine>;

export const createOrganizationSamples: ModelSamples = { events: createOrganizationEvents };
