// @vitest-environment jsdom
// Model-based test of qryn's key rotation (the Overview's Rotate API keys modal): every generated path is replayed on
// a real actor with the rotate call as a controlled double, and through the modal.
import { useSelector } from '@xstate/react';
import { expect } from 'vitest';
import { ROTATE_KEYS_NOTE, ROTATE_KEYS_QUESTION, qrynKeyRotationMachine } from '../../src/machines/qryn-key-rotation/qryn-key-rotation.machine';
import {
  SAMPLE_ROTATION_FAILURE,
  qrynKeyRotationEvents,
} from '../../src/machines/qryn-key-rotation/qryn-key-rotation.samples';
import { RotateKeysDialog } from '../../src/views/stack/qryn/qryn-dialogs';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const toasts: string[] = [];
const machine = qrynKeyRotationMachine.provide({
  actions: { notifyRotated: (_, params) => void toasts.push(params.message), refreshConfig: () => undefined },
});

// The same samples the browser walk and the statechart studio play.
const events = qrynKeyRotationEvents satisfies ModelEvents<typeof machine>;

const states = {
  closed: (s) => {
    expect(s.context.keys).toBeNull();
    expect(s.context.error).toBeNull();
  },
  confirming: (s) => expect(s.context.keys).toBeNull(),
  rotating: (s) => expect(s.can({ type: 'rotation.cancel' })).toBe(false),
  rotated: (s) => {
    expect(s.context.keys).toEqual({ apiKey: 'qk_new', apiSecret: 'qs_new_secret' });
    expect(toasts.at(-1)).toBe('API keys rotated successfully');
  },
  failed: (s) => expect(s.context.error).toBe(SAMPLE_ROTATION_FAILURE),
} satisfies ModelStates<typeof machine>;

function Harness({ actor }: { actor: Parameters<typeof RotateKeysDialog>[0]['actor'] }) {
  const closed = useSelector(actor, (s) => s.matches('closed'));
  return (
    <>
      <button type="button" disabled={!closed} onClick={() => actor.send({ type: 'rotation.open' })}>
        Rotate API keys
      </button>
      <RotateKeysDialog actor={actor} />
    </>
  );
}

const dialog = (screen: ViewScreen) => screen.getByRole('alertdialog');
const button = (screen: ViewScreen, name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

const viewEvents = {
  'rotation.open': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Rotate API keys' })),
  'rotation.confirm': ({ screen, user }) => user.click(button(screen, 'Rotate Keys')),
  'rotation.cancel': ({ screen, user }) => user.click(screen.queryByRole('button', { name: 'Done' }) ?? button(screen, 'Cancel')),
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  closed: ({ screen }) => expect(screen.queryByRole('alertdialog')?.getAttribute('data-state') ?? 'closed').toBe('closed'),
  confirming: ({ screen }) => {
    expect(dialog(screen).textContent).toContain(ROTATE_KEYS_QUESTION);
    expect(dialog(screen).textContent).toContain(ROTATE_KEYS_NOTE);
    expect(button(screen, 'Cancel').disabled).toBe(false);
  },
  rotating: ({ screen }) => {
    expect(button(screen, 'Rotate Keys').disabled).toBe(true);
    expect(button(screen, 'Cancel').disabled).toBe(true);
  },
  rotated: ({ screen }) => {
    expect(screen.getByLabelText('API KEY').textContent).toBe('qk_new');
    expect(screen.getByLabelText('API SECRET').textContent).toBe('qs_new_secret');
    expect(button(screen, 'Copy API SECRET')).toBeTruthy();
  },
  failed: ({ screen }) => {
    expect(dialog(screen).textContent).toContain('The storage is not available.');
    expect(button(screen, 'Rotate Keys').disabled).toBe(false);
  },
} satisfies ViewStates<typeof machine>;

describeModel('qryn key rotation machine', {
  name: 'qryn-key-rotation',
  machine,
  events,
  states,
  view: { render: (actor) => <Harness actor={actor} />, events: viewEvents, states: viewStates },
});
