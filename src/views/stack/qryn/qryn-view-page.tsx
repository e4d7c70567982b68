// The qryn View (/{projectSlug}/stack/qryn/view, loaded on demand): where the user sees their data. It reads the
// `organization_project` cookie (spec 001 §7 Other: auth and url, secure, path /) for this instance's credential or
// asks for one (a token, key:secret, or a read token it creates), then queries the instance's read side: Loki labels,
// label values and query_range, Prometheus query_range, traces by id. Results export as YourData.json / YourData.csv,
// built in the browser. The flow is the qryn-view machine; docs/qryn.md "qryn View".
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { css } from 'styled-system/css';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonStyles } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, Input, NativeSelect } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { VIEW_TOKEN_NAME, qrynViewMachine, type QrynViewMachine } from '../../../machines/qryn-view/qryn-view.machine';
import { createQrynToken, type QrynConfigData } from '../../../services/qryn';
import {
  clearViewCookie,
  runViewQuery,
  tableCsv,
  tableJson,
  viewCredentialFor,
  viewLabels,
  viewLabelValues,
  writeViewCookie,
  type ViewMode,
  type ViewTable,
} from '../../../services/qryn-view';
import { useShellData } from '../../shell/use-shell-data';

export const RANGES = [
  { value: '900000', label: 'Last 15 minutes' },
  { value: '3600000', label: 'Last hour' },
  { value: '21600000', label: 'Last 6 hours' },
  { value: '86400000', label: 'Last 24 hours' },
  { value: '604800000', label: 'Last 7 days' },
] as const;

const MODES: { value: ViewMode; label: string; queryLabel: string; placeholder: string }[] = [
  { value: 'logs', label: 'Logs (LogQL)', queryLabel: 'Log query', placeholder: '{job="my-app"} |= "error"' },
  { value: 'metrics', label: 'Metrics (PromQL series)', queryLabel: 'Series selector', placeholder: 'http_requests_total{job="api"}' },
  { value: 'traces', label: 'Traces (by id)', queryLabel: 'Trace id', placeholder: '4bf92f3577b34da6a3ce929d0e0e4736' },
];

const LIMITS = ['100', '500', '1000', '5000'];

/** Where the label pickers read from: the instance's read side in the page, doubles in the tests. */
export interface LabelSource {
  /** Tells one credential's answers from another's in the query cache. */
  key: string;
  names: (mode: 'logs' | 'metrics', rangeMs: number) => Promise<string[]>;
  values: (mode: 'logs' | 'metrics', name: string, rangeMs: number) => Promise<string[]>;
}

const dataUrl = (type: string, text: string) => `data:${type};charset=utf-8,${encodeURIComponent(text)}`;

function CredentialForm({ actor }: { actor: ActorRefFrom<QrynViewMachine> }) {
  const state = useSelector(actor, (s) => s);
  const busy = state.matches('connecting') || state.matches('creatingToken');
  const [auth, setAuth] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'view.connect', auth });
  };
  return (
    <Card title="Connect to your instance" description="The View reads your data with a credential of this instance, kept in this browser's organization_project cookie.">
      <form aria-label="Connect" noValidate onSubmit={submit} className={css({ display: 'flex', flexDirection: 'column', gap: '4', maxW: '2xl' })}>
        <Field label="Token or key:secret" required errorText={state.context.credentialError ?? undefined} disabled={busy} helperText="A read token, or the API key and the secret you kept, joined by a colon.">
          <Input name="auth" type="password" autoComplete="off" value={auth} onChange={(e) => setAuth(e.target.value)} />
        </Field>
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
          <Button type="submit" loading={state.matches('connecting')} disabled={busy}>
            Connect
          </Button>
          <Button type="button" variant="outline" loading={state.matches('creatingToken')} disabled={busy} onClick={() => actor.send({ type: 'view.createToken' })}>
            Create a read token for the View
          </Button>
        </div>
      </form>
    </Card>
  );
}

function LabelPicker({ source, mode, rangeMs, onPick }: { source: LabelSource; mode: 'logs' | 'metrics'; rangeMs: number; onPick: (name: string, value: string) => void }) {
  const [name, setName] = useState('');
  const names = useQuery({ queryKey: ['qryn-view', source.key, 'labels', mode, rangeMs], queryFn: () => source.names(mode, rangeMs), retry: false });
  const values = useQuery({ queryKey: ['qryn-view', source.key, 'values', mode, name, rangeMs], queryFn: () => source.values(mode, name, rangeMs), enabled: name !== '', retry: false });
  return (
    <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'flex-end' })}>
      <Field label="Label" errorText={names.isError ? (names.error as Error).message : undefined} className={css({ minW: '48' })}>
        <NativeSelect value={name} onChange={(e) => setName(e.target.value)} disabled={!names.data}>
          <option value="">{names.isPending ? 'Loading labels…' : names.data?.length === 0 ? 'No labels in this range' : 'Choose a label'}</option>
          {names.data?.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Value" errorText={values.isError ? (values.error as Error).message : undefined} className={css({ minW: '48' })}>
        <NativeSelect value="" onChange={(e) => e.target.value && onPick(name, e.target.value)} disabled={!values.data}>
          <option value="">{name === '' ? 'Choose a label first' : values.isPending ? 'Loading values…' : 'Choose a value'}</option>
          {values.data?.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </NativeSelect>
      </Field>
    </div>
  );
}

function ResultsTable({ table }: { table: ViewTable }) {
  const exports = useMemo(() => ({ csv: dataUrl('text/csv', tableCsv(table)), json: dataUrl('application/json', tableJson(table)) }), [table]);
  return (
    <Card
      title="Results"
      description={`${table.rows.length} ${table.rows.length === 1 ? 'row' : 'rows'}`}
      headerAction={
        <div className={css({ display: 'flex', gap: '2' })}>
          <a className={buttonStyles({ variant: 'outline', size: 'sm' })} download="YourData.csv" href={exports.csv}>
            Export CSV
          </a>
          <a className={buttonStyles({ variant: 'outline', size: 'sm' })} download="YourData.json" href={exports.json}>
            Export JSON
          </a>
        </div>
      }
    >
      {table.rows.length === 0 ? (
        <p>Nothing matched in this time range.</p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table aria-label="Results" className={css({ w: 'full', textAlign: 'left', textStyle: 'sm', '& th, & td': { py: '1', pr: '4', verticalAlign: 'top' }, '& td': { fontFamily: 'mono', wordBreak: 'break-word' } })}>
            <thead>
              <tr>
                {table.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, i) => (
                <tr key={i}>
                  {row.map((cell, j) => (
                    <td key={j}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** The View's screen for one actor: the credential form, or the query form and its results. */
export function QrynViewPanel({ actor, labels, now = Date.now }: { actor: ActorRefFrom<QrynViewMachine>; labels: LabelSource; now?: () => number }) {
  const state = useSelector(actor, (s) => s);
  const [mode, setMode] = useState<ViewMode>('logs');
  const [query, setQuery] = useState('');
  const [rangeMs, setRangeMs] = useState(3_600_000);
  const [limit, setLimit] = useState('100');
  if (!state.matches('connected')) return <CredentialForm actor={actor} />;
  const querying = state.matches({ connected: 'querying' });
  const modeInfo = MODES.find((m) => m.value === mode)!;
  const run = (event: FormEvent) => {
    event.preventDefault();
    const to = now();
    actor.send({ type: 'view.run', query: { mode, query, range: { fromMs: to - rangeMs, toMs: to }, limit: Number(limit) } });
  };
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <Card title="Query" headerAction={<Button variant="outline" size="sm" onClick={() => actor.send({ type: 'view.disconnect' })}>Forget the credential</Button>}>
        <form aria-label="Query" noValidate onSubmit={run} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
            <Field label="Data" className={css({ minW: '48' })}>
              <NativeSelect value={mode} onChange={(e) => setMode(e.target.value as ViewMode)}>
                {MODES.map((m) => (
                  <option key={m.value} value={m.value}>
                    {m.label}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Time range" className={css({ minW: '48' })}>
              <NativeSelect value={String(rangeMs)} onChange={(e) => setRangeMs(Number(e.target.value))}>
                {RANGES.map((r) => (
                  <option key={r.value} value={r.value}>
                    {r.label}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            {mode === 'logs' && (
              <Field label="Limit" className={css({ minW: '32' })}>
                <NativeSelect value={limit} onChange={(e) => setLimit(e.target.value)}>
                  {LIMITS.map((l) => (
                    <option key={l} value={l}>
                      {l}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
            )}
          </div>
          {mode !== 'traces' && <LabelPicker key={mode} source={labels} mode={mode} rangeMs={rangeMs} onPick={(name, value) => setQuery(`{${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"}`)} />}
          <Field label={modeInfo.queryLabel} required errorText={state.context.queryError ?? undefined} disabled={querying}>
            <Input name="query" value={query} placeholder={modeInfo.placeholder} onChange={(e) => setQuery(e.target.value)} className={css({ fontFamily: 'mono' })} />
          </Field>
          <div>
            <Button type="submit" loading={querying}>
              Run query
            </Button>
          </div>
        </form>
      </Card>
      {querying && <Spinner size="lg" label="Running the query" />}
      {state.matches({ connected: 'showing' }) && state.context.table && <ResultsTable table={state.context.table} />}
      {state.matches({ connected: 'queryFailed' }) && <Alert status="error" title="The query failed">{state.context.queryError}</Alert>}
    </div>
  );
}

export function QrynViewPage({ config }: { config: QrynConfigData }) {
  const { currentProject } = useShellData();
  const project = currentProject!;
  const queryClient = useQueryClient();
  const credentialOf = (auth: string) => ({ auth, url: config.url });
  const actor = useActorRef(
    qrynViewMachine.provide({
      actors: {
        createViewToken: fromPromise(async () => ({ token: (await createQrynToken(project.id, { name: VIEW_TOKEN_NAME, scope: 'read' })).token.token })),
        checkCredential: fromPromise(({ input }) => {
          const to = Date.now();
          return viewLabels(credentialOf(input.auth), 'logs', { fromMs: to - 3_600_000, toMs: to });
        }),
        runQuery: fromPromise(({ input, signal }) => runViewQuery(credentialOf(input.auth), input.query, signal)),
      },
      actions: {
        rememberCredential: (_, params) => {
          writeViewCookie(credentialOf(params.auth));
          void queryClient.invalidateQueries({ queryKey: ['qryn', project.id, 'tokens'] });
        },
        forgetCredential: () => clearViewCookie(),
      },
    }),
  );
  useEffect(() => {
    // The cookie's credential, when it was set for this instance, connects at once.
    const auth = viewCredentialFor(config.url);
    if (auth) actor.send({ type: 'view.connect', auth });
  }, [actor, config.url]);
  const auth = useSelector(actor, (s) => s.context.auth);
  const labels = useMemo<LabelSource>(
    () => ({
      key: `${config.url}|${auth ?? ''}`,
      names: (mode, rangeMs) => viewLabels(credentialOf(auth ?? ''), mode, { fromMs: Date.now() - rangeMs, toMs: Date.now() }),
      values: (mode, name, rangeMs) => viewLabelValues(credentialOf(auth ?? ''), mode, name, { fromMs: Date.now() - rangeMs, toMs: Date.now() }),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [auth, config.url],
  );
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <p>
        qryn View of <code>{config.url}</code>. <Link to={`/${project.slug}/stack/qryn`}>Back to the Overview</Link>
      </p>
      <QrynViewPanel actor={actor} labels={labels} />
    </div>
  );
}
