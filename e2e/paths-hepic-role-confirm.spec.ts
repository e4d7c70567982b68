// The Hepic role confirm's generated paths walked in the browser (e2e/model-walk.ts): the group select of Dana
// Developer's row on the Config page of a Hepic the demo owner enables once in a fresh Acme project (with dev@ in
// its team and in Hepic as 'user'). Each path starts with dev@ back at 'user' on the server.
import type { Page } from '@playwright/test';
import { ROLE_UPDATED_MESSAGE, roleConfirmText, type HepicGroup } from '../contract/hepic';
import { hepicRoleConfirmMachine } from '../src/machines/hepic-role-confirm/hepic-role-confirm.machine';
import { SAMPLE_REQUEST_REFUSED, SAMPLE_USER_NAME, hepicRoleConfirmSamples } from '../src/machines/hepic-role-confirm/hepic-role-confirm.samples';
import type { AcmeSession } from './acme-session';
import { expect } from './fixtures';
import { describeBrowserModel, type WalkContext } from './model-walk';
import type { RequestGate } from './request-gate';
import { ownerWalkPage } from './walk-page';

// Asking for the prompt, saving and re-submitting the previous group are the same call (with or without the
// confirmed flag): each state that makes it holds it until the walk says how the server answers.
const gated = { role: { method: 'PATCH', path: /\/integrations\/hepic\/users\/role\/?$/ } } as const;

interface World {
  gate: RequestGate<keyof typeof gated>;
  /** The group the server has for dev@ (what the select shows when nothing is asked). */
  group: HepicGroup;
  /** The group chosen in the select while it is asked for, confirmed or saved. */
  requested: HepicGroup | null;
  /** The toast the last outcome leaves. */
  toast: string | null;
  reload: () => Promise<void>;
  session: AcmeSession;
}
type Walk = WalkContext<World>;

const walkPage = ownerWalkPage(gated);
let lab: { slug: string; projectId: number; devId: string } | undefined;

async function setUpLab(page: Page, session: AcmeSession): Promise<NonNullable<typeof lab>> {
  const created = (await (await session.api('POST', 'projects/', { name: `Hepic walk ${Date.now().toString(36)}` })).json()) as { id: number; slug: string };
  const members = (await (await session.api('GET', 'organizations/users')).json()) as { id: string; email: string }[];
  const devId = members.find((m) => m.email === 'dev@example.com')!.id;
  expect((await session.api('POST', `projects/users?project_id=${created.id}`, { user_id: devId, project_id: created.id })).ok()).toBe(true);
  await page.goto(`/${created.slug}/stack/add`);
  await page.getByRole('button', { name: 'Add Hepic to this project' }).click();
  const form = page.getByRole('form', { name: 'Configure Hepic' });
  await form.getByLabel('Pricing plan').selectOption('hepic-starter');
  await form.getByLabel('Storage').selectOption('shared-local');
  await form.getByRole('button', { name: 'Enable Hepic' }).click();
  await expect(page.getByText('HEP Endpoint', { exact: true })).toBeVisible({ timeout: 30_000 });
  const added = await session.api('POST', `integrations/hepic/users?project_id=${created.id}`, { users: [{ user_id: devId, group: 'user' }] });
  expect(added.ok(), await added.text()).toBe(true);
  return { slug: created.slug, projectId: created.id, devId };
}

/** dev@'s group set on the server as an admin would, confirmed (the walk's own calls are not gated). */
async function setRole(page: Page, session: AcmeSession, group: HepicGroup): Promise<void> {
  const answer = await page.request.fetch(`/api/integrations/hepic/users/role?project_id=${lab!.projectId}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${session.tokens.at(-1)!.raw}` },
    data: { users: [{ user_id: lab!.devId, group }], has_confirmed: true },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
}

// The open modal makes the rest of the page inert (hidden from the accessibility tree), the select included.
const roleSelect = (walk: Walk) => walk.page.getByRole('combobox', { name: `Role of ${SAMPLE_USER_NAME}`, includeHidden: true });
const modal = (walk: Walk) => walk.page.getByRole('alertdialog', { name: 'Update user role' });

/** A save or restore the server did not answer: the change is dropped and the toast says why. */
async function connectionLost(walk: Walk): Promise<void> {
  walk.world.requested = null;
  walk.world.toast = 'Network down';
  await walk.world.gate.answer('role', 503, { error: 'Network down' });
}

async function expectToast(walk: Walk) {
  if (walk.world.toast) await expect(walk.page.getByText(walk.world.toast).first()).toBeVisible();
}

describeBrowserModel('hepic role confirm: generated paths in the browser', {
  name: 'hepic-role-confirm',
  machine: hepicRoleConfirmMachine,
  samples: hepicRoleConfirmSamples,
  async open({ browser, baseURL }) {
    const { page, session, gate } = await walkPage.open(browser, baseURL);
    lab ??= await gate.bypass(() => setUpLab(page, session));
    // Every path starts from the machine's input: dev@ is a 'user'.
    await setRole(page, session, 'user');
    const configPage = `/${lab.slug}/stack/hepic/config`;
    const reload = async () => {
      await page.goto(configPage);
      await expect(roleSelect(walk)).toBeEnabled({ timeout: 20_000 });
    };
    const walk: Walk = { page, world: { gate, group: 'user', requested: null, toast: null, reload, session } };
    await reload();
    return { ...walk, close: async () => undefined };
  },
  finish: () => walkPage.finish(),
  states: {
    idle: async (walk) => {
      await expect(roleSelect(walk)).toHaveValue(walk.world.group);
      await expect(roleSelect(walk)).toBeEnabled();
      await expect(modal(walk)).toHaveCount(0);
      await expectToast(walk);
    },
    requesting: async (walk) => {
      await walk.world.gate.waitFor('role');
      await expect(roleSelect(walk)).toHaveValue(walk.world.requested!);
      await expect(roleSelect(walk)).toBeDisabled();
    },
    confirming: async (walk) => {
      await expect(modal(walk)).toContainText(roleConfirmText(SAMPLE_USER_NAME, walk.world.requested!));
      await expect(modal(walk).getByRole('button', { name: 'Confirm' })).toBeEnabled();
      await expect(roleSelect(walk)).toHaveValue(walk.world.requested!);
    },
    saving: async (walk) => {
      await walk.world.gate.waitFor('role');
      await expect(modal(walk).getByRole('button', { name: /Confirm/ })).toBeDisabled();
      await expect(roleSelect(walk)).toBeDisabled();
    },
    cancelling: async (walk) => {
      await walk.world.gate.waitFor('role');
      // The previous group shows again at once.
      await expect(roleSelect(walk)).toHaveValue(walk.world.group);
      await expect(roleSelect(walk)).toBeDisabled();
    },
  },
  events: {
    'role.select': {
      perform: async (walk, event) => {
        const group = (event as unknown as { group: HepicGroup }).group;
        if (group !== walk.world.group) {
          walk.world.requested = group;
          walk.world.toast = null;
        }
        await roleSelect(walk).selectOption(group);
      },
    },
    'role.confirm': { perform: (walk) => modal(walk).getByRole('button', { name: 'Confirm' }).click() },
    'role.cancel': { perform: (walk) => modal(walk).getByRole('button', { name: 'Cancel' }).click() },
    // The refetched user list tells the row its group: another admin sets it on the server, and the page, opened
    // again, lists it.
    'role.sync': {
      perform: async (walk, event) => {
        const group = (event as unknown as { group: HepicGroup }).group;
        await setRole(walk.page, walk.world.session, group);
        walk.world.group = group;
        walk.world.toast = null;
        await walk.world.reload();
      },
    },
    'xstate.done.actor.requestConfirm': { perform: (walk) => walk.world.gate.release('role') },
    'xstate.error.actor.requestConfirm': {
      perform: async (walk) => {
        walk.world.requested = null;
        walk.world.toast = SAMPLE_REQUEST_REFUSED;
        await walk.world.gate.answer('role', 403, { error: 'Forbidden', description: SAMPLE_REQUEST_REFUSED });
      },
    },
    'xstate.done.actor.saveRole': {
      perform: async (walk) => {
        walk.world.group = walk.world.requested!;
        walk.world.requested = null;
        walk.world.toast = ROLE_UPDATED_MESSAGE;
        await walk.world.gate.release('role');
      },
    },
    'xstate.error.actor.saveRole': { perform: (walk) => connectionLost(walk) },
    'xstate.done.actor.restoreRole': {
      perform: async (walk) => {
        walk.world.requested = null;
        await walk.world.gate.release('role');
      },
    },
    'xstate.error.actor.restoreRole': { perform: (walk) => connectionLost(walk) },
  },
});
