// @vitest-environment jsdom
// Model-based test of the Grafana datasource machine (the qryn datasource modal, modal=add-qryn-datasource): every
// generated path is replayed on a real actor with POST datasources as a controlled double, and through the modal.
import { useSelector } from '@xstate/react';
import { expect } from 'vitest';
import { DATASOURCE_NAME_MESSAGE, NAME_TAKEN_MESSAGE, qrynDatasourceName } from '../../contract/grafana';
import { grafanaDatasourceMachine } from '../../src/machines/grafana-datasource/grafana-datasource.machine';
import { DatasourceDialog } from '../../src/views/stack/grafana/datasource-dialog';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const project = 'Acme Staging';
const form = { type: 'qryn' as const, loki_name: qrynDatasourceName('loki', project), prometheus_name: qrynDatasourceName('prometheus', project), tempo_name: qrynDatasourceName('tempo', project) };
const REFUSED = 'Grafana answered: Grafana is unavailable';
const toasts: string[] = [];
const machine = grafanaDatasourceMachine.provide({
  actions: { notifyCreated: (_, params) => void toasts.push(params.message), refreshDatasources: () => undefined },
});

const events = {
  'datasource.open': [{ type: 'datasource.open', form }],
  'datasource.change': [
    { type: 'datasource.change', field: 'loki_name', value: '' },
    { type: 'datasource.change', field: 'loki_name', value: 'Shop logs' },
  ],
  'datasource.submit': [{ type: 'datasource.submit' }],
  'datasource.cancel': [{ type: 'datasource.cancel' }],
  'xstate.done.actor.createDatasource': [{ type: 'xstate.done.actor.createDatasource', output: { message: 'The qryn datasources have been added to Grafana' } }],
  'xstate.error.actor.createDatasource': [
    { type: 'xstate.error.actor.createDatasource', error: Object.assign(new Error('Validation'), { details: { loki_name: [NAME_TAKEN_MESSAGE] } }) },
    { type: 'xstate.error.actor.createDatasource', error: Object.assign(new Error('Grafana refused the request'), { description: REFUSED }) },
  ],
} satisfies ModelEvents<typeof machine>;

const messages = (s: { context: { fieldErrors: Record<string, string[]> } }) => Object.values(s.context.fieldErrors).flat();

const states = {
  closed: (s) => {
    expect(s.context.form).toBeNull();
    expect(s.context.error).toBeNull();
  },
  editing: (s) => {
    expect(s.context.form?.type).toBe('qryn');
    expect(s.context.error).toBeNull();
    for (const message of messages(s)) expect(message).toBe(DATASOURCE_NAME_MESSAGE);
    if (messages(s).length > 0) expect(s.context.form?.loki_name).toBe('');
  },
  submitting: (s) => {
    expect(s.context.fieldErrors).toEqual({});
    expect(s.context.form?.loki_name?.trim()).not.toBe('');
    expect(s.can({ type: 'datasource.cancel' })).toBe(false);
  },
  failed: (s) => {
    expect(s.context.error === null || s.context.error === REFUSED).toBe(true);
    for (const message of messages(s)) expect(message).toBe(NAME_TAKEN_MESSAGE);
  },
} satisfies ModelStates<typeof machine>;

function Harness({ actor }: { actor: Parameters<typeof DatasourceDialog>[0]['actor'] }) {
  const closed = useSelector(actor, (s) => s.matches('closed'));
  return (
    <>
      <button type="button" disabled={!closed} onClick={() => actor.send({ type: 'datasource.open', form })}>
        Add qryn datasources
      </button>
      <DatasourceDialog actor={actor} projectName={project} />
    </>
  );
}

const dialog = (screen: ViewScreen) => {
  const element = screen.getByRole('dialog');
  expect(element.getAttribute('data-state')).toBe('open');
  return element;
};
const lokiInput = (screen: ViewScreen) => screen.getByLabelText('Loki datasource name', { exact: false }) as HTMLInputElement;

const viewEvents = {
  'datasource.open': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Add qryn datasources' })),
  'datasource.change': async ({ screen, user, event }) => {
    await user.clear(lokiInput(screen));
    if (event.value) await user.type(lokiInput(screen), event.value);
  },
  'datasource.submit': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Add datasources' })),
  'datasource.cancel': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Cancel' })),
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  closed: ({ screen }) => expect(screen.queryByRole('dialog')?.getAttribute('data-state') ?? 'closed').toBe('closed'),
  editing: ({ screen, snapshot }) => {
    expect(dialog(screen).textContent).toContain('Add the qryn datasources');
    expect(lokiInput(screen).value).toBe(snapshot.context.form?.loki_name);
    expect((screen.getByLabelText('Tempo datasource name', { exact: false }) as HTMLInputElement).value).toBe(form.tempo_name);
    for (const message of messages(snapshot)) expect(dialog(screen).textContent).toContain(message);
  },
  submitting: ({ screen }) => {
    expect((screen.getByRole('button', { name: 'Add datasources' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
  },
  failed: ({ screen, snapshot }) => {
    if (snapshot.context.error) expect(dialog(screen).textContent).toContain(REFUSED);
    for (const message of messages(snapshot)) expect(dialog(screen).textContent).toContain(message);
    expect((screen.getByRole('button', { name: 'Add datasources' }) as HTMLButtonElement).disabled).toBe(false);
  },
} satisfies ViewStates<typeof machine>;

describeModel('grafana datasource machine', {
  name: 'grafana-datasource',
  machine,
  events,
  states,
  view: { render: (actor) => <Harness actor={actor} />, events: viewEvents, states: viewStates },
});
