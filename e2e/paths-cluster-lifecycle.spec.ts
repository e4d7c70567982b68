// The cluster-lifecycle machine's generated paths walked in the browser (e2e/model-walk.ts): the cluster page of a
// real one-replica ClickHouse cluster the demo owner creates in a fresh Acme project through the create page (and
// again after a path has really deleted it). The machine follows the server's status: the walk holds each read of
// the clusters list and answers it with the real server's answer, the cluster's status fields set as the sample
// says (a browser cannot make a node fail, the servers stop or a cluster be mid-deletion on demand); every other
// read of the list the page makes meanwhile gets the same answer. Deleting is real; a refused delete and a failed
// read are the gate's answers.
import type { Page } from '@playwright/test';
import { clusterLifecycleMachine } from '../src/machines/cluster-lifecycle/cluster-lifecycle.machine';
import { SAMPLE_DELETE_REFUSED, clusterLifecycleSamples } from '../src/machines/cluster-lifecycle/cluster-lifecycle.samples';
import type { Cluster } from '../src/services/clickhouse';
import type { AcmeSession } from './acme-session';
import { expect } from './fixtures';
import { describeBrowserModel, type WalkContext } from './model-walk';
import type { RequestGate } from './request-gate';
import { ownerWalkPage } from './walk-page';

const gated = {
  read: { method: 'GET', path: /\/integrations\/clickhouse\/clusters\/?$/ },
  delete: { method: 'DELETE', path: /\/integrations\/clickhouse\/clusters\/?$/ },
} as const;

interface World {
  gate: RequestGate<keyof typeof gated>;
  /** The server's status of the cluster as the last read said; null once gone. */
  shown: Cluster | null;
  /** The error the page shows in the error state. */
  error: string | null;
}
type Walk = WalkContext<World>;

const PASSWORD = 'Walk-password-1';
const walkPage = ownerWalkPage(gated);
let lab: { slug: string; projectId: number; clusterId?: number; deleted?: boolean } | undefined;

async function createCluster(page: Page, slug: string): Promise<number> {
  await page.goto(`/${slug}/stack/clickhouse/create`);
  const form = page.getByRole('form', { name: 'Managed cluster' });
  const field = (label: string) => form.getByLabel(new RegExp(`^${label}\\s*\\*?$`));
  await field('Name').fill(`walk-${Date.now().toString(36)}`);
  await field('Region').selectOption('eu-central-1');
  await field('Version').selectOption({ index: 1 });
  await field('Replicas').fill('1');
  await field('Admin user').fill('admin_walk');
  await field('Admin password').fill(PASSWORD);
  await field('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create cluster' }).click();
  await expect(page).toHaveURL(/\/stack\/clickhouse\/cluster\/\d+$/, { timeout: 20_000 });
  return Number(/\/cluster\/(\d+)$/.exec(page.url())![1]);
}

async function setUpLab(page: Page, session: AcmeSession): Promise<NonNullable<typeof lab>> {
  const created = (await (await session.api('POST', 'projects/', { name: `Cluster walk ${Date.now().toString(36)}` })).json()) as { id: number; slug: string };
  await page.goto(`/${created.slug}/stack/add`);
  await page.getByRole('listitem', { name: 'ClickHouse' }).getByRole('button', { name: 'Add ClickHouse to this project' }).click();
  await expect(page).toHaveURL(new RegExp(`/${created.slug}/stack/clickhouse/create$`));
  return { slug: created.slug, projectId: created.id };
}

/** The real cluster's status in the database, read the way the page reads it. */
async function realStatus(session: AcmeSession, projectId: number, clusterId: number): Promise<string | undefined> {
  const list = (await (await session.api('GET', `integrations/clickhouse/clusters?project_id=${projectId}`)).json()) as Array<{ id: number; status: string }>;
  return list.find((c) => c.id === clusterId)?.status;
}

/** The server's answer with the cluster's status fields as the sample says (or without the cluster: gone). */
const asSample = (clusterId: number, sample: Cluster | null) => (body: unknown) =>
  (body as Array<{ id: number }>).flatMap((row) =>
    row.id !== clusterId
      ? [row]
      : sample === null
        ? []
        : [{ ...row, status: sample.status, status_reason: sample.statusReason, progress: sample.progress, is_external: sample.isExternal }],
  );

const deleteButton = (walk: Walk) => walk.page.getByRole('button', { name: /^(Delete|Disconnect) cluster$/ });
const confirmDialog = (walk: Walk) => walk.page.getByRole('alertdialog');
const statusBadge = (walk: Walk) => walk.page.getByText('Status:');

async function expectStatus(walk: Walk, status: Cluster['status']) {
  await expect(statusBadge(walk)).toContainText(status);
  await expect(confirmDialog(walk)).toHaveCount(0);
}

describeBrowserModel('cluster lifecycle: generated paths in the browser', {
  name: 'cluster-lifecycle',
  machine: clusterLifecycleMachine,
  samples: clusterLifecycleSamples,
  async open({ browser, baseURL, path }) {
    const { page, session, gate } = await walkPage.open(browser, baseURL);
    const deletes = path.steps.some((step) => step.event.type === 'xstate.done.actor.deleteCluster');
    await gate.bypass(async () => {
      lab ??= await setUpLab(page, session);
      if (lab.clusterId === undefined || lab.deleted) {
        lab.clusterId = await createCluster(page, lab.slug);
        lab.deleted = false;
      }
      // The server refuses to delete a cluster it is still creating: a real delete waits for it to be active.
      if (deletes) await expect.poll(() => realStatus(session, lab!.projectId, lab!.clusterId!), { timeout: 60_000 }).toBe('active');
    });
    if (!lab) throw new Error('the walk has no project');
    await page.goto(`/${lab.slug}/stack/clickhouse/cluster/${lab.clusterId}`);
    return {
      page,
      world: { gate, shown: null as Cluster | null, error: null as string | null },
      close: async () => {
        if (deletes) lab!.deleted = true;
      },
    };
  },
  finish: () => walkPage.finish(),
  // The real deletion last: the other paths walk on the same cluster, and it has long been active by then.
  runLast: (path) => path.steps.some((step) => step.event.type === 'xstate.done.actor.deleteCluster'),
  // The page polls every 2 s while the cluster is created or deleted: its next read is held again.
  delay: async (walk) => walk.world.gate.arm('read'),
  states: {
    loading: async (walk) => {
      // A full load of the page (sign-in restored, switched to Acme) comes first on a path's first read.
      await walk.world.gate.waitFor('read', 30_000);
      if (walk.world.shown) await expect(deleteButton(walk)).toBeDisabled();
      else await expect(walk.page.getByRole('status').filter({ hasText: 'Loading the cluster' })).toBeVisible();
    },
    creating: async (walk) => {
      await expectStatus(walk, 'creating');
      await expect(walk.page.getByRole('status').filter({ hasText: 'Starting nodes: 1 of 2' })).toBeVisible();
      await expect(deleteButton(walk)).toBeDisabled();
    },
    active: async (walk) => {
      await expectStatus(walk, 'active');
      await expect(walk.page.getByRole('button', { name: 'Copy client command' })).toBeVisible();
      await expect(deleteButton(walk)).toBeEnabled();
    },
    failed: async (walk) => {
      await expectStatus(walk, 'failed');
      await expect(walk.page.getByText(walk.world.shown!.statusReason!)).toBeVisible();
      await expect(deleteButton(walk)).toBeEnabled();
    },
    stopped: async (walk) => {
      await expectStatus(walk, 'stopped');
      await expect(walk.page.getByRole('button', { name: 'Copy client command' })).toHaveCount(0);
      await expect(deleteButton(walk)).toBeEnabled();
    },
    external: async (walk) => {
      await expectStatus(walk, 'external');
      await expect(walk.page.getByRole('button', { name: 'Disconnect cluster' })).toBeEnabled();
    },
    deleting: async (walk) => {
      await expectStatus(walk, 'deleting');
      await expect(walk.page.getByRole('status').filter({ hasText: 'being stopped' })).toBeVisible();
      await expect(deleteButton(walk)).toBeDisabled();
    },
    confirming: async (walk) => {
      await expect(confirmDialog(walk)).toBeVisible();
      await expect(confirmDialog(walk).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    },
    requestingDelete: async (walk) => {
      await walk.world.gate.waitFor('delete');
      await expect(confirmDialog(walk).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    },
    gone: async (walk) => {
      // Deleted for a managed cluster, disconnected for an external one (the paths reach gone from both).
      await expect(walk.page.getByText(/^This cluster has been (deleted|disconnected)\.$/)).toBeVisible();
      await expect(walk.page.getByRole('button', { name: 'Back to the clusters' })).toBeVisible();
    },
    error: async (walk) => {
      await expect(walk.page.getByText(walk.world.error!)).toBeVisible();
      await expect(walk.page.getByRole('button', { name: 'Try again' })).toBeVisible();
    },
  },
  events: {
    'cluster.delete': { perform: (walk) => deleteButton(walk).click() },
    'cluster.confirm': { perform: (walk) => confirmDialog(walk).getByRole('button', { name: /^(Delete|Disconnect)$/ }).click() },
    'cluster.cancel': {
      perform: async (walk) => {
        walk.world.gate.arm('read');
        await confirmDialog(walk).getByRole('button', { name: 'Cancel' }).click();
      },
    },
    'cluster.retry': {
      perform: async (walk) => {
        walk.world.gate.arm('read');
        walk.world.error = null;
        await walk.page.getByRole('button', { name: 'Try again' }).click();
      },
    },
    'xstate.done.actor.readCluster': {
      perform: async (walk, event) => {
        const sample = (event as unknown as { output: Cluster | null }).output;
        walk.world.shown = sample;
        await walk.world.gate.serve('read', asSample(lab!.clusterId!, sample));
      },
    },
    'xstate.error.actor.readCluster': {
      perform: async (walk) => {
        walk.world.error = 'Server error';
        await walk.world.gate.answer('read', 500, { error: 'Server error' });
      },
    },
    'xstate.done.actor.deleteCluster': {
      perform: async (walk) => {
        // The deletion's toast invalidates the list and the machine reads again: both are held.
        walk.world.gate.arm('read');
        await walk.world.gate.release('delete');
      },
    },
    'xstate.error.actor.deleteCluster': {
      perform: async (walk) => {
        walk.world.error = SAMPLE_DELETE_REFUSED.description;
        await walk.world.gate.answer('delete', 409, { error: SAMPLE_DELETE_REFUSED.message, description: SAMPLE_DELETE_REFUSED.description });
      },
    },
  },
});
