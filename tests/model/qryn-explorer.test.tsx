// @vitest-environment jsdom
// Model-based test of the qryn explorer's shell (connect with the member's sign-in, a credential or a new read token,
// explore, a refused sign-in or credential back to the form): every generated path is replayed on a real actor with the token and credential check
// as controlled doubles, and through the screen (the credential form, then the explorer: language switch, editor,
// time range, label browser). A second model starts as a read-only member, who may connect and explore but gets no
// token button and is refused one.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { expect, vi } from 'vitest';
import type { Actor } from 'xstate';
import { CREDENTIAL_REQUIRED_MESSAGE, READ_ONLY_TOKEN_MESSAGE, qrynExplorerMachine, type QrynExplorerMachine } from '../../src/machines/qryn-explorer/qryn-explorer.machine';
import { SESSION_AUTH } from '../../src/services/qryn-view';
import { ExplorerShell } from '../../src/views/stack/qryn/explorer/explorer-shell';
import { CredentialForm } from '../../src/views/stack/qryn/qryn-view-page';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

vi.hoisted(() => {
  // uPlot asks for the screen's pixel ratio when it loads; jsdom has no matchMedia.
  (globalThis as { matchMedia?: unknown }).matchMedia ??= () => ({ matches: false, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} });
});
installDomStubs();

const remembered: string[] = [];
let forgotten = 0;
const machine = qrynExplorerMachine.provide({
  actions: { rememberCredential: (_, params) => void remembered.push(params.auth), forgetCredential: () => void (forgotten += 1) },
});

const REFUSED = 'The credentials are not valid for this instance.';
const events = {
  'explorer.connect': [
    { type: 'explorer.connect', auth: 'qk_key:qs_secret' },
    { type: 'explorer.connect', auth: '   ' },
  ],
  'explorer.useSession': [{ type: 'explorer.useSession' }],
  'explorer.createToken': [{ type: 'explorer.createToken' }],
  'explorer.disconnect': [{ type: 'explorer.disconnect' }],
  'explorer.refused': [{ type: 'explorer.refused', message: 'This token may only push.' }],
  'xstate.done.actor.createViewToken': [{ type: 'xstate.done.actor.createViewToken', output: { token: 'qt_view_token' } }],
  'xstate.error.actor.createViewToken': [{ type: 'xstate.error.actor.createViewToken', error: Object.assign(new Error('x'), { description: 'You may only read in this organization.' }) }],
  'xstate.done.actor.checkCredential': [{ type: 'xstate.done.actor.checkCredential', output: ['job'] }],
  'xstate.error.actor.checkCredential': [{ type: 'xstate.error.actor.checkCredential', error: Object.assign(new Error(REFUSED), { status: 401 }) }],
} satisfies ModelEvents<typeof machine>;

const credentialMessages = [null, CREDENTIAL_REQUIRED_MESSAGE, READ_ONLY_TOKEN_MESSAGE, 'You may only read in this organization.', REFUSED, 'This token may only push.'];

const states = {
  disconnected: (s) => {
    expect(s.context.auth).toBeNull();
    expect(credentialMessages).toContain(s.context.credentialError);
  },
  creatingToken: (s) => {
    expect(s.context.readOnly).toBe(false);
    expect(s.context.credentialError).toBeNull();
  },
  connecting: (s) => expect(['qk_key:qs_secret', 'qt_view_token', SESSION_AUTH]).toContain(s.context.auth),
  connected: (s) => {
    // The sign-in is never written to the cookie; a credential is.
    expect(remembered).not.toContain(SESSION_AUTH);
    if (s.context.auth !== SESSION_AUTH) expect(remembered.at(-1)).toBe(s.context.auth);
    expect(s.context.credentialError).toBeNull();
  },
} satisfies ModelStates<typeof machine>;

const labels = { names: async () => ['job'], values: async () => ['api'] };
const sources = { promql: labels, logql: labels, traceql: labels };
const panels = { logs: () => <p>logs panel</p>, traces: () => <p>traces panel</p> };

function Harness({ actor }: { actor: Actor<QrynExplorerMachine> }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }));
  const connected = useSelector(actor, (s) => s.matches('connected'));
  const auth = useSelector(actor, (s) => s.context.auth);
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/acme-1/stack/qryn/view']}>
        {connected && auth ? (
          <ExplorerShell
            target={{ url: 'http://qryn.test/qryn/abc', auth }}
            sources={sources}
            panels={panels}
            onDisconnect={auth === SESSION_AUTH ? undefined : () => actor.send({ type: 'explorer.disconnect' })}
            onCredentialRefused={(message) => actor.send({ type: 'explorer.refused', message })}
          />
        ) : (
          <CredentialForm actor={actor} />
        )}
      </MemoryRouter>
    </QueryClientProvider>
  );
}

const button = (screen: ViewScreen, name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

const viewEvents = {
  'explorer.connect': async ({ screen, user, event }) => {
    const field = screen.getByLabelText(/Token or key:secret/);
    await user.clear(field);
    await user.type(field, event.auth);
    await user.click(button(screen, 'Connect'));
  },
  'explorer.createToken': async ({ screen, user, snapshot, actor }) => {
    // A read-only member has no button: the event can only come from elsewhere, and is refused.
    if (snapshot.context.readOnly) actor.send({ type: 'explorer.createToken' });
    else await user.click(button(screen, 'Create a read token for the View'));
  },
  'explorer.useSession': ({ screen, user }) => user.click(button(screen, 'Use my sign-in')),
  // With the sign-in there is no credential to forget (no button): the event can only come from elsewhere.
  'explorer.disconnect': async ({ screen, user, snapshot, actor }) => {
    if (snapshot.context.auth === SESSION_AUTH) {
      expect(screen.queryByRole('button', { name: 'Forget the credential' })).toBeNull();
      actor.send({ type: 'explorer.disconnect' });
    } else await user.click(button(screen, 'Forget the credential'));
  },
  // A panel's read answered 401/403: the panel reports it (tests/model/qryn-explorer-metric-query.test.tsx).
  'explorer.refused': 'send-to-actor',
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  disconnected: ({ screen, snapshot }) => {
    const form = screen.getByRole('form', { name: 'Connect' });
    const message = snapshot.context.credentialError;
    if (message) expect(form.textContent).toContain(message);
    expect(button(screen, 'Connect').disabled).toBe(false);
    expect(screen.queryByRole('button', { name: 'Create a read token for the View' }) === null).toBe(snapshot.context.readOnly);
  },
  creatingToken: ({ screen }) => expect(button(screen, 'Connect').disabled).toBe(true),
  connecting: ({ screen, snapshot }) => {
    expect(button(screen, 'Connect').disabled).toBe(true);
    expect(button(screen, 'Use my sign-in').disabled).toBe(true);
    if (!snapshot.context.readOnly) expect(button(screen, 'Create a read token for the View').disabled).toBe(true);
  },
  connected: async ({ screen }) => {
    expect(screen.queryByRole('form', { name: 'Connect' })).toBeNull();
    const languages = screen.getByRole('group', { name: 'Language' });
    expect(languages.textContent).toContain('Metrics (PromQL)');
    expect(screen.getByRole('button', { name: 'Metrics (PromQL)' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Query (PromQL)' })).toBeTruthy();
    expect((screen.getByLabelText('Time range') as HTMLSelectElement).value).toBe('now-1h');
    // The label browser lists the instance's labels.
    expect(await screen.findByRole('option', { name: 'job' })).toBeTruthy();
  },
} satisfies ViewStates<typeof machine>;

describeModel('qryn explorer shell machine', {
  name: 'qryn-explorer',
  machine,
  events,
  states,
  simplePaths: false,
  serializeContext: (c) => ({ auth: c.auth, credentialError: c.credentialError }),
  uncovered: { transitions: ['disconnected --explorer.createToken[1]--> (self)'], reason: 'a read-only member is refused a token: the read-only model below takes it' },
  view: { render: (actor) => <Harness actor={actor} />, events: viewEvents, states: viewStates },
});

describeModel('qryn explorer shell machine, read-only member', {
  name: 'qryn-explorer-read-only',
  machine,
  input: { readOnly: true },
  events,
  states,
  simplePaths: false,
  serializeContext: (c) => ({ auth: c.auth, credentialError: c.credentialError }),
  uncovered: {
    states: ['creatingToken'],
    transitions: [
      'disconnected --explorer.createToken[0]--> creatingToken',
      'creatingToken --xstate.done.actor.createViewToken[0]--> connecting',
      'creatingToken --xstate.error.actor.createViewToken[0]--> disconnected',
    ],
    reason: 'a read-only member cannot create a token (the guard refuses; the model above takes these)',
  },
  view: { render: (actor) => <Harness actor={actor} />, events: viewEvents, states: viewStates },
});
