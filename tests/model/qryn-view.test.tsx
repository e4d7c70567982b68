// @vitest-environment jsdom
// Model-based test of the qryn View (connect with a credential or a new read token, then query the instance's read
// side): every generated path is replayed on a real actor with the token, credential check and query as controlled
// doubles, and through the View's screen (credential form, query form, results and exports).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { expect } from 'vitest';
import { CREDENTIAL_REQUIRED_MESSAGE, QUERY_REQUIRED_MESSAGE, qrynViewMachine } from '../../src/machines/qryn-view/qryn-view.machine';
import { tableCsv } from '../../src/services/qryn-view';
import { QrynViewPanel, type LabelSource } from '../../src/views/stack/qryn/qryn-view-page';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const remembered: string[] = [];
let forgotten = 0;
const machine = qrynViewMachine.provide({
  actions: { rememberCredential: (_, params) => void remembered.push(params.auth), forgetCredential: () => void (forgotten += 1) },
});

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const range = { fromMs: NOW - 3_600_000, toMs: NOW };
const logQuery = { mode: 'logs' as const, query: '{job="curl-example"} |= "hello"', range, limit: 100 };
const blankQuery = { mode: 'logs' as const, query: '  ', range, limit: 100 };
const table = { columns: ['Time', 'Labels', 'Line'], rows: [['2026-11-23T11:59:00.000Z', '{job="curl-example"}', 'hello, "qryn"']] };

const events = {
  'view.connect': [
    { type: 'view.connect', auth: 'qk_key:qs_secret' },
    { type: 'view.connect', auth: '   ' },
  ],
  'view.createToken': [{ type: 'view.createToken' }],
  'view.run': [
    { type: 'view.run', query: logQuery },
    { type: 'view.run', query: blankQuery },
  ],
  'view.disconnect': [{ type: 'view.disconnect' }],
  'xstate.done.actor.createViewToken': [{ type: 'xstate.done.actor.createViewToken', output: { token: 'qt_view_token' } }],
  'xstate.error.actor.createViewToken': [{ type: 'xstate.error.actor.createViewToken', error: Object.assign(new Error('x'), { description: 'You may only read in this organization.' }) }],
  'xstate.done.actor.checkCredential': [{ type: 'xstate.done.actor.checkCredential', output: ['job'] }],
  'xstate.error.actor.checkCredential': [{ type: 'xstate.error.actor.checkCredential', error: Object.assign(new Error('The credentials are not valid for this instance.'), { status: 401 }) }],
  'xstate.done.actor.runQuery': [{ type: 'xstate.done.actor.runQuery', output: table }],
  'xstate.error.actor.runQuery': [
    { type: 'xstate.error.actor.runQuery', error: Object.assign(new Error('Unknown operator "=="'), { status: 400 }) },
    { type: 'xstate.error.actor.runQuery', error: Object.assign(new Error('This token may only push.'), { status: 403 }) },
  ],
} satisfies ModelEvents<typeof machine>;

const credentialMessages = [null, CREDENTIAL_REQUIRED_MESSAGE, 'You may only read in this organization.', 'The credentials are not valid for this instance.', 'This token may only push.'];

const states = {
  disconnected: (s) => {
    expect(s.context.auth).toBeNull();
    expect(credentialMessages).toContain(s.context.credentialError);
  },
  creatingToken: (s) => expect(s.context.credentialError).toBeNull(),
  connecting: (s) => expect(['qk_key:qs_secret', 'qt_view_token']).toContain(s.context.auth),
  'connected.ready': (s) => {
    expect(remembered.at(-1)).toBe(s.context.auth);
    expect(s.context.table).toBeNull();
    // A blank query is refused at the field without a request (the client's rule).
    expect([null, QUERY_REQUIRED_MESSAGE]).toContain(s.context.queryError);
  },
  'connected.querying': (s) => expect(s.context.query).toEqual(logQuery),
  'connected.showing': (s) => {
    expect(s.context.table).toEqual(table);
    expect([null, QUERY_REQUIRED_MESSAGE]).toContain(s.context.queryError);
  },
  'connected.queryFailed': (s) => {
    expect(['Unknown operator "=="', QUERY_REQUIRED_MESSAGE]).toContain(s.context.queryError);
    expect(s.context.table).toBeNull();
  },
} satisfies ModelStates<typeof machine>;

const labels: LabelSource = { key: 'test', names: async () => ['job'], values: async () => ['curl-example'] };

function Harness({ actor }: { actor: Parameters<typeof QrynViewPanel>[0]['actor'] }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }));
  return (
    <QueryClientProvider client={client}>
      <QrynViewPanel actor={actor} labels={labels} now={() => NOW} />
    </QueryClientProvider>
  );
}

const button = (screen: ViewScreen, name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

const viewEvents = {
  'view.connect': async ({ screen, user, event }) => {
    const field = screen.getByLabelText(/Token or key:secret/);
    await user.clear(field);
    await user.type(field, event.auth);
    await user.click(button(screen, 'Connect'));
  },
  'view.createToken': ({ screen, user }) => user.click(button(screen, 'Create a read token for the View')),
  'view.run': async ({ screen, user, event }) => {
    const field = screen.getByRole('textbox', { name: /Log query/ });
    await user.clear(field);
    await user.click(field);
    await user.paste(event.query.query);
    await user.click(button(screen, 'Run query'));
  },
  'view.disconnect': ({ screen, user }) => user.click(button(screen, 'Forget the credential')),
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  disconnected: ({ screen, snapshot }) => {
    expect(screen.getByRole('form', { name: 'Connect' })).toBeTruthy();
    const message = snapshot.context.credentialError;
    if (message) expect(screen.getByRole('form', { name: 'Connect' }).textContent).toContain(message);
    expect(button(screen, 'Connect').disabled).toBe(false);
  },
  creatingToken: ({ screen }) => expect(button(screen, 'Connect').disabled).toBe(true),
  connecting: ({ screen }) => expect(button(screen, 'Create a read token for the View').disabled).toBe(true),
  'connected.ready': async ({ screen, snapshot }) => {
    expect(screen.getByRole('form', { name: 'Query' })).toBeTruthy();
    if (snapshot.context.queryError) expect(screen.getByRole('form', { name: 'Query' }).textContent).toContain(QUERY_REQUIRED_MESSAGE);
    expect(screen.queryByRole('table', { name: 'Results' })).toBeNull();
    // The label picker lists the instance's labels.
    expect(await screen.findByRole('option', { name: 'job' })).toBeTruthy();
  },
  'connected.querying': ({ screen }) => {
    expect(button(screen, 'Run query').disabled).toBe(true);
    expect((screen.getByRole('textbox', { name: /Log query/ }) as HTMLInputElement).value).toBe(logQuery.query);
  },
  'connected.showing': ({ screen }) => {
    expect(screen.getByRole('table', { name: 'Results' }).textContent).toContain('hello, "qryn"');
    const csv = screen.getByRole('link', { name: 'Export CSV' });
    expect(csv.getAttribute('download')).toBe('YourData.csv');
    expect(decodeURIComponent(csv.getAttribute('href')!.split(',').slice(1).join(','))).toBe(tableCsv(table));
    expect(screen.getByRole('link', { name: 'Export JSON' }).getAttribute('download')).toBe('YourData.json');
  },
  'connected.queryFailed': ({ screen, snapshot }) => {
    expect(screen.getByRole('form', { name: 'Query' }).textContent).toContain(snapshot.context.queryError);
    if (snapshot.context.queryError !== QUERY_REQUIRED_MESSAGE) {
      expect(screen.getByRole('alert').textContent).toContain('Unknown operator "=="');
      expect((screen.getByRole('textbox', { name: /Log query/ }) as HTMLInputElement).value).toBe(logQuery.query);
    }
  },
} satisfies ViewStates<typeof machine>;

describeModel('qryn View machine', {
  name: 'qryn-view',
  machine,
  events,
  states,
  simplePaths: false,
  serializeContext: (c) => ({ auth: c.auth, credentialError: c.credentialError, queryError: c.queryError, table: c.table !== null }),
  view: { render: (actor) => <Harness actor={actor} />, events: viewEvents, states: viewStates },
});
