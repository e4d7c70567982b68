// The confirmation modal of a confirmed change (the confirmed-change machine): qryn's token deletion and retention
// change, and the organization's pending-invitation deletion.
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import type { ConfirmedChangeMachine } from '../../machines/confirmed-change/confirmed-change.machine';

/** The modal names the subject; Cancel closes it, the confirm button applies the change and shows a failure in place. */
export function ConfirmChangeDialog({
  actor,
  title,
  confirmLabel,
  children,
}: {
  actor: ActorRefFrom<ConfirmedChangeMachine>;
  title: string;
  confirmLabel: string;
  children?: ReactNode;
}) {
  const state = useSelector(actor, (s) => s);
  const applying = state.matches('applying');
  return (
    <Dialog
      open={!state.matches('closed')}
      onOpenChange={(open) => {
        if (!open && !applying) actor.send({ type: 'change.cancel' });
      }}
      role="alertdialog"
      title={title}
      footer={
        <>
          <Button variant="outline" disabled={applying} onClick={() => actor.send({ type: 'change.cancel' })}>
            Cancel
          </Button>
          <Button loading={applying} onClick={() => actor.send({ type: 'change.confirm' })}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {state.matches('failed') && <Alert status="error">{state.context.error}</Alert>}
    </Dialog>
  );
}
