// The project-deletion machine's generated paths walked in the browser (e2e/model-walk.ts): the Delete project card of
// Project Settings and its typed-confirmation modal, as the demo owner, on a fresh Acme project each path makes
// through the API (a finished path deletes it in the page; one that stops short deletes it through the API). The
// model's sample project stands for the path's own: typing the sample's slug types the real one. A refusal the
// owner's project cannot provoke (Hepic still running in it) is a request gate's answer.
import type { BrowserContext } from '@playwright/test';
import { projectDeletionMachine, PROJECT_NAME_MISMATCH } from '../src/machines/project-deletion/project-deletion.machine';
import { enterAcme, freshAcmeProject, type AcmeSession } from './acme-session';
import { asRole, expect } from './fixtures';
import { describeBrowserModel, reuseIn, type WalkContext } from './model-walk';
import { RequestGate } from './request-gate';

const SAMPLE = { id: 1, name: 'Walk doomed', slug: 'walk-doomed' };
const REFUSAL = 'Hepic is active in this project.';

interface World {
  gate: RequestGate<'deleteProject'>;
  session: AcmeSession;
  project: { id: number; name: string; slug: string };
}

type Walk = WalkContext<World>;

let context: BrowserContext | undefined;

const modal = (walk: Walk) => walk.page.getByRole('alertdialog');
const confirmation = (walk: Walk) => modal(walk).getByLabel(`Type ${walk.world.project.slug} to confirm`);
const confirmButton = (walk: Walk) => modal(walk).getByRole('button', { name: 'Confirm' });

describeBrowserModel('project deletion: generated paths in the browser', {
  name: 'project-deletion',
  machine: projectDeletionMachine,
  samples: {
    events: {
      'deletion.open': [{ type: 'deletion.open', project: SAMPLE }],
      'deletion.type': [
        { type: 'deletion.type', text: SAMPLE.slug },
        { type: 'deletion.type', text: 'edge-nodes' },
        { type: 'deletion.type', text: '' },
      ],
      'deletion.confirm': [{ type: 'deletion.confirm' }],
      'deletion.cancel': [{ type: 'deletion.cancel' }],
      'xstate.done.actor.deleteProject': [{ type: 'xstate.done.actor.deleteProject', output: { message: `The project ${SAMPLE.name} has been deleted.` } }],
      'xstate.error.actor.deleteProject': [{ type: 'xstate.error.actor.deleteProject', error: Object.assign(new Error('Hepic is active'), { description: REFUSAL }) }],
    },
  },
  async open({ browser, baseURL }) {
    context ??= await browser.newContext({ baseURL, storageState: asRole('owner').storageState });
    const page = await context.newPage();
    const session = await enterAcme(page);
    const created = await freshAcmeProject(session, SAMPLE.name);
    const listed = (await (await session.api('GET', 'projects/')).json()) as Array<{ id: number; name: string }>;
    const project = { ...created, name: listed.find((item) => item.id === created.id)!.name };
    await page.goto(`/${project.slug}/settings`);
    await expect(page.getByRole('button', { name: 'Delete project' })).toBeEnabled({ timeout: 30_000 });
    const gate = await RequestGate.install(page, { deleteProject: { method: 'DELETE', path: /\/projects\/?$/ } });
    return {
      page,
      world: { gate, session, project },
      close: async () => {
        await gate.reset();
        const left = await session.api('DELETE', `projects?project_id=${project.id}`);
        expect([200, 204, 404]).toContain(left.status());
        await page.close();
      },
    };
  },
  // A path that ends with the modal closed leaves the project and the page as `open` gives them.
  reuse: reuseIn('closed'),
  finish: async () => {
    await context?.close();
    context = undefined;
  },
  states: {
    closed: async (walk) => {
      await expect(modal(walk)).toHaveCount(0);
      await expect(walk.page.getByRole('button', { name: 'Delete project' })).toBeEnabled();
    },
    'confirming.empty': async (walk) => {
      await expect(confirmation(walk)).toHaveValue('');
      await expect(modal(walk).getByText(PROJECT_NAME_MISMATCH)).toHaveCount(0);
      await expect(confirmButton(walk)).toBeDisabled();
    },
    'confirming.mismatch': async (walk) => {
      await expect(modal(walk).getByText(PROJECT_NAME_MISMATCH)).toBeVisible();
      await expect(confirmButton(walk)).toBeDisabled();
    },
    'confirming.matching': async (walk) => {
      await expect(confirmation(walk)).toHaveValue(walk.world.project.slug);
      await expect(modal(walk).getByText(PROJECT_NAME_MISMATCH)).toHaveCount(0);
      await expect(confirmButton(walk)).toBeEnabled();
    },
    deleting: async (walk) => {
      await walk.world.gate.waitFor('deleteProject');
      await expect(confirmButton(walk)).toHaveAttribute('aria-busy', 'true');
      await expect(modal(walk).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    },
    failed: async (walk) => {
      await expect(modal(walk).getByRole('alert')).toContainText(REFUSAL);
      await expect(confirmation(walk)).toHaveValue(walk.world.project.slug);
      await expect(confirmButton(walk)).toBeEnabled();
    },
    deleted: async (walk) => {
      await expect(walk.page).toHaveURL(/\/projects$/);
      await expect(walk.page.getByText(`The project ${walk.world.project.name} has been deleted.`)).toBeVisible();
    },
  },
  events: {
    'deletion.open': { perform: (walk) => walk.page.getByRole('button', { name: 'Delete project' }).click() },
    'deletion.type': {
      perform: (walk, event) => {
        const { text } = event as unknown as { text: string };
        return confirmation(walk).fill(text === SAMPLE.slug ? walk.world.project.slug : text);
      },
    },
    'deletion.confirm': { perform: (walk) => confirmButton(walk).click() },
    'deletion.cancel': { perform: (walk) => modal(walk).getByRole('button', { name: 'Cancel' }).click() },
    'xstate.done.actor.deleteProject': { perform: (walk) => walk.world.gate.release('deleteProject') },
    'xstate.error.actor.deleteProject': { perform: (walk) => walk.world.gate.answer('deleteProject', 400, { error: 'Bad Request', description: REFUSAL }) },
  },
});
