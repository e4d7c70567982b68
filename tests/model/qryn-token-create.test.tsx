// @vitest-environment jsdom
// Model-based test of qryn's token creation (the Auth Tokens page's create modal): every generated path is replayed
// on a real actor with POST tokens as a controlled double, and through the modal's form.
import { useSelector } from '@xstate/react';
import { expect } from 'vitest';
import { TOKEN_NAME_REQUIRED_MESSAGE } from '../../contract/qryn';
import { qrynTokenCreateMachine } from '../../src/machines/qryn-token-create/qryn-token-create.machine';
import { CreateTokenDialog } from '../../src/views/stack/qryn/qryn-dialogs';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const toasts: string[] = [];
const machine = qrynTokenCreateMachine.provide({
  actions: { notifyCreated: (_, params) => void toasts.push(params.message), refreshTokens: () => undefined },
});
const valid = { name: 'grafana reader', scope: 'read' as const };
const blank = { name: '   ', scope: 'read write' as const };
const created = { message: 'The new token has been created!', token: { name: 'grafana reader', scope: 'read', token: 'qt_full_token_value' } };

const events = {
  'token.open': [{ type: 'token.open' }],
  'token.submit': [
    { type: 'token.submit', form: valid },
    { type: 'token.submit', form: blank },
  ],
  'token.close': [{ type: 'token.close' }],
  'xstate.done.actor.createToken': [{ type: 'xstate.done.actor.createToken', output: created }],
  'xstate.error.actor.createToken': [
    { type: 'xstate.error.actor.createToken', error: Object.assign(new Error('Validation'), { details: { name: ['The name can have at most 100 characters.'] } }) },
    { type: 'xstate.error.actor.createToken', error: Object.assign(new Error('x'), { description: 'You may only read in this organization.' }) },
  ],
} satisfies ModelEvents<typeof machine>;

const states = {
  closed: (s) => expect(s.context.created).toBeNull(),
  editing: (s) => {
    const { form, fieldErrors } = s.context;
    // Opened fresh: empty and without messages; a blank name submitted: the spec's message at the field.
    if (form.name === '') expect(fieldErrors).toEqual({});
    else if (form.name.trim() === '') expect(fieldErrors.name).toEqual([TOKEN_NAME_REQUIRED_MESSAGE]);
    if (s.context.error) expect(s.context.error).toBe('You may only read in this organization.');
  },
  creating: (s) => expect(s.context.form).toEqual(valid),
  created: (s) => {
    expect(s.context.created?.token).toBe('qt_full_token_value');
    expect(toasts.at(-1)).toBe('The new token has been created!');
  },
} satisfies ModelStates<typeof machine>;

function Harness({ actor }: { actor: Parameters<typeof CreateTokenDialog>[0]['actor'] }) {
  const closed = useSelector(actor, (s) => s.matches('closed'));
  return (
    <>
      <button type="button" disabled={!closed} onClick={() => actor.send({ type: 'token.open' })}>
        Create token
      </button>
      <CreateTokenDialog actor={actor} />
    </>
  );
}

const dialog = (screen: ViewScreen) => screen.getByRole('dialog');
const form = (screen: ViewScreen) => screen.getByRole('form', { name: 'Create token' });

const viewEvents = {
  // A closed dialog may still be leaving the DOM (its exit animation) with its own submit button of the same name.
  'token.open': ({ screen, user }) => user.click(screen.getAllByRole('button', { name: 'Create token' }).find((b) => b.getAttribute('type') === 'button')!),
  'token.submit': async ({ screen, user, event }) => {
    const name = screen.getByLabelText(/^Name/) as HTMLInputElement;
    await user.clear(name);
    await user.type(name, event.form.name);
    await user.selectOptions(screen.getByLabelText('Scope'), event.form.scope);
    await user.click(screen.getAllByRole('button', { name: 'Create token' }).find((b) => b.getAttribute('type') === 'submit')!);
  },
  'token.close': ({ screen, user }) => user.click(screen.queryByRole('button', { name: 'Done' }) ?? screen.getByRole('button', { name: 'Cancel' })),
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  closed: ({ screen }) => expect(screen.queryByRole('dialog')?.getAttribute('data-state') ?? 'closed').toBe('closed'),
  editing: ({ screen, snapshot }) => {
    expect(dialog(screen).textContent).toContain('Create a new scoped token');
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe(snapshot.context.form.name);
    expect((screen.getByLabelText('Scope') as HTMLSelectElement).value).toBe(snapshot.context.form.scope);
    for (const message of Object.values(snapshot.context.fieldErrors).flat()) expect(form(screen).textContent).toContain(message);
    if (snapshot.context.error) expect(form(screen).textContent).toContain(snapshot.context.error);
  },
  creating: ({ screen }) => expect((screen.getByLabelText(/^Name/) as HTMLInputElement).disabled).toBe(true),
  created: ({ screen }) => {
    expect(screen.getByLabelText('grafana reader (read)').textContent).toBe('qt_full_token_value');
    expect(dialog(screen).textContent).toContain('shown only now');
  },
} satisfies ViewStates<typeof machine>;

describeModel('qryn token create machine', {
  name: 'qryn-token-create',
  machine,
  events,
  states,
  view: { render: (actor) => <Harness actor={actor} />, events: viewEvents, states: viewStates },
});
