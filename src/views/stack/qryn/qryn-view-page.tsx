// The qryn View (/{projectSlug}/stack/qryn/view, loaded on demand): the explorer of the instance's data. It reads
// with the member's sign-in (the gateway lets the project's members read, their role deciding), or with the credential
// of the `organization_project` cookie when one was kept for this instance (spec 001 §7 Other: auth and url, secure,
// path /); when neither answers it asks for one (a token, key:secret, or a read token it creates — not for read-only
// members), then opens the explorer
// (explorer/explorer-shell.tsx): PromQL, LogQL and TraceQL with an editor that knows the instance's labels, charts,
// logs and traces. The credential flow is the qryn-explorer machine; docs/qryn.md "qryn View: the explorer".
import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { css } from 'styled-system/css';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, Input } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { VIEW_TOKEN_NAME, qrynExplorerMachine, type QrynExplorerMachine } from '../../../machines/qryn-explorer/qryn-explorer.machine';
import { createQrynToken, type QrynConfigData } from '../../../services/qryn';
import { EXPLORER_REFUSED_MESSAGE, labelNames } from '../../../services/qryn-explorer';
import { clearViewCookie, SESSION_AUTH, viewCredentialFor, writeViewCookie } from '../../../services/qryn-view';
import { useShellData } from '../../shell/use-shell-data';
import { ExplorerShell, type ExplorerPanels } from './explorer/explorer-shell';

// The logs and traces panels (with their machines and reads) load when a LogQL log query or a TraceQL query first
// shows results, so that a metrics session does not carry them (docs/qryn.md "The explorer's bundle").
const LogsPanel = lazy(async () => ({ default: (await import('./explorer/logs/logs-panel')).LogsPanel }));
const TracesPanel = lazy(async () => ({ default: (await import('./explorer/traces/traces-panel')).TracesPanel }));

export function CredentialForm({ actor }: { actor: ActorRefFrom<QrynExplorerMachine> }) {
  const state = useSelector(actor, (s) => s);
  const busy = state.matches('connecting') || state.matches('creatingToken');
  const [auth, setAuth] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'explorer.connect', auth });
  };
  return (
    <Card title="Connect to your instance" description="The View reads your data with your sign-in as a member of this project, or with a credential of this instance kept in this browser's organization_project cookie.">
      <form aria-label="Connect" noValidate onSubmit={submit} className={css({ display: 'flex', flexDirection: 'column', gap: '4', maxW: '2xl' })}>
        <Field label="Token or key:secret" required errorText={state.context.credentialError ?? undefined} disabled={busy} helperText="A read token, or the API key and the secret you kept, joined by a colon.">
          <Input name="auth" type="password" autoComplete="off" value={auth} onChange={(e) => setAuth(e.target.value)} />
        </Field>
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
          <Button type="submit" loading={state.matches('connecting') && state.context.auth !== SESSION_AUTH} disabled={busy}>
            Connect
          </Button>
          <Button type="button" variant="outline" loading={state.matches('connecting') && state.context.auth === SESSION_AUTH} disabled={busy} onClick={() => actor.send({ type: 'explorer.useSession' })}>
            Use my sign-in
          </Button>
          {!state.context.readOnly && (
            <Button type="button" variant="outline" loading={state.matches('creatingToken')} disabled={busy} onClick={() => actor.send({ type: 'explorer.createToken' })}>
              Create a read token for the View
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}

/** The logs and traces panels inside the shell, with this instance and credential. */
function instancePanels(instanceUrl: string, auth: string, refused: () => void): ExplorerPanels {
  return {
    logs: ({ run, onQueryChange, onOpenTrace }) => (
      <Suspense fallback={<Spinner label="Loading the logs panel" />}>
        <LogsPanel instanceUrl={instanceUrl} auth={auth} query={run.query} range={run.range} runId={run.id} onQueryChange={onQueryChange} onOpenTrace={onOpenTrace} onCredentialRefused={refused} />
      </Suspense>
    ),
    traces: ({ run, traceId, onOpenTrace }) => (
      <Suspense fallback={<Spinner label="Loading the traces panel" />}>
        <TracesPanel instanceUrl={instanceUrl} auth={auth} query={run.query} range={run.range} runId={run.id} traceId={traceId} onOpenTrace={onOpenTrace} onCredentialRefused={refused} />
      </Suspense>
    ),
  };
}

export function QrynViewPage({ config }: { config: QrynConfigData }) {
  const { currentProject, readOnly } = useShellData();
  const project = currentProject!;
  const queryClient = useQueryClient();
  const actor = useActorRef(
    qrynExplorerMachine.provide({
      actors: {
        createViewToken: fromPromise(async () => ({ token: (await createQrynToken(project.id, { name: VIEW_TOKEN_NAME, scope: 'read' })).token.token })),
        checkCredential: fromPromise(({ input }) => {
          const to = Date.now();
          return labelNames({ url: config.url, auth: input.auth }, 'logql', { from: to - 3_600_000, to });
        }),
      },
      actions: {
        rememberCredential: (_, params) => {
          writeViewCookie({ auth: params.auth, url: config.url });
          void queryClient.invalidateQueries({ queryKey: ['qryn', project.id, 'tokens'] });
        },
        forgetCredential: () => clearViewCookie(),
      },
    }),
    { input: { readOnly } },
  );
  useEffect(() => {
    // The credential someone kept for this instance connects at once; without one, the member's sign-in does.
    const auth = viewCredentialFor(config.url);
    actor.send(auth ? { type: 'explorer.connect', auth } : { type: 'explorer.useSession' });
  }, [actor, config.url]);
  const connected = useSelector(actor, (s) => s.matches('connected'));
  const auth = useSelector(actor, (s) => s.context.auth);
  const target = useMemo(() => ({ url: config.url, auth: auth ?? '' }), [config.url, auth]);
  const panels = useMemo(() => instancePanels(config.url, auth ?? '', () => actor.send({ type: 'explorer.refused', message: EXPLORER_REFUSED_MESSAGE })), [config.url, auth, actor]);
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <p>
        qryn View of <code>{config.url}</code>
        {connected && auth === SESSION_AUTH ? ', read with your sign-in' : ''}. <Link to={`/${project.slug}/stack/qryn`}>Back to the Overview</Link>
      </p>
      {connected && auth ? (
        <ExplorerShell
          target={target}
          panels={panels}
          onDisconnect={auth === SESSION_AUTH ? undefined : () => actor.send({ type: 'explorer.disconnect' })}
          onCredentialRefused={(message) => actor.send({ type: 'explorer.refused', message })}
        />
      ) : (
        <CredentialForm actor={actor} />
      )}
    </div>
  );
}
