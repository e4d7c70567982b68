// The statechart studio in the browser: every machine listed with its purpose and size, no horizontal overflow, the create-organization
// chart stepped by events from its initial state to its success state with the active state highlighted at each
// step, and one of the paths its model test replays played step by step.
import type { Locator, Page } from '@playwright/test';
import { MACHINE_CATALOGUE } from '../src/machines/machine-catalogue';
import { axeFindings } from './axe-themes';
import { asRole, expect, test } from './fixtures';

test.use(asRole('owner'));
// The studio lays out charts and generates paths in the page: slow on a loaded 2-core machine.
test.describe.configure({ timeout: 90_000 });

async function expectActive(page: Page, stateKey: string): Promise<void> {
  const diagram = page.getByRole('img', { name: 'Statechart of Create organization' });
  await expect(diagram.locator(`g[data-state-key="${stateKey}"]`)).toHaveAttribute('data-active', 'true');
  // Exactly the active leaf (and its parents) are highlighted.
  const active = await diagram.locator('g[data-active="true"]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-state-key')));
  const expected = stateKey.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'));
  expect(active.sort()).toEqual(expected.sort());
  await expect(page.getByTestId('active-states')).toHaveText(stateKey);
}

function eventButton(page: Page, name: string): Locator {
  return page.getByRole('group', { name: 'Events the current state accepts' }).getByRole('button', { name, exact: true });
}

test('lists every machine in a readable row: its name as the link, one line of purpose, its size; no overflow', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/statecharts');
  await expect(page.getByRole('heading', { name: 'Statechart studio' })).toBeVisible();
  const descriptions = page.getByRole('list', { name: 'Machine descriptions' });
  for (const entry of MACHINE_CATALOGUE) {
    const item = descriptions.getByRole('listitem', { name: entry.title, exact: true });
    await expect(item.getByRole('link', { name: entry.title })).toBeVisible();
    await expect(item).toContainText(/\d+ states · \d+ transitions/);
    // One sentence of purpose, not the header's list of states.
    await expect(item.getByTestId('purpose')).toHaveText(/^[^\n]{20,141}$/);
  }
  await expect(descriptions.getByRole('listitem', { name: 'Create organization' })).toContainText('19 states');
  expect(await axeFindings(page)).toEqual([]);
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await expect.poll(overflow).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(overflow).toBeLessThanOrEqual(0);
  await page.goto('/statecharts/qryn-log-search');
  await expect(page.getByRole('img', { name: /^Statechart of/ })).toBeVisible({ timeout: 30_000 });
  await expect.poll(overflow).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect.poll(overflow).toBeLessThanOrEqual(0);
  expect(await axeFindings(page)).toEqual([]);
});

test('steps the create-organization chart from its initial state to success, highlighting the active state', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: /^Hello/ })).toBeVisible();
  await page.getByRole('button', { name: /^User menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Statechart studio' }).click();
  await expect(page).toHaveURL(/\/statecharts$/);
  await page.getByRole('list', { name: 'Machine descriptions' }).getByRole('link', { name: 'Create organization' }).click();
  await expect(page).toHaveURL(/\/statecharts\/create-organization$/);
  await expect(page.getByRole('link', { name: 'Create an organization' })).toHaveAttribute('href', '/organization/create');

  await expect(page.getByRole('img', { name: 'Statechart of Create organization' })).toBeVisible({ timeout: 30_000 });
  await expectActive(page, 'loading');
  const steps: Array<[string, string]> = [
    ['xstate.done.actor.loadStart {"output":{"owned":null,"draft":null}}', 'naming.editing'],
    ['name.change {"name":"New Org"}', 'naming.checking'],
    ['xstate.done.actor.checkName {"output":{"billingAccountId":null}}', 'naming.available'],
    ['organization.create', 'creatingBillingAccount'],
    ['xstate.done.actor.createBillingAccount {"output":{"billingAccountId":41}}', 'card'],
    ['card.attached', 'waiting'],
  ];
  for (const [event, state] of steps) {
    await eventButton(page, event).click();
    await expectActive(page, state);
  }
  // The delay is an event of its own: the studio's clock is advanced by hand.
  await page.getByRole('group', { name: 'Events the current state accepts' }).getByRole('button', { name: /^xstate\.after\./ }).click();
  await expectActive(page, 'creatingOrganization');
  await eventButton(page, 'xstate.done.actor.createOrganization {"output":{"organizationId":9}}').click();
  await expectActive(page, 'switching');
  await expect(page.getByTestId('context')).toContainText('"organizationId": 9');
  await eventButton(page, 'xstate.done.actor.switchOrganization').click();
  await expectActive(page, 'done');
  await expect(page.getByTestId('state-value')).toHaveText('"done"');
  await expect(page.getByText('No event is accepted here.')).toBeVisible();
  // The effects were recorded, not run: the page did not move to the new organization.
  const effects = page.getByRole('list', { name: 'Side effects' });
  await expect(effects).toContainText('saveDraft {"name":"New Org","billingAccountId":41,"hasCard":false}');
  await expect(effects).toContainText('openOrganization {"organizationId":9}');
  await expect(page).toHaveURL(/\/statecharts\/create-organization$/);
});

test('plays a path that the model test replays, step by step', async ({ page }) => {
  await page.goto('/statecharts/create-organization');
  const paths = page.getByRole('list', { name: 'Paths' });
  await expect(paths.getByRole('listitem').first()).toBeVisible({ timeout: 30_000 });
  const count = await paths.getByRole('listitem').count();
  expect(count).toBeGreaterThan(10);
  // A path that ends on the organization call failing (after a card was attached).
  const target = paths
    .getByRole('listitem')
    .filter({ hasText: /xstate\.error\.actor\.createOrganization \{"error":"Error\(Server error\)"\}$/ })
    .first();
  await target.getByRole('button', { name: /^Play path/ }).click();
  const playback = page.getByRole('status', { name: 'Path playback' });
  await expect(playback).toContainText('Step 0 of');
  await expectActive(page, 'loading');
  const total = Number((await playback.textContent())!.match(/of (\d+)/)![1]);
  for (let step = 1; step <= total; step += 1) {
    await playback.getByRole('button', { name: 'Next step' }).click();
    await expect(playback).toContainText(`Step ${step} of ${total}`);
    await expect(playback.getByText('The actor left the path')).toHaveCount(0);
  }
  await expectActive(page, 'organizationFailed');
  await expect(page.getByTestId('context')).toContainText('"error": "An error occurred while creating the organization."');
});
