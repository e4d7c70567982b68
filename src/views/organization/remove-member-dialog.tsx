// The delete-user modal (spec 000 section 2), driven by a member-removal actor.
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import type { MemberRemovalMachine } from '../../machines/member-removal/member-removal.machine';

export const DELETE_USER_WARNING =
  'Deleting this user removes them from all projects and integrations of the organization. This action cannot be undone.';

export function RemoveMemberDialog({ actor }: { actor: ActorRefFrom<MemberRemovalMachine> }) {
  const state = useSelector(actor, (s) => s);
  const removing = state.matches('removing');
  return (
    <Dialog
      open={!state.matches('closed')}
      onOpenChange={(open) => {
        if (!open) actor.send({ type: 'removal.cancel' });
      }}
      role="alertdialog"
      title={<>Delete <bdi>{state.context.member?.name ?? 'user'}</bdi>?</>}
      description={DELETE_USER_WARNING}
      footer={
        <>
          <Button variant="outline" disabled={removing} onClick={() => actor.send({ type: 'removal.cancel' })}>
            Cancel
          </Button>
          <Button loading={removing} onClick={() => actor.send({ type: 'removal.confirm' })}>
            Delete user
          </Button>
        </>
      }
    >
      {state.context.member && <p dir="auto">{state.context.member.email}</p>}
      {state.matches('failed') && <Alert status="error">{state.context.error}</Alert>}
    </Dialog>
  );
}
