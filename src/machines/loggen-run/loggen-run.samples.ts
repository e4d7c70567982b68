// Sample events of the Loggen run machine: what its model test (tests/model/loggen-run.test.tsx) replays, and what the
// browser walk (e2e/paths-loggen-run.spec.ts) and the statechart studio play. The run's numbers are those of a real
// run of 50 lines a second for 5 s (250 lines, one chunk a second), so the browser shows the samples' percentages.
import type { ModelEvents, ModelSamples } from '../../lib/model-paths';
import type { LoggenRunMachine, RunOutcome } from './loggen-run.machine';

export const SAMPLE_CONFIG = { url: 'http://127.0.0.1:8080/qryn/1', rate: 50, timeout: '5s' };
/** The reason a run fails with when the gateway refuses its secret (the text server/products/loggen writes). */
export const SAMPLE_REFUSED = 'the qryn instance refused the API key and secret (401: The credentials are not valid for this instance.)';
/** What the console says when the stream ends while the run still said running (src/services/loggen.ts). */
export const SAMPLE_CONNECTION_LOST = 'The connection to the run was lost before it ended. Reload the page to see how it is going.';
export const SAMPLE_RATE_ERROR = 'The rate must be between 1 and 100';
export const SAMPLE_SAVE_FAILURE = 'Something went wrong on our side.';
export const SAMPLE_STOP_FAILURE = 'Loggen could not be stopped: the job queue did not answer.';

/** A run found going when the page opens, one second in. */
export const SAMPLE_GOING: RunOutcome = { current: 50, max: 250, status: 'running' };
export const SAMPLE_DONE: RunOutcome = { current: 250, max: 250, status: 'done' };
export const SAMPLE_FAILED: RunOutcome = { current: 0, max: 250, status: 'failed', error: SAMPLE_REFUSED };
/** Stopped elsewhere (another tab, another member) while this page followed it. */
export const SAMPLE_STOPPED: RunOutcome = { current: 120, max: 250, status: 'stopped' };

export const loggenRunEvents = {
  'config.save': [{ type: 'config.save', config: SAMPLE_CONFIG }],
  'run.progress': [{ type: 'run.progress', current: 100, max: 250 }],
  'run.stop': [{ type: 'run.stop' }],
  'xstate.done.actor.checkRun': [
    // Loggen never ran in this project.
    { type: 'xstate.done.actor.checkRun', output: null },
    { type: 'xstate.done.actor.checkRun', output: SAMPLE_GOING },
  ],
  'xstate.error.actor.checkRun': [{ type: 'xstate.error.actor.checkRun', error: new Error('offline') }],
  'xstate.done.actor.saveConfig': [{ type: 'xstate.done.actor.saveConfig', output: { step: 'run-loggen' } }],
  'xstate.error.actor.saveConfig': [
    { type: 'xstate.error.actor.saveConfig', error: Object.assign(new Error('Validation'), { details: { rate: [SAMPLE_RATE_ERROR] } }) },
    { type: 'xstate.error.actor.saveConfig', error: Object.assign(new Error('Server error'), { description: SAMPLE_SAVE_FAILURE }) },
  ],
  'xstate.done.actor.followRun': [
    { type: 'xstate.done.actor.followRun', output: SAMPLE_DONE },
    { type: 'xstate.done.actor.followRun', output: SAMPLE_FAILED },
    { type: 'xstate.done.actor.followRun', output: SAMPLE_STOPPED },
  ],
  // A stream that breaks half-way.
  'xstate.error.actor.followRun': [{ type: 'xstate.error.actor.followRun', error: new Error(SAMPLE_CONNECTION_LOST) }],
  'xstate.done.actor.stopRun': [{ type: 'xstate.done.actor.stopRun', output: undefined }],
  'xstate.error.actor.stopRun': [{ type: 'xstate.error.actor.stopRun', error: Object.assign(new Error('Service unavailable'), { description: SAMPLE_STOP_FAILURE }) }],
} satisfies ModelEvents<LoggenRunMachine>;

export const loggenRunSamples: ModelSamples = {
  events: loggenRunEvents,
  serializeContext: (context: { progress: unknown; fieldErrors: unknown; error: unknown }) => ({ progress: context.progress, errors: context.fieldErrors, error: context.error }),
  // Shortest and edge paths already reach every state and transition; simple paths add hundreds of walks, not coverage.
  simplePaths: false,
};
