/**
 * Project deletion: the project owner deletes a project from Project Settings by typing its slug (spec 000 section 2
 * "Delete project card", section 5 "typed text equals slug", query action=delete-project-{id}).
 * States:
 * - closed              no modal
 * - confirming.empty    the modal is open, nothing typed yet; Confirm disabled, no message
 * - confirming.mismatch the typed text is not the slug: 'Project name does not match', Confirm disabled
 * - confirming.matching the typed text is the slug; Confirm enabled
 * - deleting            DELETE projects?project_id=; the modal stays open with its button pending
 * - failed              the modal stays open with the error and the typed text; confirm again or cancel
 * - deleted             the project is gone: success toast, project lists refetched, redirect to /projects
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../error-message';
import { PROJECT_NAME_MISMATCH } from '../../../contract/projects';

export { PROJECT_NAME_MISMATCH };

export interface ProjectToDelete {
  id: number;
  name: string;
  slug: string;
}

export interface ProjectDeletionContext {
  project: ProjectToDelete | null;
  typed: string;
  error: string | null;
}

export type ProjectDeletionEvent =
  | { type: 'deletion.open'; project: ProjectToDelete }
  | { type: 'deletion.type'; text: string }
  | { type: 'deletion.confirm' }
  | { type: 'deletion.cancel' };

export const DELETION_FAILED_MESSAGE = 'The project could not be deleted. Please try again.';

const closedContext = { project: null, typed: '', error: null };

export const projectDeletionMachine = setup({
  types: {
    context: {} as ProjectDeletionContext,
    events: {} as ProjectDeletionEvent,
  },
  actors: {
    deleteProject: fromPromise<{ message: string }, { projectId: number }>(async () => {
      throw new Error('deleteProject is provided where the actor is created');
    }),
  },
  guards: {
    typesNothing: ({ event }) => event.type === 'deletion.type' && event.text === '',
    typesSlug: ({ context, event }) => event.type === 'deletion.type' && context.project !== null && event.text === context.project.slug,
  },
  actions: {
    // React-only effects, supplied with .provide() where the actor is created.
    notifyDeleted: (_, _params: { message: string }) => undefined,
    leaveProject: () => undefined,
    rememberTyped: assign({ typed: ({ event }) => (event.type === 'deletion.type' ? event.text : '') }),
  },
}).createMachine({
  id: 'projectDeletion',
  context: closedContext,
  initial: 'closed',
  states: {
    closed: {
      on: { 'deletion.open': { target: 'confirming', actions: assign({ project: ({ event }) => event.project, typed: '', error: null }) } },
    },
    confirming: {
      initial: 'empty',
      on: {
        'deletion.type': [
          { guard: 'typesNothing', target: '.empty', actions: 'rememberTyped' },
          { guard: 'typesSlug', target: '.matching', actions: 'rememberTyped' },
          { target: '.mismatch', actions: 'rememberTyped' },
        ],
        'deletion.cancel': { target: 'closed', actions: assign(closedContext) },
      },
      states: {
        empty: {},
        mismatch: {},
        matching: { on: { 'deletion.confirm': '#projectDeletion.deleting' } },
      },
    },
    deleting: {
      invoke: {
        id: 'deleteProject',
        src: 'deleteProject',
        input: ({ context }) => ({ projectId: context.project!.id }),
        onDone: {
          target: 'deleted',
          actions: [{ type: 'notifyDeleted', params: ({ event }) => ({ message: event.output.message }) }, 'leaveProject'],
        },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorMessage(event.error, DELETION_FAILED_MESSAGE),
          }),
        },
      },
    },
    failed: {
      on: {
        'deletion.confirm': { target: 'deleting', actions: assign({ error: null }) },
        'deletion.cancel': { target: 'closed', actions: assign(closedContext) },
      },
    },
    deleted: { type: 'final' },
  },
});

export type ProjectDeletionMachine = typeof projectDeletionMachine;
