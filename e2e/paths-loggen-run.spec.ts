// The Loggen run machine's generated paths walked in the browser (e2e/model-walk.ts): the run panel of the Loggen page
// in a fresh Acme project per path (qryn and Loggen enabled through the API in well under a second, the configuration
// saved as 50 lines a second for 5 s), so each path starts where Loggen never ran, with no run of an earlier path still
// going and its own token. Runs are real: Loggen ships to the project's qryn instance through the gateway. The page's run streams pass through a relay (e2e/stream-relay.ts) that lets the
// server's chunks through only as the walk says, so the page shows the sample's progress while the run goes on.
// What a person causes is done for real: a run found going (started in another tab), a refused key (another admin
// revokes Loggen's token mid-run), a run stopped elsewhere. Only a server's failures and a broken connection are the
// gate's or the relay's doing.
import { LOGGEN_DONE, LOGGEN_FAILED, loggenRunMachine, type RunOutcome, type RunProgress } from '../src/machines/loggen-run/loggen-run.machine';
import { SAMPLE_CONNECTION_LOST, SAMPLE_STOP_FAILURE, loggenRunSamples } from '../src/machines/loggen-run/loggen-run.samples';
import { expect } from './fixtures';
import { freshLoggen, ownerApi, type Api, type Lab } from './loggen-lab';
import { describeBrowserModel, type WalkContext } from './model-walk';
import type { RequestGate } from './request-gate';
import { StreamRelay, type RelayedStream } from './stream-relay';
import { ownerWalkPage } from './walk-page';
import { VALIDATION_ERROR_MESSAGE } from '../contract/validation-error';

const gated = {
  // GET run: the check when the page opens, then following a run the page did not start.
  watch: { method: 'GET', path: /\/integrations\/loggen\/run\/?$/ },
  start: { method: 'POST', path: /\/integrations\/loggen\/run\/?$/ },
  save: { method: 'PATCH', path: /\/integrations\/loggen\/config\/?$/ },
  stop: { method: 'POST', path: /\/integrations\/loggen\/run\/stop\/?$/ },
} as const;

interface World {
  gate: RequestGate<keyof typeof gated>;
  relay: StreamRelay<RunOutcome>;
  api: Api;
  lab: Lab;
  /** Another tab of the owner starts a run (the page is opened while it goes). */
  startRunElsewhere: () => Promise<void>;
  /** The run stream the page reads, its chunks held by the relay. */
  stream: RelayedStream<RunOutcome> | null;
  /** What 'Running... N%' shows. */
  progress: RunProgress | null;
  /** The count the done message gives. */
  lines: number | null;
  /** The reason the failed message gives. */
  error: string | null;
  /** A field error or a failed save under the form, in idle. */
  fieldError: string | null;
  saveError: string | null;
}
type Walk = WalkContext<World>;

const walkPage = ownerWalkPage(gated);
let relay: StreamRelay<RunOutcome> | undefined;

/** Starts a run outside the page; resolves once the server streams it (the run goes on without the caller). */
async function startRunElsewhere(baseURL: string, projectId: number, token: string): Promise<void> {
  const controller = new AbortController();
  const answer = await fetch(`${baseURL}/api/integrations/loggen/run?project_id=${projectId}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(answer.status).toBe(200);
  await answer.body!.getReader().read();
  controller.abort();
}

/** Another admin deletes the token Loggen pushes with (qryn Auth Tokens) and makes a new one for the next save. */
async function revokeLoggenToken(walk: Walk): Promise<void> {
  const { lab, api } = walk.world;
  await api('DELETE', `integrations/qryn/tokens/${lab.tokenId}?project_id=${lab.projectId}`);
  const created = (await api('POST', 'integrations/qryn/tokens', { name: 'Loggen (new)', scope: 'write', project_id: lab.projectId })) as { token: { id: number; token: string } };
  lab.secret = created.token.token;
  lab.tokenId = created.token.id;
}

const form = (walk: Walk) => walk.page.getByRole('form', { name: 'Loggen configuration' });
const saveButton = (walk: Walk) => form(walk).getByRole('button', { name: 'Save and run', exact: true });
const stopButton = (walk: Walk) => form(walk).getByRole('button', { name: 'Stop', exact: true });
const progressBar = (walk: Walk) => form(walk).getByRole('progressbar', { name: 'Loggen run' });
const outcome = (walk: Walk, title: string) => form(walk).getByRole(title === LOGGEN_FAILED ? 'alert' : 'status').filter({ hasText: title });

/**
 * The run's buttons end the page, where notifications sit: the last outcome's notification covers them, and one
 * that appears under the resting mouse pauses its countdown and stays. A person closes them, then clicks.
 */
async function clickPastNotifications(walk: Walk, button: ReturnType<typeof saveButton>) {
  const dismiss = walk.page.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: 'Dismiss notification' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  await button.click();
}

async function expectWaiting(walk: Walk) {
  await expect(saveButton(walk)).toBeDisabled();
  await expect(saveButton(walk)).toHaveAttribute('aria-busy', 'true');
  await expect(stopButton(walk)).toHaveCount(0);
}

/** The run stream the page reads, its chunks held by the relay until an event lets them through. */
function stream(walk: Walk): RelayedStream<RunOutcome> {
  if (!walk.world.stream) throw new Error('the page reads no run stream');
  return walk.world.stream;
}

describeBrowserModel('loggen run: generated paths in the browser', {
  name: 'loggen-run',
  machine: loggenRunMachine,
  samples: loggenRunSamples,
  async open({ browser, baseURL }) {
    const { page, session, gate } = await walkPage.open(browser, baseURL);
    relay ??= await StreamRelay.start<RunOutcome>(baseURL);
    const api = ownerApi(page, session);
    const lab = await freshLoggen(api);
    const world: World = {
      gate,
      relay,
      api,
      lab,
      startRunElsewhere: () => startRunElsewhere(baseURL, lab.projectId, session.tokens.at(-1)!.raw),
      stream: null,
      progress: null,
      lines: null,
      error: null,
      fieldError: null,
      saveError: null,
    };
    await page.goto(`/${lab.slug}/stack/loggen`);
    return {
      page,
      world,
      close: async () => {
        relay!.closeAll();
        // Releases qryn and Loggen (a run still going is cancelled).
        await api('DELETE', `projects?project_id=${lab.projectId}`);
      },
    };
  },
  async finish() {
    await relay?.stop();
    relay = undefined;
    await walkPage.finish();
  },
  states: {
    checking: async (walk) => {
      // A full load of the page comes first.
      await walk.world.gate.waitFor('watch', 30_000);
      await expect(saveButton(walk)).toBeVisible({ timeout: 20_000 });
      await expectWaiting(walk);
    },
    idle: async (walk) => {
      await expect(saveButton(walk)).toBeEnabled();
      await expect(stopButton(walk)).toHaveCount(0);
      await expect(progressBar(walk)).toHaveCount(0);
      await expect(outcome(walk, LOGGEN_DONE)).toHaveCount(0);
      await expect(outcome(walk, LOGGEN_FAILED)).toHaveCount(0);
      if (walk.world.fieldError) await expect(form(walk).getByText(walk.world.fieldError)).toBeVisible();
      if (walk.world.saveError) await expect(form(walk).getByRole('alert').filter({ hasText: walk.world.saveError })).toBeVisible();
    },
    saving: async (walk) => {
      await walk.world.gate.waitFor('save');
      await expectWaiting(walk);
    },
    running: async (walk) => {
      const { progress } = walk.world;
      const percent = progress && progress.max > 0 ? Math.floor((progress.current / progress.max) * 100) : 0;
      await expect(form(walk).getByRole('button', { name: `Running... ${percent}%`, exact: true })).toBeDisabled();
      await expect(progressBar(walk)).toHaveAttribute('aria-valuenow', String(percent));
      await expect(stopButton(walk)).toBeEnabled();
    },
    stopping: async (walk) => {
      await walk.world.gate.waitFor('stop');
      await expectWaiting(walk);
      await expect(progressBar(walk)).toHaveCount(0);
    },
    done: async (walk) => {
      await expect(outcome(walk, LOGGEN_DONE)).toContainText(`${walk.world.lines} log lines were accepted by the qryn instance.`);
      await expect(saveButton(walk)).toBeEnabled();
      await expect(progressBar(walk)).toHaveCount(0);
    },
    failed: async (walk) => {
      await expect(outcome(walk, LOGGEN_FAILED)).toContainText(walk.world.error!);
      await expect(saveButton(walk)).toBeEnabled();
      await expect(progressBar(walk)).toHaveCount(0);
    },
  },
  events: {
    'config.save': {
      perform: async (walk) => {
        // After a revoked token the person pastes the new one first.
        const secret = form(walk).getByLabel('API secret');
        if ((await secret.inputValue()) !== walk.world.lab.secret) await secret.fill(walk.world.lab.secret);
        Object.assign(walk.world, { error: null, fieldError: null, saveError: null });
        await clickPastNotifications(walk, saveButton(walk));
      },
    },
    'run.progress': {
      perform: async (walk, event) => {
        const { current, max } = event as unknown as RunProgress;
        // The run is real and the server reads its progress every so often: on a busy machine a read can fall past the
        // sample's figure, so the walk takes the first chunk at or past it, still running, and the page must show that.
        const chunk = await stream(walk).pass((c) => c.current >= current);
        expect(chunk, 'the real run reached the sample’s progress').toMatchObject({ max, status: 'running' });
        expect(chunk.current).toBeGreaterThanOrEqual(current);
        walk.world.progress = { current: chunk.current, max };
      },
    },
    'run.stop': {
      perform: async (walk) => {
        // The page stops reading the stream; the relay drops it.
        walk.world.stream = null;
        await clickPastNotifications(walk, stopButton(walk));
      },
    },
    'xstate.done.actor.checkRun': {
      perform: async (walk, event) => {
        const found = (event as unknown as { output: RunOutcome | null }).output;
        // The project is fresh: the real server answers 204, no run yet.
        if (!found) return walk.world.gate.release('watch');
        await walk.world.startRunElsewhere();
        const check = walk.world.relay.next();
        await walk.world.gate.releaseVia('watch', walk.world.relay.origin);
        // The page opened when the run was where the sample says.
        // The run kept going while the page opened: it is found at or past the sample's progress, still running.
        const at = await (await check).startAt((c) => c.current >= found.current);
        expect(at, 'the real run at the sample’s progress').toMatchObject({ max: found.max, status: 'running' });
        expect(at.current).toBeGreaterThanOrEqual(found.current);
        walk.world.progress = { current: at.current, max: found.max };
        // It then follows the run: the relay holds the chunks that come next.
        const follow = walk.world.relay.next();
        await walk.world.gate.releaseVia('watch', walk.world.relay.origin);
        walk.world.stream = await follow;
      },
    },
    // A working server does not fail to read the run: the gate's answer.
    'xstate.error.actor.checkRun': {
      perform: (walk) => walk.world.gate.answer('watch', 500, { error: 'Server error', description: 'The run could not be read.' }),
    },
    'xstate.done.actor.saveConfig': {
      perform: async (walk) => {
        await walk.world.gate.release('save');
        walk.world.progress = null;
        const run = walk.world.relay.next();
        await walk.world.gate.releaseVia('start', walk.world.relay.origin);
        walk.world.stream = await run;
      },
    },
    // The console checks the contract's rules before it sends anything, so a browser never sends what the server
    // refuses per field, and a working server does not fail a save: both are the gate's answers.
    'xstate.error.actor.saveConfig': {
      perform: async (walk, event) => {
        const error = (event as unknown as { error: { message: string; details?: Record<string, string[]>; description?: string } }).error;
        if (error.details) {
          walk.world.fieldError = Object.values(error.details)[0][0];
          return walk.world.gate.answer('save', 400, { message: VALIDATION_ERROR_MESSAGE, description: 'Some fields are not valid.', details: error.details });
        }
        walk.world.saveError = error.description!;
        return walk.world.gate.answer('save', 500, { error: error.message, description: error.description });
      },
    },
    'xstate.done.actor.followRun': {
      perform: async (walk, event) => {
        const end = (event as unknown as { output: RunOutcome }).output;
        if (end.status === 'failed') await revokeLoggenToken(walk);
        if (end.status === 'stopped') await walk.world.api('POST', `integrations/loggen/run/stop?project_id=${walk.world.lab.projectId}`);
        const last = await stream(walk).flow();
        walk.world.stream = null;
        // How the real run ended: a whole run counts the sample's lines; a refusal or a stop comes part-way through.
        if (end.status === 'done') expect(last).toEqual(end);
        else expect({ status: last.status, error: last.error }).toEqual({ status: end.status, error: end.error });
        walk.world.lines = end.current;
        walk.world.error = end.error ?? null;
      },
    },
    'xstate.error.actor.followRun': {
      perform: async (walk) => {
        stream(walk).cut();
        walk.world.stream = null;
        walk.world.error = SAMPLE_CONNECTION_LOST;
      },
    },
    'xstate.done.actor.stopRun': { perform: (walk) => walk.world.gate.release('stop') },
    // The real stop cancels a job in the database; its failure is the gate's answer.
    'xstate.error.actor.stopRun': {
      perform: async (walk) => {
        walk.world.error = SAMPLE_STOP_FAILURE;
        await walk.world.gate.answer('stop', 503, { error: 'Service unavailable', description: SAMPLE_STOP_FAILURE });
      },
    },
  },
});
