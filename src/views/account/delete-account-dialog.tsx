// The delete-account modal (spec 000 sections 2 and 8), driven by an account-deletion actor.
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import { ErrorText } from '../../../contract/errors';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import type { AccountDeletionMachine } from '../../machines/account-deletion/account-deletion.machine';

export const DELETE_ACCOUNT_WARNING =
  'Your profile, your sign-in, your personal projects and the organizations you alone belong to are deleted with their integrations. Organizations with other members stay with them. This action cannot be undone.';
export const PENDING_PAYMENTS_TEXT = 'Please pay the open invoices before deleting your account.';

export function DeleteAccountDialog({ actor }: { actor: ActorRefFrom<AccountDeletionMachine> }) {
  const state = useSelector(actor, (s) => s);
  const deleting = state.matches('deleting');
  const pending = state.matches('pendingPayments');
  const failed = state.matches('failed');
  const close = () => actor.send({ type: 'deletion.close' });
  return (
    <Dialog
      open={!state.matches('closed') && !state.matches('deleted')}
      onOpenChange={(open) => {
        if (!open && !deleting) close();
      }}
      role="alertdialog"
      title={pending ? ErrorText.pendingPayments : 'Delete your account?'}
      description={pending ? PENDING_PAYMENTS_TEXT : DELETE_ACCOUNT_WARNING}
      footer={
        pending ? (
          <>
            <Button variant="outline" onClick={close}>
              Close
            </Button>
            <a href={state.context.paymentLink ?? '/billing'} className={css({ px: '4', py: '2', borderRadius: 'l2', bg: 'colorPalette.solid', color: 'colorPalette.contrast', fontWeight: 'medium' })}>
              Pay now
            </a>
          </>
        ) : (
          <>
            <Button variant="outline" disabled={deleting} onClick={close}>
              {failed ? 'Close' : 'Cancel'}
            </Button>
            <Button loading={deleting} onClick={() => actor.send({ type: 'deletion.confirm' })}>
              {failed ? 'Try again' : 'Delete my account'}
            </Button>
          </>
        )
      }
    >
      {failed && <Alert status="error">{state.context.error}</Alert>}
    </Dialog>
  );
}
