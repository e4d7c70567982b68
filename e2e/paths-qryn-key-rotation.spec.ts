// The qryn key-rotation machine's generated paths walked in the browser (e2e/model-walk.ts): the Overview's Rotate
// API keys modal of a qryn instance the demo owner enables once in a fresh Acme project through the catalogue.
import type { Page } from '@playwright/test';
import { ROTATE_KEYS_NOTE, ROTATE_KEYS_QUESTION, qrynKeyRotationMachine } from '../src/machines/qryn-key-rotation/qryn-key-rotation.machine';
import { SAMPLE_ROTATION_FAILURE, qrynKeyRotationSamples } from '../src/machines/qryn-key-rotation/qryn-key-rotation.samples';
import { recordAccessTokens } from './access-tokens';
import { asRole, expect } from './fixtures';
import { describeBrowserModel, type WalkContext } from './model-walk';
import { RequestGate } from './request-gate';

const gated = { rotateKeys: { method: 'GET', path: /\/config\/credentials\/rotate\/?$/ } } as const;

type Walk = WalkContext<{ gate: RequestGate<keyof typeof gated> }>;

// One qryn instance per worker: rotating is repeatable, so every path uses it.
let projectSlug: string | undefined;

async function openAcme(page: Page): Promise<void> {
  await page.goto('/projects');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await sidebar.getByRole('link', { name: 'Acme' }).click();
  await expect(sidebar.getByRole('link', { name: /^Acme/ })).toHaveAttribute('aria-current', 'true');
}

async function enableQrynInFreshProject(page: Page): Promise<string> {
  const tokens = recordAccessTokens(page);
  await openAcme(page);
  await expect.poll(() => typeof tokens.at(-1)?.claims.organization_id).toBe('number');
  const created = await page.request.post('/api/projects/', { headers: { Authorization: `Bearer ${tokens.at(-1)!.raw}` }, data: { name: `rotation walk ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const { slug } = (await created.json()) as { slug: string };
  await page.goto(`/${slug}/stack/add`);
  await page.getByRole('button', { name: 'Add Observability to this project' }).click();
  const configure = page.getByRole('form', { name: 'Configure Observability' });
  await configure.getByLabel(/^Storage/).selectOption({ index: 1 });
  await configure.getByLabel(/^Writer region/).selectOption({ index: 1 });
  await configure.getByRole('button', { name: 'Enable Observability' }).click();
  await page.getByRole('dialog', { name: 'Observability is enabled' }).getByRole('link', { name: 'Open Observability' }).click();
  await expect(page).toHaveURL(new RegExp(`/${slug}/stack/qryn$`));
  return slug;
}

const modal = (walk: Walk) => walk.page.getByRole('alertdialog');
const button = (walk: Walk, name: string) => modal(walk).getByRole('button', { name, exact: true });

describeBrowserModel('qryn key rotation: generated paths in the browser', {
  name: 'qryn-key-rotation',
  machine: qrynKeyRotationMachine,
  samples: qrynKeyRotationSamples,
  async open({ browser, baseURL }) {
    const context = await browser.newContext({ baseURL, storageState: asRole('owner').storageState });
    const page = await context.newPage();
    if (projectSlug) await openAcme(page);
    else projectSlug = await enableQrynInFreshProject(page);
    const gate = await RequestGate.install(page, gated);
    await page.goto(`/${projectSlug}/stack/qryn`);
    await expect(page.getByRole('button', { name: 'Rotate API keys' })).toBeVisible({ timeout: 30_000 });
    return { page, world: { gate }, close: () => context.close() };
  },
  states: {
    closed: async (walk) => {
      await expect(walk.page.getByRole('alertdialog')).toHaveCount(0);
      await expect(walk.page.getByRole('button', { name: 'Rotate API keys' })).toBeEnabled();
    },
    confirming: async (walk) => {
      await expect(modal(walk)).toContainText(ROTATE_KEYS_QUESTION);
      await expect(modal(walk)).toContainText(ROTATE_KEYS_NOTE);
      await expect(button(walk, 'Cancel')).toBeEnabled();
    },
    rotating: async (walk) => {
      await walk.world.gate.waitFor('rotateKeys');
      await expect(button(walk, 'Cancel')).toBeDisabled();
    },
    rotated: async (walk) => {
      await expect(walk.page.getByRole('alertdialog', { name: 'Your new API keys' })).toBeVisible();
      await expect(modal(walk).getByLabel('API KEY')).toHaveText(/^qk_/);
      await expect(modal(walk).getByRole('button', { name: 'Copy API SECRET' })).toBeVisible();
      await expect(walk.page.getByText('API keys rotated successfully')).toBeVisible();
    },
    failed: async (walk) => {
      await expect(modal(walk)).toContainText(SAMPLE_ROTATION_FAILURE);
      await expect(button(walk, 'Rotate Keys')).toBeEnabled();
    },
  },
  events: {
    'rotation.open': { perform: (walk) => walk.page.getByRole('button', { name: 'Rotate API keys' }).click() },
    'rotation.confirm': { perform: (walk) => button(walk, 'Rotate Keys').click() },
    'rotation.cancel': {
      perform: async (walk) => {
        const done = button(walk, 'Done');
        await ((await done.count()) ? done : button(walk, 'Cancel')).click();
      },
    },
    'xstate.done.actor.rotateKeys': { perform: (walk) => walk.world.gate.release('rotateKeys') },
    'xstate.error.actor.rotateKeys': {
      perform: (walk) => walk.world.gate.answer('rotateKeys', 503, { error: 'Service unavailable', description: SAMPLE_ROTATION_FAILURE }),
    },
  },
});
