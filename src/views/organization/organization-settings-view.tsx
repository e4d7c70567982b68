// /organization and /{projectSlug}/organization: Organization Settings (spec 000 section 2): the team with roles,
// pending invitations, the invite form and the delete-user modal. Only owners of a writable organization see the
// buttons that change anything; the API refuses those calls for everyone else anyway.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { fromPromise } from 'xstate';
import { css } from 'styled-system/css';
import { useCurrentUser, useTokenOrganizationId } from '../../app/auth-context';
import { queries } from '../../app/query-keys';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { formatDate } from '../../lib/format';
import { confirmedChangeMachine } from '../../machines/confirmed-change/confirmed-change.machine';
import { memberRemovalMachine } from '../../machines/member-removal/member-removal.machine';
import { deleteInvitation, listInvitations, resendInvitation } from '../../services/invitations';
import { listOrganizationUsers, removeOrganizationUser, type OrganizationUser } from '../../services/organizations';
import { toast } from '../../services/toast-store';
import { InviteMemberCard } from './invite-member-card';
import { MemberRoleButton } from './member-role-button';
import { RemoveMemberDialog } from './remove-member-dialog';
import { subjectInAction } from '../../lib/url-state';
import { useUrlDialog } from '../url-state/use-url-state';
import { RequireWriteAccess } from '../shell/require-write-access';
import { ConfirmChangeDialog } from '../confirm-change/confirm-change-dialog';

/** The delete-user modal's address: ?action=delete-org-user-{id} (spec 000 section 2). */
export const DELETE_MEMBER_ACTION = 'delete-org-user-';

const membersKey = (organizationId: number) => ['organizations', organizationId, 'users'] as const;
const invitationsKey = (organizationId: number) => ['organizations', organizationId, 'invitations'] as const;

function displayName(user: { givenName: string; familyName: string; email: string }): string {
  return `${user.givenName} ${user.familyName}`.trim() || user.email;
}

/** Under the question in the pending invitation's delete modal. */
export const DELETE_INVITATION_WARNING = 'The link in the invitation mail stops working. You can invite this address again later.';

export function OrganizationSettingsView() {
  const organizationId = useTokenOrganizationId();
  if (organizationId === null) return <Navigate to="/" replace />;
  return (
    <RequireWriteAccess what="managing the organization">
      <OrganizationSettings organizationId={organizationId} />
    </RequireWriteAccess>
  );
}

function OrganizationSettings({ organizationId }: { organizationId: number }) {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const organizations = useQuery(queries.userOrganizations());
  const members = useQuery({ queryKey: membersKey(organizationId), queryFn: listOrganizationUsers });
  const invitations = useQuery({ queryKey: invitationsKey(organizationId), queryFn: listInvitations });
  const projects = useQuery(queries.projects(organizationId));
  const refreshMembers = () => void queryClient.invalidateQueries({ queryKey: membersKey(organizationId) });
  const refreshInvitations = () => void queryClient.invalidateQueries({ queryKey: invitationsKey(organizationId) });

  const organization = organizations.data?.find((candidate) => candidate.id === organizationId);
  const me = members.data?.find((member) => member.email.toLowerCase() === user.email.toLowerCase());
  // Read-only organization restrictions (spec 000 section 2): nothing that changes the team is offered.
  const canManage = Boolean(me?.owner) && organization?.readOnly !== true;

  const removal = useActorRef(
    memberRemovalMachine.provide({
      actors: { removeMember: fromPromise(({ input }) => removeOrganizationUser(input.userId)) },
      actions: { notifyRemoved: (_, p) => toast.success(p.message), refreshMembers },
    }),
  );
  const removalState = useSelector(removal, (s) => s);
  const removalOpen = !removalState.matches('closed');

  // ?action=delete-org-user-{id} opens the modal (on a click, a reload or a shared link), and follows it; the
  // parameter waits while the team loads and is removed when the member is not there (or not removable by this user).
  const requestRemoval = useUrlDialog({
    address: subjectInAction(DELETE_MEMBER_ACTION),
    ready: members.isSuccess && organizations.isSuccess,
    dialogOpen: removalOpen,
    open: (id) => {
      const member = canManage ? members.data?.find((candidate) => candidate.id === id && !candidate.owner) : undefined;
      if (!member) return false;
      removal.send({ type: 'removal.open', member: { id: member.id, name: displayName(member), email: member.email } });
      return true;
    },
  });

  const resend = useMutation({
    mutationFn: resendInvitation,
    onSuccess: (response) => {
      toast.success(response.message);
      refreshInvitations();
    },
  });
  // A deleted invitation cannot be brought back (its mailed link stops working), so deleting one asks first.
  const removeInvite = useActorRef(
    confirmedChangeMachine.provide({
      actors: { applyChange: fromPromise(({ input }) => deleteInvitation(Number(input.id))) },
      actions: { notifyApplied: (_, params) => toast.success(params.message), refresh: refreshInvitations },
    }),
  );
  const removingInvite = useSelector(removeInvite, (s) => s.context.subject);

  if (members.isError || organizations.isError) {
    return (
      <Page>
        <Alert status="error" title="We had issues loading your organization information.">
          Please refresh the page and try again. If the problem persists, please contact support.
        </Alert>
      </Page>
    );
  }
  if (members.isPending || organizations.isPending) {
    return (
      <Page>
        <Spinner />
      </Page>
    );
  }

  const sorted = [...members.data].sort((a, b) => Number(b.owner) - Number(a.owner) || displayName(a).localeCompare(displayName(b)));
  const openRemoval = (member: OrganizationUser) => requestRemoval(member.id);

  return (
    <Page>
      <Card title={<><bdi>{organization?.name ?? 'Organization'}</bdi> Team</>}>
        {sorted.length === 0 ? (
          <p className={css({ color: 'fg.muted' })}>There are no users yet.</p>
        ) : (
          <ul aria-label="Team" className={css({ display: 'flex', flexDirection: 'column', divideY: '1px', listStyle: 'none', p: '0' })}>
            {sorted.map((member) => (
              <li key={member.id} aria-label={displayName(member)} className={css({ display: 'flex', alignItems: 'center', gap: '3', py: '3', flexWrap: 'wrap' })}>
                <div className={css({ flex: '1', minW: '48' })}>
                  <div dir="auto" className={css({ fontWeight: 'medium' })}>{displayName(member)}</div>
                  <div dir="auto" className={css({ color: 'fg.muted', fontSize: 'sm' })}>{member.email}</div>
                </div>
                {member.owner && <Badge tone="accent">Owner</Badge>}
                {member.readOnly && <Badge tone="warning">Read-Only</Badge>}
                {canManage && !member.owner && (
                  <>
                    <MemberRoleButton userId={member.id} organizationId={organizationId} readOnly={member.readOnly} name={displayName(member)} onChanged={refreshMembers} />
                    <Button size="sm" variant="outline" aria-label={`Delete user: ${displayName(member)}`} onClick={() => openRemoval(member)}>
                      Delete
                    </Button>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card title="Pending members">
        {invitations.isError ? (
          <p className={css({ color: 'fg.error' })}>We could not load the pending invitations.</p>
        ) : !invitations.data || invitations.data.length === 0 ? (
          <p className={css({ color: 'fg.muted' })}>There are no pending invitations.</p>
        ) : (
          <ul aria-label="Pending members" className={css({ display: 'flex', flexDirection: 'column', listStyle: 'none', p: '0' })}>
            {invitations.data.map((invite) => (
              <li key={invite.id} aria-label={invite.invitedUserEmail} className={css({ display: 'flex', alignItems: 'center', gap: '3', py: '3', flexWrap: 'wrap' })}>
                <div className={css({ flex: '1', minW: '48' })}>
                  <div dir="auto">{invite.invitedUserEmail}</div>
                  <div className={css({ color: 'fg.muted', fontSize: 'sm' })}>
                    Invited by <bdi>{invite.invitingUserName || 'an owner'}</bdi> · {invite.expired ? 'expired' : `expires ${formatDate(invite.expiresAt)}`}
                  </div>
                </div>
                {invite.readOnly && <Badge tone="warning">Read-Only</Badge>}
                {canManage && (
                  <>
                    <Button size="sm" variant="outline" loading={resend.isPending && resend.variables === invite.id} onClick={() => resend.mutate(invite.id)}>
                      Re-send Invitation
                    </Button>
                    <Button
                      size="sm"
                      variant="outline"
                      aria-label={`Delete invitation: ${invite.invitedUserEmail}`}
                      onClick={() => removeInvite.send({ type: 'change.open', subject: { id: String(invite.id), label: invite.invitedUserEmail } })}
                    >
                      Delete
                    </Button>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>

      {canManage && <InviteMemberCard projects={(projects.data ?? []).map((p) => ({ id: p.id, name: p.name }))} onInvited={refreshInvitations} />}

      <RemoveMemberDialog actor={removal} />
      <ConfirmChangeDialog actor={removeInvite} title={`Delete the invitation to ${removingInvite?.label ?? ''}?`} confirmLabel="Delete invitation">
        <p>{DELETE_INVITATION_WARNING}</p>
      </ConfirmChangeDialog>
    </Page>
  );
}

function Page({ children }: { children: ReactNode }) {
  return (
    <main className={css({ maxW: '4xl', mx: 'auto', p: { base: '4', md: '8' }, display: 'flex', flexDirection: 'column', gap: '6' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'semibold' })}>Organization Settings</h1>
      {children}
    </main>
  );
}
