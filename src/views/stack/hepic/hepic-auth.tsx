// Hepic's Auth page (spec 001 §2 Hepic): the 'Scoped tokens' card and the 'Create a new scoped token' modal, opened
// by ?action=create-token; it posts CREATE_HEPIC_TOKEN (name, a hidden scope fixed to read, 'TTL Days' default 1).
// Only a token's hash is kept (docs/hepic.md, "Keys"): the modal shows the new token once, with its copy button;
// the list shows each token's hint (the spec's copy fields held the token itself).
import { useState } from 'react';
import { useParams } from 'react-router';
import { css } from 'styled-system/css';
import { decodeInput, type FieldErrors } from '../../../../contract/common';
import { CreateHepicTokenBody, SHOWN_ONCE_MESSAGE, TOKEN_TTL_DEFAULT_DAYS } from '../../../../contract/hepic';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/format';
import { ReadOnlyCopy } from './hepic-read-only-copy';
import { useHepicIntent, useHepicTokens } from './use-hepic';
import { useUrlActionFlag } from '../../url-state/use-url-state';

export function HepicAuthPage({ projectId }: { projectId: number }) {
  const tokens = useHepicTokens(projectId);
  const [open, setOpen] = useUrlActionFlag('create-token');
  const count = tokens.data?.length ?? 0;
  return (
    <Card
      title="Scoped tokens"
      headerAction={
        <Button size="sm" onClick={() => setOpen(true)}>
          Create token
        </Button>
      }
    >
      {tokens.isPending && <Spinner label="Loading the tokens" />}
      {tokens.isError && <Alert status="error">We encountered an error while fetching some data.</Alert>}
      {tokens.data && (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
          <p>
            This hepic instance has {count} scoped {count === 1 ? 'token' : 'tokens'}
          </p>
          {tokens.data.map((token) => (
            <div key={token.id}>
              <ReadOnlyCopy label={`${token.name} (${token.scope})`} value={token.tokenHint} />
              <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
                Expires {formatDateTime(token.expires)}. Only the first and last characters are shown: the token was shown once, when it was created.
              </p>
            </div>
          ))}
        </div>
      )}
      {open && <CreateTokenDialog projectId={projectId} onClose={() => setOpen(false)} />}
    </Card>
  );
}

function CreateTokenDialog({ projectId, onClose }: { projectId: number; onClose: () => void }) {
  const fetcher = useHepicIntent(projectId);
  const { projectSlug } = useParams();
  const [name, setName] = useState('');
  const [ttlDays, setTtlDays] = useState(String(TOKEN_TTL_DEFAULT_DAYS));
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const serverErrors = fetcher.data && !fetcher.data.ok ? (fetcher.data.fieldErrors ?? {}) : {};
  const errors = { ...serverErrors, ...clientErrors };
  const busy = fetcher.state !== 'idle';
  // The new token, shown in this modal once: it stays open on it until Done.
  const created = fetcher.state === 'idle' && fetcher.data?.ok === true ? (fetcher.data.token ?? null) : null;

  const submit = () => {
    // The contract's rules first (the server applies them again); the form keeps what was typed on failure.
    const outcome = decodeInput(CreateHepicTokenBody, { name, scope: 'read', ttl_days: Number(ttlDays || Number.NaN) });
    if (!outcome.ok) return setClientErrors(outcome.errors);
    setClientErrors({});
    fetcher.submit({ intent: 'CREATE_HEPIC_TOKEN', projectId: String(projectId), name, scope: 'read', ttlDays }, { method: 'post', action: `/${projectSlug}/stack/hepic` });
  };

  if (created) {
    return (
      <Dialog open onOpenChange={(next) => !next && onClose()} title="Your new scoped token" description={SHOWN_ONCE_MESSAGE} footer={<Button onClick={onClose}>Done</Button>}>
        <ReadOnlyCopy label="New token" value={created} />
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      onOpenChange={(next) => !next && onClose()}
      title="Create a new scoped token"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={busy} onClick={submit}>
            Create token
          </Button>
        </>
      }
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
      >
        <Field label="Name" helperText="A descriptive name: where the token is used." errorText={errors.name?.[0]}>
          <Input name="name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
        </Field>
        <input type="hidden" name="scope" value="read" />
        <Field label="TTL Days" errorText={errors.ttl_days?.[0]}>
          <Input name="ttlDays" type="number" min={1} step={1} value={ttlDays} onChange={(e) => setTtlDays(e.target.value)} />
        </Field>
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
