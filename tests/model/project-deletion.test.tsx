// @vitest-environment jsdom
// Model-based test of the project-deletion machine (the typed confirmation of the Delete project card): every
// generated path is replayed on a real actor with the DELETE call as a controlled double, and through the modal.
import { useSelector } from '@xstate/react';
import { expect } from 'vitest';
import { PROJECT_NAME_MISMATCH, projectDeletionMachine } from '../../src/machines/project-deletion/project-deletion.machine';
import { DELETE_PROJECT_WARNING, DeleteProjectDialog } from '../../src/views/project-settings/delete-project-dialog';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const project = { id: 7, name: 'Edge Nodes', slug: 'edge-nodes-7' };
const toasts: string[] = [];
let left = 0;
const machine = projectDeletionMachine.provide({
  actions: { notifyDeleted: (_, params) => void toasts.push(params.message), leaveProject: () => void left++ },
});

const events = {
  'deletion.open': [{ type: 'deletion.open', project }],
  'deletion.type': [
    { type: 'deletion.type', text: project.slug },
    { type: 'deletion.type', text: 'edge-nodes' },
    { type: 'deletion.type', text: '' },
  ],
  'deletion.confirm': [{ type: 'deletion.confirm' }],
  'deletion.cancel': [{ type: 'deletion.cancel' }],
  'xstate.done.actor.deleteProject': [{ type: 'xstate.done.actor.deleteProject', output: { message: 'The project Edge Nodes has been deleted.' } }],
  'xstate.error.actor.deleteProject': [
    { type: 'xstate.error.actor.deleteProject', error: Object.assign(new Error('Hepic is active'), { description: 'Hepic is active in this project.' }) },
  ],
} satisfies ModelEvents<typeof machine>;

const states = {
  closed: (s) => {
    expect(s.context.project).toBeNull();
    expect(s.context.typed).toBe('');
  },
  'confirming.empty': (s) => {
    expect(s.context.project).toEqual(project);
    expect(s.context.typed).toBe('');
    expect(s.can({ type: 'deletion.confirm' })).toBe(false);
  },
  'confirming.mismatch': (s) => {
    expect(s.context.typed).not.toBe(project.slug);
    expect(s.context.typed).not.toBe('');
    expect(s.can({ type: 'deletion.confirm' })).toBe(false);
  },
  'confirming.matching': (s) => {
    expect(s.context.typed).toBe(project.slug);
    expect(s.can({ type: 'deletion.confirm' })).toBe(true);
  },
  deleting: (s) => {
    expect(s.context.typed).toBe(project.slug);
    expect(s.can({ type: 'deletion.cancel' })).toBe(false);
  },
  failed: (s) => {
    expect(s.context.error).toBe('Hepic is active in this project.');
    expect(s.context.typed).toBe(project.slug);
  },
  deleted: (s) => {
    expect(s.status).toBe('done');
    expect(toasts.at(-1)).toBe('The project Edge Nodes has been deleted.');
    expect(left).toBeGreaterThan(0);
  },
} satisfies ModelStates<typeof machine>;

/** The card's Delete project button and the modal, as Project Settings shows them. */
function Harness({ actor }: { actor: Parameters<typeof DeleteProjectDialog>[0]['actor'] }) {
  const closed = useSelector(actor, (s) => s.matches('closed'));
  return (
    <>
      <button type="button" disabled={!closed} onClick={() => actor.send({ type: 'deletion.open', project })}>
        Delete project
      </button>
      <DeleteProjectDialog actor={actor} />
    </>
  );
}

const dialog = (screen: ViewScreen) => {
  const element = screen.getByRole('alertdialog');
  expect(element.getAttribute('data-state')).toBe('open');
  return element;
};
const confirmButton = (screen: ViewScreen) => screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement;
const input = (screen: ViewScreen) => screen.getByLabelText(`Type ${project.slug} to confirm`) as HTMLInputElement;

const viewEvents = {
  'deletion.open': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Delete project' })),
  'deletion.type': async ({ screen, user, event }) => {
    await user.clear(input(screen));
    if (event.text) await user.type(input(screen), event.text);
  },
  'deletion.confirm': ({ screen, user }) => user.click(confirmButton(screen)),
  'deletion.cancel': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Cancel' })),
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  closed: ({ screen }) => expect(screen.queryByRole('alertdialog')?.getAttribute('data-state') ?? 'closed').toBe('closed'),
  'confirming.empty': ({ screen }) => {
    expect(dialog(screen).textContent).toContain(DELETE_PROJECT_WARNING);
    expect(dialog(screen).textContent).not.toContain(PROJECT_NAME_MISMATCH);
    expect(confirmButton(screen).disabled).toBe(true);
  },
  'confirming.mismatch': ({ screen }) => {
    expect(dialog(screen).textContent).toContain(PROJECT_NAME_MISMATCH);
    expect(confirmButton(screen).disabled).toBe(true);
  },
  'confirming.matching': ({ screen }) => {
    expect(dialog(screen).textContent).not.toContain(PROJECT_NAME_MISMATCH);
    expect(input(screen).value).toBe(project.slug);
    expect(confirmButton(screen).disabled).toBe(false);
  },
  deleting: ({ screen }) => {
    expect(confirmButton(screen).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
  },
  failed: ({ screen }) => {
    expect(dialog(screen).textContent).toContain('Hepic is active in this project.');
    expect(confirmButton(screen).disabled).toBe(false);
  },
  deleted: ({ screen }) => expect(screen.queryByRole('alertdialog')?.getAttribute('data-state') ?? 'closed').toBe('closed'),
} satisfies ViewStates<typeof machine>;

describeModel('project deletion machine', {
  name: 'project-deletion',
  machine,
  events,
  states,
  view: { render: (actor) => <Harness actor={actor} />, events: viewEvents, states: viewStates },
});
