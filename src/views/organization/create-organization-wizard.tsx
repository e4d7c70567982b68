// The create-organization wizard's screen, driven by a create-organization actor (spec 000 section 2 "Create
// organization"). The card step is rendered by the caller (the card form with its own card-setup actor).
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import { ErrorText } from '../../../contract/errors';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field, Input } from '../../components/ui/field';
import {
  ORGANIZATION_ERROR_TITLE,
  RESUME_MESSAGE,
  organizationNameErrors,
  type CreateOrganizationMachine,
  type UnfinishedAccount,
} from '../../machines/create-organization/create-organization.machine';

export interface CreateOrganizationWizardProps {
  actor: ActorRefFrom<CreateOrganizationMachine>;
  renderCardStep: (billingAccountId: number, onAttached: () => void) => ReactNode;
  onSwitch: (organizationId: number) => void;
}

const STEPS = ['Name', 'Card', 'Create'] as const;

function Steps({ current }: { current: number }) {
  return (
    <ol aria-label="Steps" className={css({ display: 'flex', gap: '4', fontSize: 'sm', color: 'fg.muted', listStyle: 'none', p: '0' })}>
      {STEPS.map((step, index) => (
        <li key={step} aria-current={index === current ? 'step' : undefined} className={css({ fontWeight: index === current ? 'semibold' : 'normal', color: index === current ? 'fg.default' : undefined })}>
          {index + 1}. {step}
        </li>
      ))}
    </ol>
  );
}

function Pending({ children }: { children: ReactNode }) {
  return (
    <p role="status" className={css({ color: 'fg.muted' })}>
      {children}
    </p>
  );
}

function Retry({ onRetry }: { onRetry: () => void }) {
  return (
    <Button variant="outline" onClick={onRetry}>
      Try again
    </Button>
  );
}

const removalDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** The user's unfinished organizations (started in any browser): picking one fills in its name, which resumes it. */
function UnfinishedOffer({ accounts, onPick }: { accounts: readonly UnfinishedAccount[]; onPick: (name: string) => void }) {
  return (
    <section aria-label="Unfinished organizations" className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>You started creating these organizations and did not finish:</p>
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: '2', listStyle: 'none', p: '0' })}>
        {accounts.map((account) => (
          <li key={account.billingAccountId} className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
            <Button type="button" variant="outline" size="sm" onClick={() => onPick(account.name)}>
              Continue with <bdi>{account.name}</bdi>
            </Button>
            <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>kept until {removalDate(account.removedAfter)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function CreateOrganizationWizard({ actor, renderCardStep, onSwitch }: CreateOrganizationWizardProps) {
  const state = useSelector(actor, (s) => s);
  const { name, error, owned, billingAccountId, unfinished } = state.context;
  const retry = () => actor.send({ type: 'retry' });
  const wrap = (step: number, body: ReactNode, description?: ReactNode) => (
    <main className={css({ maxW: '2xl', mx: 'auto', p: { base: '4', md: '8' }, display: 'flex', flexDirection: 'column', gap: '4' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'semibold' })}>Create an organization</h1>
      {step >= 0 && <Steps current={step} />}
      <Card description={description}>{body}</Card>
    </main>
  );

  if (state.matches('loading')) return wrap(-1, <Pending>Loading…</Pending>);
  if (state.matches('loadFailed')) {
    return wrap(
      -1,
      <Alert status="error" title={error} action={<Retry onRetry={retry} />}>
        Please refresh the page and try again. If the problem persists, please contact support.
      </Alert>,
    );
  }
  if (state.matches('alreadyOwner') && owned) {
    return wrap(
      -1,
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '4', alignItems: 'flex-start' })}>
        <p>{ErrorText.alreadyOwnsOrganization}</p>
        <Button onClick={() => onSwitch(owned.id)}>Switch to {owned.name}</Button>
      </div>,
    );
  }
  if (state.matches('naming')) {
    const ruleErrors = name.trim() === '' ? [] : organizationNameErrors(name);
    const fieldError = ruleErrors[0] ?? (state.matches({ naming: 'taken' }) || state.matches({ naming: 'checkFailed' }) ? error : null);
    const resumable = state.matches({ naming: 'resumable' });
    const helper = state.matches({ naming: 'checking' })
      ? 'Checking the name…'
      : resumable
        ? RESUME_MESSAGE
        : 'Letters, digits, spaces, hyphens and underscores; at least 3 characters.';
    const offered = unfinished.filter((account) => !(resumable && account.name.toLowerCase() === name.trim().toLowerCase()));
    return wrap(
      0,
      <form
        aria-label="Name your organization"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: 'organization.create' });
        }}
        className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
      >
        <Field
          label="Organization name"
          required
          errorText={fieldError ?? undefined}
          helperText={helper}
        >
          <Input autoFocus value={name} onChange={(event) => actor.send({ type: 'name.change', name: event.target.value })} />
        </Field>
        {offered.length > 0 && <UnfinishedOffer accounts={offered} onPick={(picked) => actor.send({ type: 'name.change', name: picked })} />}
        <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
          <Button type="submit" disabled={!state.can({ type: 'organization.create' })}>
            Create
          </Button>
        </div>
      </form>,
      'Organizations share projects and integrations with your team. You will add a card for its billing account next.',
    );
  }
  if (state.matches('creatingBillingAccount')) return wrap(0, <Pending>Creating the billing account…</Pending>);
  if (state.matches('billingAccountFailed')) return wrap(0, <Alert status="error" title={error} action={<Retry onRetry={retry} />} />);
  if (state.matches('card') && billingAccountId !== null) {
    return wrap(1, renderCardStep(billingAccountId, () => actor.send({ type: 'card.attached' })), `Add a card to the billing account of ${name}.`);
  }
  if (state.matches('waiting') || state.matches('creatingOrganization')) return wrap(2, <Pending>Creating your organization <bdi>{name}</bdi>…</Pending>);
  if (state.matches('organizationFailed')) {
    return wrap(
      2,
      <Alert status="error" title={ORGANIZATION_ERROR_TITLE} action={<Retry onRetry={retry} />}>
        {error}
      </Alert>,
    );
  }
  if (state.matches('switching')) return wrap(2, <Pending>Signing you in to <bdi>{name}</bdi>…</Pending>);
  if (state.matches('switchFailed')) return wrap(2, <Alert status="error" title={error} action={<Retry onRetry={retry} />} />);
  return wrap(2, <Pending>Organization created successfully</Pending>);
}
