// /organization/create and /{projectSlug}/organization/create: the wizard with its actor, the services it calls and
// the console effects (toasts, navigation, the remembered draft).
import { useActorRef } from '@xstate/react';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { fromPromise } from 'xstate';
import { useAuthActor } from '../../app/auth-context';
import { createOrganizationMachine, SUCCESS_MESSAGE, type WizardStart } from '../../machines/create-organization/create-organization.machine';
import { createBillingAccount, findBillingAccountIdByName, listUnfinishedBillingAccounts } from '../../services/billing';
import {
  clearOrganizationDraft,
  createOrganization,
  readOrganizationDraft,
  saveOrganizationDraft,
} from '../../services/organizations';
import { toast } from '../../services/toast-store';
import { listOwnedOrganizations } from '../../services/users';
import { CardSetupPanel } from '../billing-card/card-setup-panel';
import { RequireWriteAccess } from '../shell/require-write-access';
import { CreateOrganizationWizard } from './create-organization-wizard';
import { switchToOrganization } from './switch-organization';

/** The server's unfinished billing accounts of the user: started in any browser, offered by name. */
async function startAfresh(): Promise<WizardStart> {
  const unfinished = (await listUnfinishedBillingAccounts()).map((account) => ({
    name: account.name,
    billingAccountId: account.id,
    hasCard: account.hasPaymentMethod,
    removedAfter: account.removedAfter,
  }));
  return { owned: null, draft: null, unfinished };
}

/** Owned organizations and the remembered draft, checked against the server's billing accounts. */
async function loadStart(): Promise<WizardStart> {
  const owned = await listOwnedOrganizations();
  const first = owned.find((organization) => organization.owner) ?? null;
  if (first) return { owned: { id: first.id, name: first.name }, draft: null };
  const draft = readOrganizationDraft();
  if (!draft) return startAfresh();
  const server = await findBillingAccountIdByName(draft.name);
  if (server.billingAccountId !== draft.billingAccountId) {
    // The remembered billing account is gone or is another one: start afresh.
    clearOrganizationDraft();
    return startAfresh();
  }
  return { owned: null, draft: { ...draft, hasCard: server.hasPaymentMethod ?? draft.hasCard } };
}

export function CreateOrganizationView() {
  return (
    <RequireWriteAccess what="creating an organization">
      <CreateOrganization />
    </RequireWriteAccess>
  );
}

function CreateOrganization() {
  const auth = useAuthActor();
  const navigate = useNavigate();
  const land = () => {
    toast.success(SUCCESS_MESSAGE);
    void navigate('/organization', { replace: true });
  };
  const actor = useActorRef(
    createOrganizationMachine.provide({
      actors: {
        loadStart: fromPromise(loadStart),
        checkName: fromPromise(async ({ input }) => {
          const found = await findBillingAccountIdByName(input.name);
          return { billingAccountId: found.billingAccountId, unfinished: found.unfinished === true, hasCard: found.hasPaymentMethod === true };
        }),
        createBillingAccount: fromPromise(async ({ input }) => ({
          billingAccountId: (await createBillingAccount(input.name, { forOrganization: true })).billingAccountId,
        })),
        createOrganization: fromPromise(async ({ input }) => ({
          organizationId: (await createOrganization({ displayName: input.name, billingAccountId: input.billingAccountId })).organizationId,
        })),
        switchOrganization: fromPromise(async ({ input, signal }) => {
          await switchToOrganization(auth, input.organizationId);
          // The auth machine's switch navigates home, which unmounts this wizard and stops its actor before it
          // reaches 'done'; the landing then happens from here, once.
          if (signal.aborted) land();
        }),
      },
      actions: {
        saveDraft: (_, draft) => saveOrganizationDraft(draft),
        clearDraft: () => clearOrganizationDraft(),
        notifyCreated: () => undefined,
        openOrganization: () => land(),
      },
    }),
  );
  const renderCardStep = useCallback(
    (billingAccountId: number, onAttached: () => void) => (
      <CardSetupPanel
        billingAccountId={billingAccountId}
        onAttached={onAttached}
        onFailure={(message) => toast.error('Error while creating organization', message)}
        submitLabel="Add card and create organization"
      />
    ),
    [],
  );
  return (
    <CreateOrganizationWizard actor={actor} renderCardStep={renderCardStep} onSwitch={(organizationId) => navigate(`/login?organization=${organizationId}`)} />
  );
}
