// /account/delete: the delete-account modal over Account Settings (spec 000 section 2). Closing it returns to
// /account; a deletion signs out through /logout.
import { useActorRef } from '@xstate/react';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { fromPromise } from 'xstate';
import { accountDeletionMachine } from '../../machines/account-deletion/account-deletion.machine';
import { toast } from '../../services/toast-store';
import { deleteAccount } from '../../services/users';
import { AccountSettingsView } from './account-settings-view';
import { DeleteAccountDialog } from './delete-account-dialog';

export function AccountDeleteView() {
  const navigate = useNavigate();
  const deletion = useActorRef(
    accountDeletionMachine.provide({
      actors: { deleteAccount: fromPromise(() => deleteAccount()) },
      actions: {
        signOut: (_, p) => {
          toast.success(p.message);
          navigate('/logout', { replace: true });
        },
        leave: () => navigate('/account', { replace: true }),
      },
    }),
  );
  useEffect(() => {
    if (deletion.getSnapshot().matches('closed')) deletion.send({ type: 'deletion.open' });
  }, [deletion]);
  return (
    <AccountSettingsView>
      <DeleteAccountDialog actor={deletion} />
    </AccountSettingsView>
  );
}
