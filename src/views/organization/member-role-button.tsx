// The role switch of one member row, with its pending state (member-role machine).
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { Button } from '../../components/ui/button';
import { memberRoleMachine, type MemberRoleMachine } from '../../machines/member-role/member-role.machine';
import { changeMemberRole } from '../../services/organizations';
import { toast } from '../../services/toast-store';

/** The button itself, driven by a member-role actor. */
export function MemberRoleControl({ actor, name }: { actor: ActorRefFrom<MemberRoleMachine>; name: string }) {
  const { readOnly, changing } = useSelector(actor, (s) => ({ readOnly: s.context.readOnly, changing: s.matches('changing') }));
  const label = readOnly ? 'Make read-write' : 'Make read-only';
  return (
    <Button size="sm" variant="outline" loading={changing} aria-label={`${label}: ${name}`} onClick={() => actor.send({ type: 'role.toggle' })}>
      {label}
    </Button>
  );
}

export function MemberRoleButton(props: { userId: string; organizationId: number; readOnly: boolean; name: string; onChanged: () => void }) {
  const actor = useActorRef(
    memberRoleMachine.provide({
      actors: { changeRole: fromPromise(({ input }) => changeMemberRole(input)) },
      actions: {
        notifyChanged: (_, params) => toast.success(params.message),
        notifyFailed: (_, params) => toast.error(params.message),
        refreshMembers: () => props.onChanged(),
      },
    }),
    { input: { userId: props.userId, organizationId: props.organizationId, readOnly: props.readOnly } },
  );
  // The refetched team list is the truth once it arrives.
  useEffect(() => actor.send({ type: 'role.sync', readOnly: props.readOnly }), [actor, props.readOnly]);
  return <MemberRoleControl actor={actor} name={props.name} />;
}
