// @vitest-environment jsdom
// Model-based test of the Loggen run machine: every generated path is replayed on a real actor (the calls are
// controlled doubles) and through the run panel of the Loggen page (Save, 'Running... N%', Stop, done and failed).
import { expect } from 'vitest';
import { LOGGEN_DONE, LOGGEN_FAILED, loggenRunMachine } from '../../src/machines/loggen-run/loggen-run.machine';
import { SAMPLE_CONFIG, SAMPLE_RATE_ERROR, loggenRunEvents, loggenRunSamples } from '../../src/machines/loggen-run/loggen-run.samples';
import { LoggenRunPanel } from '../../src/views/stack/loggen/loggen-run-panel';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const config = SAMPLE_CONFIG;
const notices: string[] = [];
const machine = loggenRunMachine.provide({
  actions: {
    notifyRunning: () => void notices.push('running'),
    notifyDone: () => void notices.push('done'),
    notifyFailed: (_, params) => void notices.push(`failed: ${params.reason}`),
  },
});

// The same samples the browser walk and the statechart studio play.
const events = loggenRunEvents satisfies ModelEvents<typeof machine>;

const states = {
  checking: (s) => expect(s.context.progress).toBeNull(),
  idle: (s) => {
    if (Object.keys(s.context.fieldErrors).length > 0) expect(s.context.fieldErrors.rate).toEqual([SAMPLE_RATE_ERROR]);
  },
  saving: (s) => {
    expect(s.context.config).toEqual(config);
    expect(s.context.error).toBeNull();
  },
  running: (s) => expect(s.context.progress === null || s.context.progress.max === 250).toBe(true),
  stopping: () => undefined,
  done: (s) => expect(s.context.progress).toEqual({ current: 250, max: 250 }),
  failed: (s) => expect(s.context.error).toMatch(/refused|lost|could not be stopped/),
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
  serializeContext: loggenRunSamples.serializeContext as (context: unknown) => unknown,
  simplePaths: loggenRunSamples.simplePaths,
  view: { render: (actor) => <LoggenRunPanel actor={actor} onSave={() => actor.send({ type: 'config.save', config })} />, events: viewEvents, states: viewStates },
});
