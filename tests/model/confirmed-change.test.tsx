// @vitest-environment jsdom
// Model-based test of the confirmed-change machine as qryn's Delete token modal uses it: every generated path is
// replayed on a real actor with the DELETE call as a controlled double, and through the modal.
import { useSelector } from '@xstate/react';
import { expect } from 'vitest';
import { confirmedChangeMachine } from '../../src/machines/confirmed-change/confirmed-change.machine';
import { ConfirmChangeDialog } from '../../src/views/confirm-change/confirm-change-dialog';
import { DELETE_TOKEN_WARNING } from '../../src/views/stack/qryn/qryn-auth-view';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const subject = { id: '7', label: 'grafana reader' };
const toasts: string[] = [];
const machine = confirmedChangeMachine.provide({
  actions: { notifyApplied: (_, params) => void toasts.push(params.message), refresh: () => undefined },
});

const events = {
  'change.open': [{ type: 'change.open', subject }],
  'change.confirm': [{ type: 'change.confirm' }],
  'change.cancel': [{ type: 'change.cancel' }],
  'xstate.done.actor.applyChange': [{ type: 'xstate.done.actor.applyChange', output: { message: 'The token has been deleted!' } }],
  'xstate.error.actor.applyChange': [{ type: 'xstate.error.actor.applyChange', error: Object.assign(new Error('Not found'), { description: 'There is no token 7 in this qryn instance.' }) }],
} satisfies ModelEvents<typeof machine>;

const states = {
  closed: (s) => {
    expect(s.context.subject).toBeNull();
    expect(s.context.error).toBeNull();
  },
  confirming: (s) => expect(s.context.subject).toEqual(subject),
  applying: (s) => {
    expect(s.context.subject).toEqual(subject);
    expect(s.can({ type: 'change.cancel' })).toBe(false);
  },
  failed: (s) => expect(s.context.error).toBe('There is no token 7 in this qryn instance.'),
} satisfies ModelStates<typeof machine>;

function Harness({ actor }: { actor: Parameters<typeof ConfirmChangeDialog>[0]['actor'] }) {
  const closed = useSelector(actor, (s) => s.matches('closed'));
  const label = useSelector(actor, (s) => s.context.subject?.label ?? '');
  return (
    <>
      <button type="button" disabled={!closed} onClick={() => actor.send({ type: 'change.open', subject })}>
        Delete token {subject.label}
      </button>
      <ConfirmChangeDialog actor={actor} title={`Delete the token ${label}?`} confirmLabel="Delete token">
        <p>{DELETE_TOKEN_WARNING}</p>
      </ConfirmChangeDialog>
    </>
  );
}

const dialog = (screen: ViewScreen) => screen.getByRole('alertdialog');
const button = (screen: ViewScreen, name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

const viewEvents = {
  'change.open': ({ screen, user }) => user.click(screen.getByRole('button', { name: `Delete token ${subject.label}` })),
  'change.confirm': ({ screen, user }) => user.click(button(screen, 'Delete token')),
  'change.cancel': ({ screen, user }) => user.click(button(screen, 'Cancel')),
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  closed: ({ screen }) => expect(screen.queryByRole('alertdialog')?.getAttribute('data-state') ?? 'closed').toBe('closed'),
  confirming: ({ screen }) => {
    expect(dialog(screen).textContent).toContain(`Delete the token ${subject.label}?`);
    expect(dialog(screen).textContent).toContain(DELETE_TOKEN_WARNING);
  },
  applying: ({ screen }) => {
    expect(button(screen, 'Delete token').disabled).toBe(true);
    expect(button(screen, 'Cancel').disabled).toBe(true);
  },
  failed: ({ screen }) => {
    expect(dialog(screen).textContent).toContain('There is no token 7 in this qryn instance.');
    expect(button(screen, 'Delete token').disabled).toBe(false);
  },
} satisfies ViewStates<typeof machine>;

describeModel('confirmed change machine (qryn Delete token)', {
  name: 'confirmed-change',
  machine,
  events,
  states,
  view: { render: (actor) => <Harness actor={actor} />, events: viewEvents, states: viewStates },
});
