// qryn's Auth Tokens page (spec 001 §2 qryn Auth page): the access keys and the scoped tokens; action=create-token
// opens the create modal, action=delete-token (with token_id) the delete modal.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { fromPromise } from 'xstate';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate, pluralize } from '../../../lib/format';
import { confirmedChangeMachine } from '../../../machines/confirmed-change/confirmed-change.machine';
import { qrynTokenCreateMachine } from '../../../machines/qryn-token-create/qryn-token-create.machine';
import { createQrynToken, deleteQrynToken, type QrynConfigData } from '../../../services/qryn';
import { toast } from '../../../services/toast-store';
import { useShellData } from '../../shell/use-shell-data';
import { ConfirmChangeDialog } from '../../confirm-change/confirm-change-dialog';
import { CreateTokenDialog } from './qryn-dialogs';
import { RotateKeys } from './qryn-overview-view';
import { qrynQueries } from './qryn-queries';
import { actionAlone, subjectBeside } from '../../../lib/url-state';
import { useUrlDialog } from '../../url-state/use-url-state';

// The token dialogs' addresses (spec 001 §2 qryn): ?action=create-token and ?action=delete-token&token_id={id}.
const CREATE_TOKEN_ADDRESS = actionAlone('create-token');
const DELETE_TOKEN_ADDRESS = subjectBeside('action', 'delete-token', 'token_id');

export const DELETE_TOKEN_WARNING = 'Applications that use this token are refused from now on. This cannot be undone.';

function AccessKeys({ config }: { config: QrynConfigData }) {
  return (
    <Card title="Access keys" description="HTTP basic auth with the API key and secret reads and writes everything in this instance." headerAction={<RotateKeys projectId={config.projectId} />}>
      <dl className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
        <div>
          <dt className={css({ fontWeight: 'semibold', textStyle: 'sm' })}>API KEY</dt>
          <dd className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
            <code aria-label="API KEY" className={css({ fontFamily: 'mono', textStyle: 'sm', flex: '1', wordBreak: 'break-all' })}>
              {config.apiKey}
            </code>
            {config.apiKey && <CopyButton value={config.apiKey} label="Copy API KEY" />}
          </dd>
        </div>
        <div>
          <dt className={css({ fontWeight: 'semibold', textStyle: 'sm' })}>API SECRET</dt>
          <dd className={css({ color: 'fg.muted', textStyle: 'sm' })}>Shown only when qryn is enabled and when the keys are rotated (Rotate API keys).</dd>
        </div>
      </dl>
    </Card>
  );
}

export function QrynAuthView({ config }: { config: QrynConfigData }) {
  const project = useShellData().currentProject!;
  const queryClient = useQueryClient();
  const tokens = useQuery(qrynQueries.tokens(project.id));
  const refreshTokens = () => void queryClient.invalidateQueries({ queryKey: ['qryn', project.id, 'tokens'] });

  const create = useActorRef(
    qrynTokenCreateMachine.provide({
      actors: { createToken: fromPromise(({ input }) => createQrynToken(project.id, input)) },
      actions: { notifyCreated: (_, params) => toast.success(params.message), refreshTokens },
    }),
  );
  const remove = useActorRef(
    confirmedChangeMachine.provide({
      actors: { applyChange: fromPromise(({ input }) => deleteQrynToken(project.id, Number(input.id))) },
      actions: { notifyApplied: (_, params) => toast.success(params.message), refresh: refreshTokens },
    }),
  );
  const createClosed = useSelector(create, (s) => s.matches('closed'));
  const removeClosed = useSelector(remove, (s) => s.matches('closed'));
  const removing = useSelector(remove, (s) => s.context.subject);

  const openCreate = useUrlDialog({
    address: CREATE_TOKEN_ADDRESS,
    ready: true,
    dialogOpen: !createClosed,
    open: () => {
      create.send({ type: 'token.open' });
      return true;
    },
  });
  // A token that is not (or no longer) there clears the address instead of leaving it asking.
  const openDelete = useUrlDialog({
    address: DELETE_TOKEN_ADDRESS,
    ready: tokens.isSuccess,
    dialogOpen: !removeClosed,
    open: (id) => {
      const token = tokens.data?.find((t) => String(t.id) === id);
      if (!token) return false;
      remove.send({ type: 'change.open', subject: { id: String(token.id), label: token.name } });
      return true;
    },
  });

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <AccessKeys config={config} />
      <Card
        title="Scoped tokens"
        description={tokens.data ? `This qryn instance has ${pluralize(tokens.data.length, 'scoped token')}` : undefined}
        headerAction={<Button onClick={() => openCreate()}>Create token</Button>}
      >
        {tokens.isPending && <Spinner label="Loading the tokens" />}
        {tokens.isError && <Alert status="error">We encountered an error while fetching some data.</Alert>}
        {tokens.data && tokens.data.length > 0 && (
          <ul aria-label="Scoped tokens" className={css({ display: 'flex', flexDirection: 'column', gap: '2', listStyle: 'none', p: '0' })}>
            {tokens.data.map((token) => (
              <li key={token.id} aria-label={token.name} className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap', borderBottomWidth: '1px', pb: '2' })}>
                <span className={css({ fontWeight: 'semibold' })}>
                  {token.name} ({token.scope})
                </span>
                <code className={css({ fontFamily: 'mono', textStyle: 'sm', color: 'fg.muted' })}>{token.token}</code>
                <span className={css({ textStyle: 'sm', color: 'fg.muted', flex: '1' })}>created {formatDate(token.createdAt)}</span>
                <Button variant="outline" size="sm" aria-label={`Delete token ${token.name}`} onClick={() => openDelete(String(token.id))}>
                  Delete
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <CreateTokenDialog actor={create} />
      <ConfirmChangeDialog actor={remove} title={`Delete the token ${removing?.label ?? ''}?`} confirmLabel="Delete token">
        <p>{DELETE_TOKEN_WARNING}</p>
      </ConfirmChangeDialog>
    </div>
  );
}
