// /invitations?code=…&organization_name=… (spec 000 section 2 "Invitation", section 8 Invitation errors). Signed-in
// only: a signed-out invitee goes through sign-in or registration and comes back to this very link.
import { useActorRef, useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import { useAuthActor } from '../../app/auth-context';
import { settings } from '../../config/settings';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import {
  INVITATION_GUIDANCE,
  INVITATION_INVALID,
  invitationAcceptMachine,
  type InvitationAcceptMachine,
} from '../../machines/invitation-accept/invitation-accept.machine';
import { acceptInvitation } from '../../services/invitations';
import { toast } from '../../services/toast-store';
import { switchToOrganization } from '../organization/switch-organization';

function Shell({ children }: { children: ReactNode }) {
  return <main className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', p: '4', bg: 'shell.canvas' })}>{children}</main>;
}

export function InvitationView() {
  const [params] = useSearchParams();
  const code = params.get('code')?.trim() ?? '';
  const organizationName = params.get('organization_name')?.trim() ?? '';
  if (!code) {
    return (
      <Shell>
        <Card className={css({ maxW: 'md', w: 'full' })} title="Invitation">
          <Alert status="error" title={INVITATION_INVALID}>
            {INVITATION_GUIDANCE}
          </Alert>
        </Card>
      </Shell>
    );
  }
  return <InvitationAcceptance code={code} organizationName={organizationName} />;
}

function InvitationAcceptance({ code, organizationName }: { code: string; organizationName: string }) {
  const auth = useAuthActor();
  const navigate = useNavigate();
  const land = (name: string) => {
    toast.success(`Welcome to ${name || 'your organization'}`);
    void navigate('/', { replace: true });
  };
  const actor = useActorRef(
    invitationAcceptMachine.provide({
      actors: {
        acceptInvitation: fromPromise(async ({ input }) => {
          const answer = await acceptInvitation(input.code);
          return { organizationId: answer.organizationId, organizationName: answer.organizationName };
        }),
        switchOrganization: fromPromise(async ({ input, signal }) => {
          await switchToOrganization(auth, input.organizationId);
          // The auth machine's switch navigates home, which unmounts this page and stops its actor before it
          // reaches 'done'; the welcome then happens from here, once.
          if (signal.aborted) land(organizationName);
        }),
      },
      actions: {
        notifyJoined: (_, params) => land(params.organizationName),
        openOrganization: () => undefined,
      },
    }),
    { input: { code, organizationName } },
  );
  return (
    <Shell>
      <InvitationForm actor={actor} />
    </Shell>
  );
}

export function InvitationForm({ actor }: { actor: ActorRefFrom<InvitationAcceptMachine> }) {
  const state = useSelector(actor, (s) => s);
  const { organizationName, error } = state.context;
  // The terms stay ticked through accepting and a failure: only 'reviewing.unticked' shows them unticked.
  const ticked = !state.matches({ reviewing: 'unticked' });
  const busy = state.matches('accepting') || state.matches('switching') || state.matches('done');
  return (
    <Card className={css({ maxW: 'md', w: 'full' })} title={`You have received an invitation to organization ${organizationName || 'an organization'}`}>
      <form
        aria-label="Invitation"
        className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: 'invitation.accept' });
        }}
      >
        <Checkbox name="terms" required checked={ticked} disabled={busy} onCheckedChange={(accepted) => actor.send({ type: accepted ? 'terms.accept' : 'terms.decline' })}>
          I accept the{' '}
          <a href={settings.privacyPolicyUrl} target="_blank" rel="noopener noreferrer" className={css({ textDecoration: 'underline' })}>
            Privacy Policy
          </a>{' '}
          and the{' '}
          <a href={settings.termsUrl} target="_blank" rel="noopener noreferrer" className={css({ textDecoration: 'underline' })}>
            Terms of Service
          </a>
        </Checkbox>
        {(state.matches('failed') || state.matches('switchFailed')) && error && (
          <Alert status="error" title={error.message}>
            {error.description}
          </Alert>
        )}
        {state.matches('switching') && (
          <p role="status">
            Opening <bdi>{organizationName}</bdi>…
          </p>
        )}
        <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '3' })}>
          {state.matches('switchFailed') ? (
            <Button onClick={() => actor.send({ type: 'retry' })}>Try again</Button>
          ) : (
            <Button type="submit" loading={busy} disabled={!state.can({ type: 'invitation.accept' })}>
              Accept invitation
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
