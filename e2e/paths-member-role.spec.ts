// The member-role machine's generated paths walked in the browser (e2e/model-walk.ts): the role button of Vic Viewer's
// row in Acme's team (/organization), as the demo owner. Vic is read-only in the demo data and other specs sign in
// as her, so every path ends with her role (and Dana Developer's, which the sync step changes) set back through the
// API. The team list the page refetches after a role call is what sends `role.sync`: the walk changes Vic's role as
// another owner would (the API), then changes Dana's in the page, whose refetch brings Vic's new role to her row.
import type { BrowserContext, Page } from '@playwright/test';
import { ROLE_CHANGE_FAILED_MESSAGE, ROLE_CHANGED_MESSAGE, memberRoleMachine } from '../src/machines/member-role/member-role.machine';
import { enterAcme, type AcmeSession } from './acme-session';
import { asRole, expect } from './fixtures';
import { describeBrowserModel, type WalkContext } from './model-walk';
import { RequestGate } from './request-gate';

interface Member {
  id: string;
  read_only: boolean;
  given_name: string;
  family_name: string;
}

interface World {
  gate: RequestGate<'changeRole'>;
  session: AcmeSession;
  vic: Member;
  dana: Member;
  /** Vic's role as the row must show it: what the last finished call or sync left. */
  readOnly: boolean;
  danaReadOnly: boolean;
}

type Walk = WalkContext<World>;

const VIC = 'Vic Viewer';
const DANA = 'Dana Developer';

// One signed-in context for every path: each path opens its own page in it.
let context: BrowserContext | undefined;

const row = (page: Page, name: string) => page.getByRole('list', { name: 'Team' }).getByRole('listitem', { name });
const roleButton = (page: Page, name: string, readOnly: boolean) => row(page, name).getByRole('button', { name: `${readOnly ? 'Make read-write' : 'Make read-only'}: ${name}` });

/** Sets a member's role through the API, as another owner of Acme would. */
async function setRole(walk: Walk, member: Member, readOnly: boolean): Promise<void> {
  const query = new URLSearchParams({ user_id: member.id, organization_id: String(walk.world.session.organizationId), read_only: String(readOnly) });
  const response = await walk.world.session.api('GET', `users/promote?${query}`);
  expect(response.ok(), await response.text()).toBe(true);
}

describeBrowserModel('member role: generated paths in the browser', {
  name: 'member-role',
  machine: memberRoleMachine,
  samples: {
    input: { userId: 'vic', organizationId: 1, readOnly: true },
    events: {
      'role.toggle': [{ type: 'role.toggle' }],
      'role.sync': [{ type: 'role.sync', readOnly: false }],
      'xstate.done.actor.changeRole': [{ type: 'xstate.done.actor.changeRole', output: { message: ROLE_CHANGED_MESSAGE } }],
      'xstate.error.actor.changeRole': [{ type: 'xstate.error.actor.changeRole', error: new Error('Service unavailable') }],
    },
  },
  async open({ browser, baseURL }) {
    context ??= await browser.newContext({ baseURL, storageState: asRole('owner').storageState });
    const page = await context.newPage();
    const session = await enterAcme(page);
    const membersRead = page.waitForResponse((response) => response.url().endsWith('/organizations/users') && response.ok());
    await page.goto('/organization');
    const members = (await (await membersRead).json()) as Member[];
    const named = (name: string) => members.find((member) => `${member.given_name} ${member.family_name}` === name)!;
    const vic = named(VIC);
    const dana = named(DANA);
    expect(vic.read_only, 'Vic Viewer is read-only when a path starts').toBe(true);
    // Only Vic's calls wait for the walk; Dana's (the refetch that syncs Vic's row) pass.
    const gate = await RequestGate.install(page, {
      changeRole: { method: 'GET', path: new RegExp(`/users/promote\\?user_id=${encodeURIComponent(vic.id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}&`) },
    });
    const world: World = { gate, session, vic, dana, readOnly: true, danaReadOnly: false };
    await expect(roleButton(page, VIC, true)).toBeEnabled({ timeout: 30_000 });
    const walk = { page, world };
    return {
      ...walk,
      close: async () => {
        // A path that ends in `changing` leaves Vic's call held: refused here, so it cannot land after the reset below.
        if (await gate.waitFor('changeRole', 1).then(() => true, () => false)) await gate.answer('changeRole', 503, { error: 'Service unavailable' });
        await gate.reset();
        await setRole(walk, vic, true);
        await setRole(walk, dana, false);
        await page.close();
      },
    };
  },
  finish: async () => {
    await context?.close();
    context = undefined;
  },
  states: {
    idle: async (walk) => {
      await expect(roleButton(walk.page, VIC, walk.world.readOnly)).toBeEnabled();
      await expect(roleButton(walk.page, VIC, walk.world.readOnly)).not.toHaveAttribute('aria-busy');
      await expect(row(walk.page, VIC).getByText('Read-Only', { exact: true })).toHaveCount(walk.world.readOnly ? 1 : 0);
    },
    changing: async (walk) => {
      await walk.world.gate.waitFor('changeRole');
      await expect(roleButton(walk.page, VIC, walk.world.readOnly)).toHaveAttribute('aria-busy', 'true');
      await expect(roleButton(walk.page, VIC, walk.world.readOnly)).toBeDisabled();
    },
  },
  events: {
    'role.toggle': { perform: (walk) => roleButton(walk.page, VIC, walk.world.readOnly).click() },
    'role.sync': {
      perform: async (walk, event) => {
        const readOnly = (event as unknown as { readOnly: boolean }).readOnly;
        await setRole(walk, walk.world.vic, readOnly);
        // Any role call refetches the team: Dana's, made in the page, brings Vic's new role to her row.
        await roleButton(walk.page, DANA, walk.world.danaReadOnly).click();
        walk.world.danaReadOnly = !walk.world.danaReadOnly;
        await expect(roleButton(walk.page, DANA, walk.world.danaReadOnly)).toBeEnabled();
        walk.world.readOnly = readOnly;
      },
    },
    'xstate.done.actor.changeRole': {
      perform: async (walk) => {
        await walk.world.gate.release('changeRole');
        walk.world.readOnly = !walk.world.readOnly;
        await expect(walk.page.getByText(ROLE_CHANGED_MESSAGE).first()).toBeVisible();
      },
    },
    'xstate.error.actor.changeRole': {
      perform: async (walk) => {
        await walk.world.gate.answer('changeRole', 503, { error: 'Service unavailable' });
        await expect(walk.page.getByText(ROLE_CHANGE_FAILED_MESSAGE).first()).toBeVisible();
      },
    },
  },
});
