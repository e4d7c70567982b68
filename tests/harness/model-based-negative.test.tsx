// @vitest-environment jsdom
// The harness must fail loudly whenever a model test would otherwise pass without proving anything.
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import {
  checkFullCoverage,
  createModelPlan,
  replayOnMachine,
  replayOnView,
  type ModelEvents,
  type ModelStates,
  type ViewEvents,
  type ViewStates,
} from '../support/model-based';
import { sessionMachine, type SignInOutput } from './fixtures/session.machine';
import { sessionEvents } from './fixtures/session-events';
import { SessionView } from './fixtures/session-view';

type SessionMachine = typeof sessionMachine;

const events = sessionEvents;

const pass = () => {};
const states = {
  'editing.pristine': pass,
  'editing.invalid': pass,
  submitting: pass,
  failed: pass,
  verifying: pass,
  'signedIn.active': pass,
  'signedIn.warning': pass,
  signedOut: pass,
} satisfies ModelStates<SessionMachine>;

const safeValue = (value: unknown) => JSON.stringify(value);

async function replayAll(plan: ReturnType<typeof createModelPlan<SessionMachine>>) {
  for (const path of plan.paths) await replayOnMachine(plan, path);
}

describe('model-based harness refuses to pass silently', () => {
  it('rejects a states map without an assertion for a reachable state (run time)', () => {
    const { verifying: _omitted, ...incomplete } = states;
    expect(() =>
      createModelPlan({ machine: sessionMachine, events, states: incomplete as unknown as typeof states }),
    ).toThrow("no assertion for state(s) 'verifying'");
  });

  it('rejects a states map without an assertion for a reachable state (type level)', () => {
    const { signedOut: _omitted, ...incomplete } = states;
    // @ts-expect-error 'signedOut' is a leaf state of the machine and has no assertion
    const checked: ModelStates<SessionMachine> = incomplete;
    expect(Object.keys(checked)).not.toContain('signedOut');
  });

  it('rejects assertions for states the machine does not have', () => {
    expect(() =>
      createModelPlan({ machine: sessionMachine, events, states: { ...states, signedUp: pass } as typeof states }),
    ).toThrow("assertions for unknown state(s) 'signedUp'");
  });

  it('fails the replay when an assertion disappears after planning', async () => {
    const mutable: Record<string, unknown> = { ...states };
    const plan = createModelPlan({ machine: sessionMachine, events, states: mutable as typeof states });
    delete mutable.failed;
    await expect(replayAll(plan)).rejects.toThrow("No machine assertion for reachable state 'failed'");
  });

  it('rejects an event used in a transition without samples', () => {
    expect(() =>
      createModelPlan({ machine: sessionMachine, events: { ...events, retry: [] }, states }),
    ).toThrow("no sample events for 'retry'");
  });

  it('surfaces a failing state assertion', async () => {
    const plan = createModelPlan({
      machine: sessionMachine,
      events,
      states: {
        ...states,
        failed: (s) => expect(s.context.error).toBe('something else'),
      },
    });
    await expect(replayAll(plan)).rejects.toThrow("expected 'Network down' to be 'something else'");
  });

  it('fails when the real actor leaves the path the model predicts', async () => {
    // An actor that answers at once: the real machine skips 'submitting' before the test settles it.
    const plan = createModelPlan({
      machine: sessionMachine,
      events,
      states,
      actors: () => ({
        signIn: fromPromise<SignInOutput, { email: string }>(async () => ({ name: 'Ada', verified: true })),
      }),
    });
    await expect(replayAll(plan)).rejects.toThrow(/model expects "submitting" but the actor is in \{"signedIn":"active"\}/);
  });

  it('fails the coverage check for an unreachable transition, unless declared, and a stale declaration', async () => {
    const onlyVerified = {
      ...events,
      'xstate.done.actor.signIn': [{ type: 'xstate.done.actor.signIn', output: { name: 'Ada', verified: true } }],
    } satisfies ModelEvents<SessionMachine>;
    const plan = createModelPlan({ machine: sessionMachine, events: onlyVerified, states, simplePaths: false });
    await replayAll(plan);
    expect(() => checkFullCoverage(plan)).toThrow(/states never reached: verifying/);

    const declared = createModelPlan({
      machine: sessionMachine,
      events: onlyVerified,
      states,
      simplePaths: false,
      uncovered: {
        states: ['verifying'],
        transitions: ['submitting --xstate.done.actor.signIn[1]--> verifying', 'verifying --back[0]--> editing'],
        reason: 'the sample outputs are all verified accounts',
      },
    });
    await replayAll(declared);
    expect(() => checkFullCoverage(declared)).not.toThrow();

    const stale = createModelPlan({
      machine: sessionMachine,
      events,
      states,
      simplePaths: false,
      uncovered: { states: ['verifying'], reason: 'no longer true' },
    });
    await replayAll(stale);
    expect(() => checkFullCoverage(stale)).toThrow('declared uncovered but covered: verifying');
  });

  it('fails a view replay when a view declared to send an event on entering a state does not', async () => {
    const anyDom = () => {};
    const plan = createModelPlan({
      machine: sessionMachine,
      events: { ...events, 'form.submit': [{ type: 'form.submit', email: 'not-an-email' }] },
      states,
      simplePaths: false,
      view: {
        render: (actor) => <SessionView actor={actor} />,
        events: {
          'form.submit': 'send-to-actor',
          retry: 'sent-by-view',
          back: 'send-to-actor',
          activity: 'send-to-actor',
          'sign.out': 'send-to-actor',
        },
        states: {
          'editing.pristine': anyDom,
          'editing.invalid': anyDom,
          submitting: anyDom,
          failed: anyDom,
          verifying: anyDom,
          'signedIn.active': anyDom,
          'signedIn.warning': anyDom,
          signedOut: anyDom,
        },
        // The session view never retries by itself.
        sendsOnEntry: { 'editing.invalid': 'retry' },
      },
    });
    const path = plan.paths.find((p) => p.steps.some((step) => step.value && safeValue(step.value) === '{"editing":"invalid"}'));
    if (!path) throw new Error('expected a path through editing.invalid');
    await expect(replayOnView(plan, path)).rejects.toThrow("the view did not send 'retry'");
  });

  it('fails a view replay when the user action does not reach the state the model predicts', async () => {
    const viewEvents = {
      'form.submit': async ({ screen, user }) => {
        // Submits without typing: the view sends an empty email, so the machine stays in 'editing'.
        await user.click(screen.getByRole('button', { name: 'Sign in' }));
      },
      retry: 'send-to-actor',
      back: 'send-to-actor',
      activity: 'send-to-actor',
      'sign.out': 'send-to-actor',
    } satisfies ViewEvents<SessionMachine>;
    const anyDom = () => {};
    const viewStates = {
      'editing.pristine': anyDom,
      'editing.invalid': anyDom,
      submitting: anyDom,
      failed: anyDom,
      verifying: anyDom,
      'signedIn.active': anyDom,
      'signedIn.warning': anyDom,
      signedOut: anyDom,
    } satisfies ViewStates<SessionMachine>;
    const plan = createModelPlan({
      machine: sessionMachine,
      events: { ...events, 'form.submit': [{ type: 'form.submit', email: 'ada@example.com' }] },
      states,
      simplePaths: false,
      view: { render: (actor) => <SessionView actor={actor} />, events: viewEvents, states: viewStates },
    });
    const path = plan.paths.find((p) => p.steps.length > 1);
    if (!path) throw new Error('expected a path with steps');
    await expect(replayOnView(plan, path)).rejects.toThrow(/model expects "submitting"/);
  });
});
