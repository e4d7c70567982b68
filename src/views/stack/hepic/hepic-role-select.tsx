// The group select of one Hepic user row and its 'Update user role' modal (hepic-role-confirm machine). Choosing a
// group asks the server for the confirm prompt; Confirm saves (UPDATE_HEPIC_USER_ROLE), Cancel re-submits the
// previous group (CANCEL_UPDATE_HEPIC_USER_ROLE) and the select shows it again.
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { HEPIC_GROUPS, roleConfirmText, type HepicGroup } from '../../../../contract/hepic';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { NativeSelect } from '../../../components/ui/field';
import { useFocusReturn } from '../../../components/ui/focus-return';
import { hepicRoleConfirmMachine, type HepicRoleConfirmMachine } from '../../../machines/hepic-role-confirm/hepic-role-confirm.machine';
import { toast } from '../../../services/toast-store';

export function HepicRoleControl({ actor }: { actor: ActorRefFrom<HepicRoleConfirmMachine> }) {
  const view = useSelector(actor, (s) => ({
    name: s.context.name,
    group: s.context.group,
    requested: s.context.requested,
    prompt: s.context.prompt,
    busy: !s.matches('idle') && !s.matches('confirming'),
    confirming: s.matches('confirming'),
    saving: s.matches('saving'),
    cancelling: s.matches('cancelling'),
  }));
  // While a change is asked for or being confirmed the select shows the chosen group; otherwise the saved one.
  const shown = view.requested && !view.cancelling ? view.requested : view.group;
  // The select is disabled while the change is asked for, saved or undone: focus comes back to it after.
  const select = useFocusReturn<HTMLSelectElement>(!view.busy && !view.confirming);
  return (
    <>
      <NativeSelect
        aria-label={`Role of ${view.name}`}
        value={shown}
        disabled={view.busy}
        aria-busy={view.busy || undefined}
        ref={select.ref}
        onChange={(event) => {
          select.start();
          actor.send({ type: 'role.select', group: event.target.value as HepicGroup });
        }}
      >
        {HEPIC_GROUPS.map((group) => (
          <option key={group} value={group}>
            {group}
          </option>
        ))}
      </NativeSelect>
      <Dialog
        open={view.confirming || view.saving}
        onOpenChange={(open) => {
          if (!open && view.confirming) actor.send({ type: 'role.cancel' });
        }}
        role="alertdialog"
        finalFocus={select.ref}
        title="Update user role"
        description={view.prompt ?? (view.requested ? roleConfirmText(view.name, view.requested) : '')}
        footer={
          <>
            <Button variant="outline" disabled={!view.confirming} onClick={() => actor.send({ type: 'role.cancel' })}>
              Cancel
            </Button>
            <Button loading={view.saving} disabled={!view.confirming} onClick={() => actor.send({ type: 'role.confirm' })}>
              Confirm
            </Button>
          </>
        }
      />
    </>
  );
}

export interface RoleCalls {
  request: (userId: string, group: HepicGroup) => Promise<{ message: string }>;
  save: (userId: string, group: HepicGroup) => Promise<{ message: string }>;
  restore: (userId: string, group: HepicGroup) => Promise<{ message: string }>;
}

export function HepicRoleSelect(props: { userId: string; name: string; group: HepicGroup; calls: RoleCalls; onChanged: () => void }) {
  const actor = useActorRef(
    hepicRoleConfirmMachine.provide({
      actors: {
        requestConfirm: fromPromise(({ input }) => props.calls.request(input.userId, input.group)),
        saveRole: fromPromise(({ input }) => props.calls.save(input.userId, input.group)),
        restoreRole: fromPromise(({ input }) => props.calls.restore(input.userId, input.group)),
      },
      actions: {
        notifyUpdated: (_, params) => toast.success(params.message),
        notifyFailed: (_, params) => toast.error(params.message),
        refreshUsers: () => props.onChanged(),
      },
    }),
    { input: { userId: props.userId, name: props.name, group: props.group } },
  );
  // The refetched user list is the truth once it arrives.
  useEffect(() => actor.send({ type: 'role.sync', group: props.group }), [actor, props.group]);
  return <HepicRoleControl actor={actor} />;
}
