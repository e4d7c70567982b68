// @vitest-environment jsdom
// Model-based test of the Loggen run machine: every generated path is replayed on a real actor (the calls are
// controlled doubles) and through the run panel of the Loggen page (Save, 'Running... N%', Stop, done and failed).
import { expect } from 'vitest';
import { LOGGEN_DONE, LOGGEN_FAILED, loggenRunMachine } from '../../src/machines/loggen-run/loggen-run.machine';
import { LoggenRunPanel } from '../../src/views/stack/loggen/loggen-run-panel';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const config = { url: 'http://127.0.0.1:8080/qryn/1', rate: 50, timeout: '5s' };
const notices: string[] = [];
const machine = loggenRunMachine.provide({
  actions: {
    notifyRunning: () => void notices.push('running'),
    notifyDone: () => void notices.push('done'),
    notifyFailed: (_, params) => void notices.push(`failed: ${params.reason}`),
  },
});

const refused = 'the qryn instance refused the API key and secret (401: Unauthorized)';
const events = {
  'config.save': [{ type: 'config.save', config }],
  'run.progress': [{ type: 'run.progress', current: 100, max: 250 }],
  'run.stop': [{ type: 'run.stop' }],
  'xstate.done.actor.checkRun': [
    { type: 'xstate.done.actor.checkRun', output: null },
    { type: 'xstate.done.actor.checkRun', output: { current: 50, max: 250, status: 'running' } },
  ],
  'xstate.error.actor.checkRun': [{ type: 'xstate.error.actor.checkRun', error: new Error('offline') }],
  'xstate.done.actor.saveConfig': [{ type: 'xstate.done.actor.saveConfig', output: { step: 'run-loggen' } }],
  'xstate.error.actor.saveConfig': [
    { type: 'xstate.error.actor.saveConfig', error: Object.assign(new Error('Validation'), { details: { rate: ['The rate must be between 1 and 100'] } }) },
    { type: 'xstate.error.actor.saveConfig', error: Object.assign(new Error('Server error'), { description: 'Something went wrong on our side.' }) },
  ],
  'xstate.done.actor.followRun': [
    { type: 'xstate.done.actor.followRun', output: { current: 250, max: 250, status: 'done' } },
    { type: 'xstate.done.actor.followRun', output: { current: 0, max: 250, status: 'failed', error: refused } },
    { type: 'xstate.done.actor.followRun', output: { current: 120, max: 250, status: 'stopped' } },
  ],
  // A stream that breaks half-way.
  'xstate.error.actor.followRun': [{ type: 'xstate.error.actor.followRun', error: new Error('The connection to the run was lost before it ended.') }],
  'xstate.done.actor.stopRun': [{ type: 'xstate.done.actor.stopRun', output: undefined }],
  'xstate.error.actor.stopRun': [{ type: 'xstate.error.actor.stopRun', error: Object.assign(new Error('x'), { description: 'Loggen is not running' }) }],
} satisfies ModelEvents<typeof machine>;

const states = {
  checking: (s) => expect(s.context.progress).toBeNull(),
  idle: (s) => {
    if (Object.keys(s.context.fieldErrors).length > 0) expect(s.context.fieldErrors.rate).toEqual(['The rate must be between 1 and 100']);
  },
  saving: (s) => {
    expect(s.context.config).toEqual(config);
    expect(s.context.error).toBeNull();
  },
  running: (s) => expect(s.context.progress === null || s.context.progress.max === 250).toBe(true),
  stopping: () => undefined,
  done: (s) => expect(s.context.progress).toEqual({ current: 250, max: 250 }),
  failed: (s) => expect(s.context.error).toMatch(/refused|lost|not running/),
} satisfies ModelStates<typeof machine>;

const saveButton = (screen: ViewScreen) => screen.getByRole('button', { name: /Save and run|Running\.\.\./ }) as HTMLButtonElement;

const viewEvents = {
  'config.save': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Save and run' })),
  'run.stop': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Stop' })),
  // Progress arrives from the stream, not from a person.
  'run.progress': 'send-to-actor',
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  checking: ({ screen }) => expect(saveButton(screen).disabled).toBe(true),
  idle: ({ screen }) => {
    expect(saveButton(screen).disabled).toBe(false);
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  },
  saving: ({ screen }) => expect(saveButton(screen).disabled).toBe(true),
  running: ({ screen, actor }) => {
    const progress = actor.getSnapshot().context.progress;
    const percent = progress ? Math.floor((progress.current / progress.max) * 100) : 0;
    expect(saveButton(screen).textContent).toBe(`Running... ${percent}%`);
    expect(saveButton(screen).disabled).toBe(true);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe(String(percent));
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
  },
  stopping: ({ screen }) => expect(saveButton(screen).disabled).toBe(true),
  done: ({ screen }) => {
    expect(screen.getByText(LOGGEN_DONE)).toBeTruthy();
    expect(screen.getByText('250 log lines were accepted by the qryn instance.')).toBeTruthy();
    expect(saveButton(screen).disabled).toBe(false);
  },
  failed: ({ screen, actor }) => {
    expect(screen.getByText(LOGGEN_FAILED)).toBeTruthy();
    expect(screen.getByText(actor.getSnapshot().context.error!)).toBeTruthy();
    expect(saveButton(screen).disabled).toBe(false);
  },
} satisfies ViewStates<typeof machine>;

describeModel('Loggen run machine', {
  name: 'loggen-run',
  machine,
  events,
  states,
  serializeContext: (context) => ({ progress: context.progress, errors: context.fieldErrors, error: context.error }),
  // Shortest and edge paths already reach every state and transition; simple paths add hundreds of walks, not coverage.
  simplePaths: false,
  view: { render: (actor) => <LoggenRunPanel actor={actor} onSave={() => actor.send({ type: 'config.save', config })} />, events: viewEvents, states: viewStates },
});
