// The role switch of one member row, with its pending state (member-role machine).
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { fromPromise } from 'xstate';
import { Button } from '../../components/ui/button';
import { memberRoleMachine } from '../../machines/member-role/member-role.machine';
import { changeMemberRole } from '../../services/organizations';
import { toast } from '../../services/toast-store';

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
  const { readOnly, changing } = useSelector(actor, (s) => ({ readOnly: s.context.readOnly, changing: s.matches('changing') }));
  useEffect(() => actor.send({ type: 'role.sync', readOnly: props.readOnly }), [actor, props.readOnly]);
  const label = readOnly ? 'Make read-write' : 'Make read-only';
  return (
    <Button size="sm" variant="outline" loading={changing} aria-label={`${label}: ${props.name}`} onClick={() => actor.send({ type: 'role.change', readOnly: !readOnly })}>
      {label}
    </Button>
  );
}
