// qryn's modals, each driven by its machine: Rotate API keys (Overview), Create token and Delete token (Auth Tokens),
// Change your Retention Policy (Config).
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import { TOKEN_SCOPES, type TokenScope } from '../../../../contract/qryn';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input, NativeSelect } from '../../../components/ui/field';
import { ROTATE_KEYS_NOTE, ROTATE_KEYS_QUESTION, type QrynKeyRotationMachine } from '../../../machines/qryn-key-rotation/qryn-key-rotation.machine';
import type { QrynTokenCreateMachine } from '../../../machines/qryn-token-create/qryn-token-create.machine';

/** A value shown once (a new secret or token), with its copy button. */
export function SecretValue({ label, value }: { label: string; value: string }) {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
      <span className={css({ fontWeight: 'semibold', textStyle: 'sm' })}>{label}</span>
      <div className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
        <code aria-label={label} className={css({ fontFamily: 'mono', textStyle: 'sm', wordBreak: 'break-all', flex: '1' })}>
          {value}
        </code>
        <CopyButton value={value} label={`Copy ${label}`} />
      </div>
    </div>
  );
}

export function RotateKeysDialog({ actor }: { actor: ActorRefFrom<QrynKeyRotationMachine> }) {
  const state = useSelector(actor, (s) => s);
  const rotating = state.matches('rotating');
  const keys = state.context.keys;
  return (
    <Dialog
      open={!state.matches('closed')}
      onOpenChange={(open) => {
        if (!open && !rotating) actor.send({ type: 'rotation.cancel' });
      }}
      role="alertdialog"
      title={state.matches('rotated') ? 'Your new API keys' : 'Rotate API keys'}
      description={state.matches('rotated') ? 'Keep the secret: it is shown only now.' : ROTATE_KEYS_QUESTION}
      footer={
        state.matches('rotated') ? (
          <Button onClick={() => actor.send({ type: 'rotation.cancel' })}>Done</Button>
        ) : (
          <>
            <Button variant="outline" disabled={rotating} onClick={() => actor.send({ type: 'rotation.cancel' })}>
              Cancel
            </Button>
            <Button loading={rotating} onClick={() => actor.send({ type: 'rotation.confirm' })}>
              Rotate Keys
            </Button>
          </>
        )
      }
    >
      {!state.matches('rotated') && <p>{ROTATE_KEYS_NOTE}</p>}
      {state.matches('failed') && <Alert status="error">{state.context.error}</Alert>}
      {keys && (
        <>
          <SecretValue label="API KEY" value={keys.apiKey} />
          <SecretValue label="API SECRET" value={keys.apiSecret} />
        </>
      )}
    </Dialog>
  );
}

const SCOPE_LABELS: Record<TokenScope, string> = { read: 'read', write: 'write', 'read write': 'read write' };

export function CreateTokenDialog({ actor }: { actor: ActorRefFrom<QrynTokenCreateMachine> }) {
  const state = useSelector(actor, (s) => s);
  const { form, fieldErrors, error, created } = state.context;
  const creating = state.matches('creating');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    actor.send({ type: 'token.submit', form: { name: String(data.get('name') ?? ''), scope: String(data.get('scope') ?? 'read') as TokenScope } });
  };
  return (
    <Dialog
      open={!state.matches('closed')}
      onOpenChange={(open) => {
        if (!open && !creating) actor.send({ type: 'token.close' });
      }}
      title={created ? 'The new token' : 'Create a new scoped token'}
      description={created ? 'Keep the token: it is shown only now.' : 'A read token can query the instance; a write token can push data to it.'}
    >
      {created ? (
        <>
          <SecretValue label={`${created.name} (${created.scope})`} value={created.token} />
          <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
            <Button onClick={() => actor.send({ type: 'token.close' })}>Done</Button>
          </div>
        </>
      ) : (
        // key: a refused submit comes back with the form as it was filled.
        <form key={`${form.name}|${form.scope}`} aria-label="Create token" noValidate onSubmit={submit} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          {error && <Alert status="error">{error}</Alert>}
          <Field label="Name" required errorText={fieldErrors.name?.join(' ')} disabled={creating}>
            <Input name="name" defaultValue={form.name} autoFocus />
          </Field>
          <Field label="Scope" errorText={fieldErrors.scope?.join(' ')} disabled={creating}>
            <NativeSelect name="scope" defaultValue={form.scope}>
              {TOKEN_SCOPES.map((scope) => (
                <option key={scope} value={scope}>
                  {SCOPE_LABELS[scope]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '3' })}>
            <Button type="button" variant="outline" disabled={creating} onClick={() => actor.send({ type: 'token.close' })}>
              Cancel
            </Button>
            <Button type="submit" loading={creating}>
              Create token
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}


