// The qryn Auth Tokens page's two machines walked by generated paths in the browser (e2e/model-walk.ts): creating a
// scoped token (qryn-token-create) and deleting one through the confirm modal (confirmed-change, whose other
// screens, the retention policy and pending invitations, share its dialog). Both walk one project with a qryn
// instance the demo owner enables once through the API, in one signed-in browser context; each path opens its own
// page there. Server refusals the page cannot provoke (a field message after the form passed the page's own check,
// a read-only caller, a token deleted meanwhile) are answers of a request gate, as the events say.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { TOKEN_NAME_REQUIRED_MESSAGE } from '../contract/qryn';
import { confirmedChangeMachine } from '../src/machines/confirmed-change/confirmed-change.machine';
import { qrynTokenCreateMachine } from '../src/machines/qryn-token-create/qryn-token-create.machine';
import { recordAccessTokens, type ReceivedToken } from './access-tokens';
import { enterAcme } from './acme-session';
import { asRole, expect } from './fixtures';
import { describeBrowserModel, reuseIn, type WalkContext } from './model-walk';
import { RequestGate } from './request-gate';
import { freshQrynProject } from './walk-projects';

interface Shared {
  context: BrowserContext;
  slug: string;
  projectId: number;
}

let shared: Shared | undefined;

async function api(page: Page, token: ReceivedToken, method: string, path: string, data?: unknown) {
  const response = await page.request.fetch(`/api/${path}`, { method, data, headers: { Authorization: `Bearer ${token.raw}` } });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** The signed-in context and a fresh Acme project with qryn enabled, made on the first path of either walk. */
async function sharedProject(browser: Browser, baseURL: string): Promise<Shared> {
  if (shared) return shared;
  const context = await browser.newContext({ baseURL, storageState: asRole('owner').storageState });
  const page = await context.newPage();
  const project = await freshQrynProject(await enterAcme(page), 'qryn auth walk');
  await page.close();
  shared = { context, slug: project.slug, projectId: project.id };
  return shared;
}

async function finishShared(): Promise<void> {
  // The second walk of the file closes the context; the first leaves it for it.
  finished += 1;
  if (finished < 2) return;
  await shared?.context.close();
  shared = undefined;
}
let finished = 0;

/** A page of the shared context at the Auth Tokens page, with the access tokens it receives. */
async function openAuthPage(browser: Browser, baseURL: string): Promise<{ page: Page; token: () => ReceivedToken; projectId: number }> {
  const { context, slug, projectId } = await sharedProject(browser, baseURL);
  const page = await context.newPage();
  const tokens = recordAccessTokens(page);
  await page.goto(`/${slug}/stack/qryn/auth`);
  await expect(page.getByRole('heading', { name: 'Scoped tokens' })).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => tokens.length).toBeGreaterThan(0);
  return { page, token: () => tokens.at(-1)!, projectId };
}

// ---------------------------------------------------------------------------------------------------------------
// qryn-token-create

type CreateWalk = WalkContext<{ gate: RequestGate<'createToken'> }>;

const WALK_TOKEN = { name: 'walk reader', scope: 'read' as const };
const BLANK_FORM = { name: '   ', scope: 'read write' as const };
const FIELD_REFUSAL = 'The name can have at most 100 characters.';
const READ_ONLY_REFUSAL = 'You may only read in this organization.';

const createDialog = (walk: CreateWalk) => walk.page.getByRole('dialog');
const createForm = (walk: CreateWalk) => walk.page.getByRole('form', { name: 'Create token' });

describeBrowserModel('qryn token creation: generated paths in the browser', {
  name: 'qryn-token-create',
  machine: qrynTokenCreateMachine,
  samples: {
    events: {
      'token.open': [{ type: 'token.open' }],
      'token.submit': [
        { type: 'token.submit', form: WALK_TOKEN },
        { type: 'token.submit', form: BLANK_FORM },
      ],
      'token.close': [{ type: 'token.close' }],
      'xstate.done.actor.createToken': [{ type: 'xstate.done.actor.createToken', output: { message: 'The new token has been created!', token: { ...WALK_TOKEN, token: 'qt_' } } }],
      'xstate.error.actor.createToken': [
        { type: 'xstate.error.actor.createToken', error: Object.assign(new Error('Validation error'), { details: { name: [FIELD_REFUSAL] } }) },
        { type: 'xstate.error.actor.createToken', error: Object.assign(new Error('Forbidden'), { description: READ_ONLY_REFUSAL }) },
      ],
    },
  },
  async open({ browser, baseURL }) {
    const { page } = await openAuthPage(browser, baseURL);
    const gate = await RequestGate.install(page, { createToken: { method: 'POST', path: /\/integrations\/qryn\/tokens\/?$/ } });
    return { page, world: { gate }, close: () => page.close() };
  },
  // A path that ends with the modal closed leaves the page as `open` gives it: 'token.open' starts the form afresh.
  reuse: reuseIn('closed'),
  finish: finishShared,
  states: {
    closed: async (walk) => {
      await expect(createDialog(walk)).toHaveCount(0);
      await expect(walk.page.getByRole('button', { name: 'Create token', exact: true })).toBeEnabled();
    },
    editing: async (walk) => {
      await expect(createForm(walk).getByLabel('Name')).toBeEditable();
      await expect(createForm(walk).getByRole('button', { name: 'Create token' })).toBeEnabled();
    },
    creating: async (walk) => {
      await walk.world.gate.waitFor('createToken');
      await expect(createForm(walk).getByRole('button', { name: 'Create token' })).toHaveAttribute('aria-busy', 'true');
      await expect(createForm(walk).getByLabel('Name')).toBeDisabled();
    },
    created: async (walk) => {
      await expect(walk.page.getByRole('dialog', { name: 'The new token' })).toBeVisible();
      await expect(createDialog(walk)).toContainText(`${WALK_TOKEN.name} (${WALK_TOKEN.scope})`);
    },
  },
  events: {
    'token.open': { perform: (walk) => walk.page.getByRole('button', { name: 'Create token', exact: true }).click() },
    'token.submit': {
      perform: async (walk, event) => {
        const { form } = event as unknown as { form: typeof WALK_TOKEN | typeof BLANK_FORM };
        await createForm(walk).getByLabel('Name').fill(form.name);
        await createForm(walk).getByLabel('Scope').selectOption(form.scope);
        await createForm(walk).getByRole('button', { name: 'Create token' }).click();
        // A blank name is refused at its field by the page itself, before any request.
        if (!form.name.trim()) await expect(createForm(walk).getByText(TOKEN_NAME_REQUIRED_MESSAGE)).toBeVisible();
      },
    },
    'token.close': {
      perform: async (walk) => {
        const done = createDialog(walk).getByRole('button', { name: 'Done' });
        await ((await done.count()) ? done : createForm(walk).getByRole('button', { name: 'Cancel' })).click();
      },
    },
    'xstate.done.actor.createToken': {
      perform: async (walk) => {
        await walk.world.gate.release('createToken');
        await expect(walk.page.getByText('The new token has been created!').first()).toBeVisible();
      },
    },
    'xstate.error.actor.createToken': {
      perform: async (walk, event) => {
        const error = (event as unknown as { error: { details?: Record<string, string[]>; description?: string } }).error;
        if (error.details) {
          await walk.world.gate.answer('createToken', 422, { error: 'Validation error', details: error.details });
          await expect(createForm(walk).getByText(FIELD_REFUSAL)).toBeVisible();
        } else {
          await walk.world.gate.answer('createToken', 403, { error: 'Forbidden', description: error.description });
          await expect(createForm(walk).getByRole('alert')).toContainText(READ_ONLY_REFUSAL);
        }
        // The form comes back as it was filled.
        await expect(createForm(walk).getByLabel('Name')).toHaveValue(WALK_TOKEN.name);
      },
    },
  },
});

// ---------------------------------------------------------------------------------------------------------------
// confirmed-change, as the token's delete modal

type DeleteWalk = WalkContext<{ gate: RequestGate<'applyChange'>; deleted: boolean }>;

const DOOMED = 'walk doomed';
const GONE_REFUSAL = 'There is no token 7 in this qryn instance.';

const confirmModal = (walk: DeleteWalk) => walk.page.getByRole('alertdialog', { name: `Delete the token ${DOOMED}?` });

describeBrowserModel('confirmed change (a qryn token deleted): generated paths in the browser', {
  name: 'confirmed-change',
  machine: confirmedChangeMachine,
  samples: {
    events: {
      'change.open': [{ type: 'change.open', subject: { id: 'doomed', label: DOOMED } }],
      'change.confirm': [{ type: 'change.confirm' }],
      'change.cancel': [{ type: 'change.cancel' }],
      'xstate.done.actor.applyChange': [{ type: 'xstate.done.actor.applyChange', output: { message: 'The token has been deleted!' } }],
      'xstate.error.actor.applyChange': [{ type: 'xstate.error.actor.applyChange', error: Object.assign(new Error('Not found'), { description: GONE_REFUSAL }) }],
    },
  },
  async open({ browser, baseURL }) {
    const { page, token, projectId } = await openAuthPage(browser, baseURL);
    // Every path deletes its own token: the one a finished deletion removed is made again.
    const listed = (await api(page, token(), 'GET', `integrations/qryn/tokens?project_id=${projectId}`)) as Array<{ name: string }>;
    if (!listed.some((item) => item.name === DOOMED)) {
      await api(page, token(), 'POST', `integrations/qryn/tokens?project_id=${projectId}`, { name: DOOMED, scope: 'read' });
      await page.reload();
    }
    await expect(page.getByRole('button', { name: `Delete token ${DOOMED}` })).toBeVisible({ timeout: 30_000 });
    const gate = await RequestGate.install(page, { applyChange: { method: 'DELETE', path: /\/integrations\/qryn\/tokens\/\d+$/ } });
    return { page, world: { gate, deleted: false }, close: () => page.close() };
  },
  // A path that ends with the modal closed and the token still there leaves the page as `open` gives it.
  reuse: reuseIn<DeleteWalk['world']>('closed', (world) => world.deleted),
  finish: finishShared,
  states: {
    closed: async (walk) => {
      await expect(walk.page.getByRole('alertdialog')).toHaveCount(0);
      await expect(walk.page.getByRole('list', { name: 'Scoped tokens' })).toBeVisible();
    },
    confirming: async (walk) => {
      await expect(confirmModal(walk)).toBeVisible();
      await expect(confirmModal(walk).getByRole('button', { name: 'Cancel' })).toBeEnabled();
      await expect(confirmModal(walk).getByRole('alert')).toHaveCount(0);
    },
    applying: async (walk) => {
      await walk.world.gate.waitFor('applyChange');
      await expect(confirmModal(walk).getByRole('button', { name: 'Delete token' })).toHaveAttribute('aria-busy', 'true');
      await expect(confirmModal(walk).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    },
    failed: async (walk) => {
      await expect(confirmModal(walk).getByRole('alert')).toContainText(GONE_REFUSAL);
      await expect(confirmModal(walk).getByRole('button', { name: 'Delete token' })).toBeEnabled();
    },
  },
  events: {
    'change.open': { perform: (walk) => walk.page.getByRole('button', { name: `Delete token ${DOOMED}` }).click() },
    'change.confirm': { perform: (walk) => confirmModal(walk).getByRole('button', { name: 'Delete token' }).click() },
    'change.cancel': { perform: (walk) => confirmModal(walk).getByRole('button', { name: 'Cancel' }).click() },
    'xstate.done.actor.applyChange': {
      perform: async (walk) => {
        await walk.world.gate.release('applyChange');
        walk.world.deleted = true;
        await expect(walk.page.getByText('The token has been deleted!').first()).toBeVisible();
        await expect(walk.page.getByRole('button', { name: `Delete token ${DOOMED}` })).toHaveCount(0);
      },
    },
    'xstate.error.actor.applyChange': {
      perform: (walk) => walk.world.gate.answer('applyChange', 404, { error: 'Not Found', description: GONE_REFUSAL }),
    },
  },
});
