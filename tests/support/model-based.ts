// Model-based tests for XState machines: one helper every machine's test uses.
//
// The machine is its own model. xstate/graph walks it (shortest paths and simple paths) with the sample events the
// test gives; every generated path is then REPLAYED against a real actor of the same machine, and optionally against
// the machine's React view, asserting each visited state. Paths are computed by the pure `machine.transition`, so
// invoked actors never run during generation: their outcomes appear as `xstate.done.actor.<id>` and
// `xstate.error.actor.<id>` events, and delayed transitions as `xstate.after.<delay>.<state id>` events.
//
// Replay makes those outcomes real instead of faking them:
// - every actor named in the machine's setup() is replaced by a controlled promise double (unless the test supplies
//   its own); `xstate.done.actor.<id>` resolves the running double with the sample's `output`,
//   `xstate.error.actor.<id>` rejects it with the sample's `error`. If no such actor is running the step fails,
//   because the real machine did not invoke what the model expected.
// - the actor runs on a manual clock; `xstate.after.*` advances it timer by timer until the actor really received
//   that delayed event (a shorter timer that fires first changes the state and fails the step, as it would in life).
//
// Completeness is enforced twice: by type (the `states` maps are `Record<LeafStateKey, ...>`, the `events` map a
// `Record<EventType, ...>`) and at run time (every leaf state of the definition needs an assertion, every event used
// in a transition needs samples, every active leaf state met during replay needs an assertion), because a path
// through a state without an assertion would otherwise pass silently.
import type { ReactElement } from 'react';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type AnyActorLogic,
  type AnyEventObject,
  type AnyStateMachine,
  type AnyMachineSnapshot,
  type AnyStateNode,
  type EventFrom,
  type SnapshotFrom,
  type StateValueFrom,
  type Actor,
} from 'xstate';
import {
  activeLeafKeys,
  allStateNodes,
  createMachineDriver,
  describeEvent,
  generateModelPaths,
  isInternalEvent,
  isLeaf,
  keyOf,
  safeJson,
  transitionId,
  transitionsOf,
  type EventType,
  type ModelEvents,
  type ModelPath,
} from '../../src/lib/model-paths';
import { writeCoverage, type MachineCoverage } from './model-coverage';

// ---------------------------------------------------------------------------------------------------------------
// Types: keys derived from the machine so that `satisfies` catches a missing state or event at compile time.

type AllStateKeys<V> = V extends string
  ? V
  : V extends object
    ? { [K in keyof V & string]-?: K | `${K}.${AllStateKeys<NonNullable<V[K]>>}` }[keyof V & string]
    : never;
type ParentKeys<K> = K extends `${infer Head}.${infer Rest}` ? Head | `${Head}.${ParentKeys<Rest>}` : never;

/** Dot paths of the machine's leaf states (atomic and final), e.g. 'editing.pristine' | 'submitting'. */
export type LeafStateKey<TMachine extends AnyStateMachine> = Exclude<
  AllStateKeys<StateValueFrom<TMachine>>,
  ParentKeys<AllStateKeys<StateValueFrom<TMachine>>>
>;

export type { EventType, ModelEvents };

export type StateAssertion<TMachine extends AnyStateMachine> = (
  snapshot: SnapshotFrom<TMachine>,
) => void | Promise<void>;

/** One assertion per leaf state, run whenever that leaf is active after a step. */
export type ModelStates<TMachine extends AnyStateMachine> = Record<LeafStateKey<TMachine>, StateAssertion<TMachine>>;

/** @testing-library/react's screen, bound to document.body: what view actions and assertions query. */
export type ViewScreen = typeof import('@testing-library/react').screen;
/** The user-event instance of one view replay (created per path). */
export type ViewUser = ReturnType<typeof import('@testing-library/user-event').default.setup>;

export interface ViewContext<TMachine extends AnyStateMachine, TEvent extends AnyEventObject = AnyEventObject> {
  screen: ViewScreen;
  user: ViewUser;
  /** The event the step takes (for view events) or the event that led here (for view states). */
  event: TEvent;
  snapshot: SnapshotFrom<TMachine>;
  actor: Actor<TMachine>;
}

/**
 * How each event happens in the view:
 * - a user action (click, type) through the DOM;
 * - 'send-to-actor' for an event no person causes in this view (a token refresh from the identity client, an event
 *   another screen sends): in view replay the harness sends it to the actor directly;
 * - 'sent-by-view' for an event the view sends by itself on entering a state (listed in `sendsOnEntry`).
 * Outcome and delayed events are always performed by the harness (settling a double, advancing the clock).
 */
export type ViewEvents<TMachine extends AnyStateMachine> = {
  [K in EventType<TMachine>]:
    | ((context: ViewContext<TMachine, Extract<EventFrom<TMachine>, { type: K }>>) => void | Promise<void>)
    | 'send-to-actor'
    | 'sent-by-view';
};

export type ViewStates<TMachine extends AnyStateMachine> = Record<
  LeafStateKey<TMachine>,
  (context: ViewContext<TMachine>) => void | Promise<void>
>;

export interface ModelView<TMachine extends AnyStateMachine> {
  /** Renders the view for an actor the harness created and started. */
  render: (actor: Actor<TMachine>) => ReactElement;
  events: ViewEvents<TMachine>;
  states: ViewStates<TMachine>;
  /**
   * Events the view sends by itself as soon as a state is entered (a guard component that starts the login
   * redirect). In view replay the step reaching such a state passes when the actor went through it and then received
   * that event from the view; the state's DOM assertion sees the page after it; the path's next step, being that
   * event, is not sent again.
   */
  sendsOnEntry?: Partial<Record<LeafStateKey<TMachine>, EventType<TMachine>>>;
}

export interface ModelOptions<TMachine extends AnyStateMachine> {
  /** Name in the coverage table and the coverage file; defaults to the machine id. */
  name?: string;
  /** The machine with every React/browser effect already provided with test doubles. */
  machine: TMachine;
  input?: unknown;
  events: ModelEvents<TMachine>;
  states: ModelStates<TMachine>;
  /**
   * Actor doubles the harness must not replace with controlled promises (callbacks, observables, child machines).
   * A factory, so that every replay gets fresh doubles.
   */
  actors?: () => Record<string, AnyActorLogic>;
  view?: ModelView<TMachine>;
  /**
   * How a state is told apart from another during path generation. Defaults to its value plus its whole context as
   * JSON; give a narrower projection when the context holds refs or grows without bound.
   */
  serializeContext?: (context: SnapshotFrom<TMachine>['context']) => unknown;
  /** Upper bound on replayed paths after de-duplication; exceeding it fails instead of silently dropping paths. */
  maxPaths?: number;
  /** Simple paths can explode; turn them off for a machine whose shortest paths already cover everything. */
  simplePaths?: boolean;
  /**
   * States (dot paths) or transitions (ids as printed by the coverage check) that cannot be reached, with the
   * reason. Listing something that IS covered fails, so the list cannot go stale.
   */
  uncovered?: { states?: string[]; transitions?: string[]; reason: string };
}

export type { ModelPath };

export interface ModelPlan<TMachine extends AnyStateMachine> {
  options: ModelOptions<TMachine>;
  name: string;
  paths: ModelPath[];
  leafKeys: string[];
  allStateIds: string[];
  allTransitionIds: string[];
  coverage: {
    states: Set<string>;
    transitions: Set<string>;
    pathsReplayed: { machine: number; view: number };
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Definition walking

export { transitionId };

/** Leaf keys of a state value: 'a' → ['a'], { b: 'c' } → ['b.c'], parallel regions → one key per region. */
function leafKeysOfValue(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [`${prefix}${value}`];
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
      const nested = leafKeysOfValue(child, `${prefix}${key}.`);
      // A compound state whose value is {} has no active child: it is the leaf itself.
      return nested.length ? nested : [`${prefix}${key}`];
    });
  }
  return [];
}

// ---------------------------------------------------------------------------------------------------------------
// Plan: validation and path generation

export function createModelPlan<TMachine extends AnyStateMachine>(options: ModelOptions<TMachine>): ModelPlan<TMachine> {
  const { machine } = options;
  const nodes = allStateNodes(machine.root);
  const leafKeys = nodes.filter(isLeaf).map(keyOf);
  const allTransitionIds = [machine.root, ...nodes]
    .flatMap(transitionsOf)
    .map(transitionId)
    .filter((id): id is string => id !== undefined);

  checkStateMap('states', leafKeys, options.states as Record<string, unknown>);
  if (options.view) checkStateMap('view.states', leafKeys, options.view.states as Record<string, unknown>);

  const events = options.events as unknown as Record<string, readonly AnyEventObject[]>;
  const handled = new Set(
    [machine.root, ...nodes].flatMap(transitionsOf).map((t) => t.eventType).filter((type) => !isInternalEvent(type)),
  );
  const missingEvents = [...handled].filter((type) => !events[type] || events[type].length === 0);
  if (missingEvents.length) {
    throw new Error(`Model of '${machine.id}': no sample events for ${missingEvents.map((t) => `'${t}'`).join(', ')}`);
  }
  for (const [type, samples] of Object.entries(events)) {
    for (const sample of samples) {
      if (sample.type !== type) throw new Error(`Model of '${machine.id}': sample under '${type}' has type '${sample.type}'`);
    }
  }
  if (options.view) {
    const viewEvents = options.view.events as Record<string, unknown>;
    const missingView = [...handled].filter(
      (type) => !type.startsWith('xstate.done.actor.') && !type.startsWith('xstate.error.actor.') && !viewEvents[type],
    );
    if (missingView.length) {
      throw new Error(`View of '${machine.id}': no user action for ${missingView.map((t) => `'${t}'`).join(', ')}`);
    }
  }

  const paths = generateModelPaths(machine, {
    events,
    input: options.input,
    serializeContext: options.serializeContext as ((context: never) => unknown) | undefined,
    maxPaths: options.maxPaths,
    simplePaths: options.simplePaths,
  });

  return {
    options,
    name: options.name ?? machine.id,
    paths,
    leafKeys,
    allStateIds: nodes.map(keyOf),
    allTransitionIds,
    coverage: { states: new Set(), transitions: new Set(), pathsReplayed: { machine: 0, view: 0 } },
  };
}

function checkStateMap(label: string, leafKeys: string[], map: Record<string, unknown>): void {
  const missing = leafKeys.filter((key) => typeof map[key] !== 'function');
  const unknown = Object.keys(map).filter((key) => !leafKeys.includes(key));
  const problems = [
    missing.length ? `no assertion for state(s) ${missing.map((k) => `'${k}'`).join(', ')}` : '',
    unknown.length ? `assertions for unknown state(s) ${unknown.map((k) => `'${k}'`).join(', ')}` : '',
  ].filter(Boolean);
  if (problems.length) throw new Error(`Model ${label}: ${problems.join('; ')}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Replay

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

interface Replayer<TMachine extends AnyStateMachine> {
  actor: Actor<TMachine>;
  perform: (event: AnyEventObject) => Promise<void>;
  received: () => string[];
  /** Every state value the actor took, as JSON, in order. */
  values: string[];
  errors: unknown[];
}

function createReplayer<TMachine extends AnyStateMachine>(plan: ModelPlan<TMachine>): Replayer<TMachine> {
  const { options } = plan;
  const errors: unknown[] = [];
  const driver = createMachineDriver(options.machine, {
    input: options.input,
    actors: options.actors?.() ?? {},
    onTransition: (transition) => {
      const id = transitionId(transition);
      if (id) plan.coverage.transitions.add(id);
    },
  });
  const values: string[] = [];
  driver.actor.subscribe({
    next: (snapshot) => values.push(safeJson((snapshot as AnyMachineSnapshot).value)),
    error: (error) => errors.push(error),
  });
  return { ...driver, values, errors };
}

function checkReachedState<TMachine extends AnyStateMachine>(
  plan: ModelPlan<TMachine>,
  snapshot: AnySnapshotLike, step: ModelPath['steps'][number], where: string) {
  const actual = safeJson(snapshot.value);
  const expected = safeJson(step.value);
  if (actual !== expected) {
    throw new Error(
      `${where}: after '${describeEvent(step.event)}' the model expects ${expected} but the actor is in ${actual}`,
    );
  }
  for (const node of snapshot._nodes) plan.coverage.states.add(keyOf(node));
}

type AnySnapshotLike = { value: unknown; _nodes: AnyStateNode[]; status: string };

function assertionFor<T>(map: Record<string, T>, key: string, label: string): T {
  const assertion = map[key];
  // Checked again here (not only in createModelPlan): a reachable state without an assertion must never pass.
  if (typeof assertion !== 'function') throw new Error(`No ${label} assertion for reachable state '${key}'`);
  return assertion;
}

/** Replays one path against a real actor, asserting every visited state. */
export async function replayOnMachine<TMachine extends AnyStateMachine>(plan: ModelPlan<TMachine>, path: ModelPath): Promise<void> {
  const replayer = createReplayer(plan);
  const { actor } = replayer;
  const states = plan.options.states as unknown as Record<string, StateAssertion<TMachine>>;
  try {
    for (const [index, step] of path.steps.entries()) {
      if (index === 0) actor.start();
      else await replayer.perform(step.event);
      if (replayer.errors.length) throw replayer.errors[0];
      const snapshot = actor.getSnapshot() as SnapshotFrom<TMachine> & AnySnapshotLike;
      checkReachedState(plan, snapshot, step, `step ${index}`);
      for (const key of activeLeafKeys(snapshot)) {
        await assertionFor(states, key, 'machine')(snapshot);
      }
    }
    plan.coverage.pathsReplayed.machine += 1;
  } finally {
    actor.stop();
  }
}

/** Replays one path through the React view in jsdom: user actions in, DOM assertions out. */
export async function replayOnView<TMachine extends AnyStateMachine>(plan: ModelPlan<TMachine>, path: ModelPath): Promise<void> {
  const view = plan.options.view;
  if (!view) throw new Error(`Model '${plan.name}' has no view adapter`);
  const [{ render, screen, cleanup, act }, { default: userEvent }] = await Promise.all([
    import('@testing-library/react'),
    import('@testing-library/user-event'),
  ]);
  const replayer = createReplayer(plan);
  const { actor } = replayer;
  const user = userEvent.setup();
  const viewEvents = view.events as unknown as Record<
    string,
    ((context: ViewContext<TMachine>) => void | Promise<void>) | 'send-to-actor' | 'sent-by-view' | undefined
  >;
  const sendsOnEntry = (view.sendsOnEntry ?? {}) as Record<string, string | undefined>;
  const { waitFor } = await import('@testing-library/react');
  let sentByView: string | null = null;
  const viewStates = view.states as unknown as Record<string, (context: ViewContext<TMachine>) => void | Promise<void>>;
  const context = (event: AnyEventObject): ViewContext<TMachine> => ({
    screen,
    user,
    event,
    actor,
    snapshot: actor.getSnapshot() as SnapshotFrom<TMachine>,
  });
  try {
    for (const [index, step] of path.steps.entries()) {
      const valuesBefore = replayer.values.length;
      const receivedBefore = replayer.received().length;
      if (index === 0) {
        actor.start();
        render(view.render(actor));
      } else if (sentByView !== null && sentByView === step.event.type) {
        // The view already sent this event on entering the previous state.
        sentByView = null;
      } else {
        sentByView = null;
        const type = step.event.type;
        const action = viewEvents[type];
        if (action === 'sent-by-view') {
          throw new Error(`The view was expected to send '${type}' by itself, but the path reached it another way`);
        }
        if (typeof action === 'function') {
          await action(context(step.event));
        } else if (action === 'send-to-actor' || type.startsWith('xstate.')) {
          await act(() => replayer.perform(step.event));
        } else {
          throw new Error(`No user action for event '${type}'`);
        }
        await act(() => tick());
      }
      if (replayer.errors.length) throw replayer.errors[0];
      const expectedKeys = leafKeysOfValue(step.value);
      const automatic = expectedKeys.map((key) => sendsOnEntry[key]).find((type) => type !== undefined);
      if (automatic) {
        // The state is transient in this view: it must have been reached, then left by the view's own event.
        await waitFor(() => {
          if (!replayer.received().slice(receivedBefore).includes(automatic)) {
            throw new Error(`view step ${index}: the view did not send '${automatic}' on entering ${safeJson(step.value)}`);
          }
        });
        if (!replayer.values.slice(valuesBefore).includes(safeJson(step.value))) {
          throw new Error(`view step ${index}: the actor never was in ${safeJson(step.value)}`);
        }
        sentByView = automatic;
        for (const key of expectedKeys) await assertionFor(viewStates, key, 'view')(context(step.event));
        continue;
      }
      const snapshot = actor.getSnapshot() as SnapshotFrom<TMachine> & AnySnapshotLike;
      checkReachedState(plan, snapshot, step, `view step ${index}`);
      for (const key of activeLeafKeys(snapshot)) {
        await assertionFor(viewStates, key, 'view')(context(step.event));
      }
    }
    plan.coverage.pathsReplayed.view += 1;
  } finally {
    cleanup();
    actor.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Coverage

export function summarizeCoverage<TMachine extends AnyStateMachine>(plan: ModelPlan<TMachine>): MachineCoverage {
  const missingStates = plan.allStateIds.filter((id) => !plan.coverage.states.has(id));
  const missingTransitions = plan.allTransitionIds.filter((id) => !plan.coverage.transitions.has(id));
  return {
    machine: plan.name,
    states: { covered: plan.allStateIds.length - missingStates.length, total: plan.allStateIds.length, missing: missingStates },
    transitions: {
      covered: plan.allTransitionIds.length - missingTransitions.length,
      total: plan.allTransitionIds.length,
      missing: missingTransitions,
    },
    paths: { generated: plan.paths.length, machine: plan.coverage.pathsReplayed.machine, view: plan.coverage.pathsReplayed.view },
  };
}

/** Fails unless every state and transition was covered, except the ones declared unreachable (which must not be). */
export function checkFullCoverage<TMachine extends AnyStateMachine>(plan: ModelPlan<TMachine>): void {
  const summary = summarizeCoverage(plan);
  const allowedStates = plan.options.uncovered?.states ?? [];
  const allowedTransitions = plan.options.uncovered?.transitions ?? [];
  const problems: string[] = [];
  const unexpectedStates = summary.states.missing.filter((s) => !allowedStates.includes(s));
  const unexpectedTransitions = summary.transitions.missing.filter((t) => !allowedTransitions.includes(t));
  if (unexpectedStates.length) problems.push(`states never reached: ${unexpectedStates.join(', ')}`);
  if (unexpectedTransitions.length) problems.push(`transitions never taken:\n  ${unexpectedTransitions.join('\n  ')}`);
  const staleStates = allowedStates.filter((s) => !summary.states.missing.includes(s));
  const staleTransitions = allowedTransitions.filter((t) => !summary.transitions.missing.includes(t));
  if (staleStates.length || staleTransitions.length) {
    problems.push(`declared uncovered but covered: ${[...staleStates, ...staleTransitions].join(', ')}`);
  }
  if (problems.length) throw new Error(`Coverage of '${plan.name}': ${problems.join('; ')}`);
}

// ---------------------------------------------------------------------------------------------------------------
// The vitest wrapper every machine test uses

/**
 * Registers one test per generated path (machine, and view when given), then a coverage test, and writes the
 * coverage file for the table `npm test` prints.
 */
export function describeModel<TMachine extends AnyStateMachine>(title: string, options: ModelOptions<TMachine>): ModelPlan<TMachine> {
  const plan = createModelPlan(options);
  describe(title, () => {
    describe('machine paths', () => {
      for (const path of plan.paths) {
        it(`${path.kind}: ${path.description}`, () => replayOnMachine(plan, path));
      }
    });
    if (options.view) {
      describe('view paths', () => {
        for (const path of plan.paths) {
          it(`${path.kind}: ${path.description}`, () => replayOnView(plan, path));
        }
      });
    }
    it('covers every state and transition', () => {
      expect(plan.coverage.pathsReplayed.machine).toBe(plan.paths.length);
      if (options.view) expect(plan.coverage.pathsReplayed.view).toBe(plan.paths.length);
      checkFullCoverage(plan);
    });
    afterAll(() => writeCoverage(summarizeCoverage(plan)));
  });
  return plan;
}
