// Model-based paths walked in the real browser against the running platform. The paths come from the same generator
// the jsdom model tests and the statechart studio use (src/lib/model-paths.ts, with the machine's sample events);
// each machine's browser model maps every leaf state to what a person sees and every event type to what a person
// does (or, for what a browser cannot cause, to a request gate that makes the server answer as the event says).
// The map is checked complete against the machine when the spec runs: a state or event without an entry fails,
// and an entry may only be left out of the walk with a reason (`unreachable`), which the coverage table prints.
//
// Which paths are walked: every generated path is first replayed on a real actor of the machine in node (the same
// driver the studio steps with) to learn the states and transitions it covers; paths that need an unreachable state,
// event or sample are set aside (their first such step names the reason for what only they cover; the part before
// that step is tried on its own when it covers what no walkable path does); of the rest, a
// greedy pick keeps the fewest paths that cover everything the walkable paths cover, shortest first. In the browser,
// each path runs on a fresh page from the model's `open` (or, when the model's `reuse` brought the last path's page
// back to where `open` leaves it, on that page), and after every step the walk asserts what a person sees
// for each active leaf state, with the node actor kept in step to tell which states those are and which transitions
// were taken. Coverage is written to .tmp/model-coverage/browser/<machine>.json for the table `npm test` prints.
//
// Inputs: a machine whose transitions depend on what the page starts with (e.g. the account the console remembered)
// lists `variants`, each an input and, when the page must be set up differently for it, its own `open`. Paths are
// generated and planned per variant, the pick covers the union of all variants' walkable paths, each picked path is
// walked with its variant's input (node actor and page), and one coverage record is written for the machine: what
// any variant covered, the generated paths of all variants, and reasons only for what no variant's walkable paths
// reach. Without `variants` the machine is walked from its samples' input.
//
// Each path has an id (a hash of its input and events, e2e/model-map.ts). A failed path prints the one-line command
// that replays only it (`npm run test:path -- <machine> <id>`, scripts/test-path.ts: MODEL_PATH=<machine>:<id> makes
// the walk play that path alone and skip the coverage record) and its steps in words. A full walk also writes the
// committed snapshot docs/statecharts/browser-coverage/<machine>.json that the statechart studio shows.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine, AnyTransitionDefinition } from 'xstate';
import {
  activeLeafKeys,
  allStateNodes,
  createMachineDriver,
  describeEvent,
  generateModelPaths,
  keyOf,
  transitionId,
  transitionsOf,
  type ModelPath,
  type ModelSamples,
} from '../src/lib/model-paths';
import { writeBrowserCoverage, type MachineCoverage } from '../tests/support/model-coverage';
import { mapProblems, pathFailureReport, pathId, type Unreachable } from './model-map';
import { expect, test } from './fixtures';

export type { Unreachable };


export interface WalkContext<TWorld> {
  page: Page;
  world: TWorld;
}

export type StateCheck<TWorld> = (walk: WalkContext<TWorld>) => Promise<void>;

export interface EventAction<TWorld> {
  /** What a person does for this event (or the gate's answer for an outcome). */
  perform: (walk: WalkContext<TWorld>, event: AnyEventObject) => Promise<void>;
  /**
   * A sample of this event a browser cannot produce, with the reason; undefined when it can. `from` is the node
   * actor's snapshot before the event: for a sample a browser can produce in one state and not in another.
   */
  unreachableSample?: (event: AnyEventObject, from: AnyMachineSnapshot) => string | undefined;
}

type OpenPage<TWorld> = (args: { browser: Browser; baseURL: string; path: ModelPath }) => Promise<WalkContext<TWorld> & { close: () => Promise<void> }>;

/** One input the machine is walked from, with the page set up to give it. */
export interface InputVariant<TWorld> {
  /** Named in the titles of its paths. */
  name: string;
  /** The machine's input: the node actor's, and what the page's setup makes the console start with. */
  input: unknown;
  /** This input's page, when the model's `open` does not give it. */
  open?: OpenPage<TWorld>;
}

export interface BrowserModel<TMachine extends AnyStateMachine, TWorld> {
  /** Same name as the machine's jsdom model test, so the table puts both on one row. */
  name: string;
  machine: TMachine;
  samples: ModelSamples;
  states: Record<string, StateCheck<TWorld> | Unreachable>;
  events: Record<string, EventAction<TWorld> | Unreachable>;
  /**
   * What the walk does when one of the machine's own timers (`after`) is due, before the next state is checked: e.g.
   * hold the request the timer's state makes. Without it the walk just waits for the page's timer.
   */
  delay?: (walk: WalkContext<TWorld>, event: AnyEventObject) => Promise<void>;
  /** Paths walked after the others, e.g. one that really deletes what the other paths walk on. */
  runLast?: (path: ModelPath) => boolean;
  /**
   * After a path that passed: bring its page back to what `open` gives, without a reload, and say so (true); the next
   * path of the same input then walks on that page instead of a new one. Only where the page's actor is then as a
   * fresh one would be (its initial state, nothing in its context that a later step reads); false closes the page.
   * `last` is the node actor's final snapshot of the path.
   */
  reuse?: (walk: WalkContext<TWorld>, last: AnyMachineSnapshot) => Promise<boolean>;
  /** Called once after the last path, e.g. to close a browser context that `open` keeps for every path. */
  finish?: () => Promise<void>;
  /** A fresh page at the flow's screen, before the machine's first state is checked; `path` tells which path runs. */
  open: OpenPage<TWorld>;
  /**
   * The inputs to walk the machine from, when one input cannot reach every transition a browser can (a guard on the
   * input that a page load decides). Without it, the samples' input.
   */
  variants?: InputVariant<TWorld>[];
}

/**
 * A model's `reuse` for a page whose flow ended back in `state` (the one `open` leaves it in): the page's request gate
 * is emptied for the next path. `unless` names what else the path may have changed that `open` would set up again.
 */
export function reuseIn<TWorld extends { gate: { reset(): Promise<void> } }>(state: string, unless: (world: TWorld) => boolean = () => false) {
  return async (walk: WalkContext<TWorld>, last: AnyMachineSnapshot): Promise<boolean> => {
    if (!last.matches(state) || unless(walk.world)) return false;
    await walk.world.gate.reset();
    return true;
  };
}

/** A variant as walked: its own `open` or the model's. */
interface Variant {
  name: string;
  input: unknown;
  open: OpenPage<unknown>;
}

function variantsOf(model: BrowserModel<AnyStateMachine, unknown>): Variant[] {
  if (!model.variants?.length) return [{ name: '', input: model.samples.input, open: model.open }];
  return model.variants.map((variant) => ({ name: variant.name, input: variant.input, open: variant.open ?? model.open }));
}

const generateFor = (model: BrowserModel<AnyStateMachine, unknown>, variant: Variant) =>
  generateModelPaths(model.machine, { ...model.samples, input: variant.input });

const isUnreachable = (entry: unknown): entry is Unreachable => typeof (entry as Unreachable | undefined)?.unreachable === 'string';

interface PlannedPath {
  path: ModelPath;
  variant: Variant;
  states: Set<string>;
  transitions: Set<string>;
  /** Set when the path needs something a browser cannot do: the reason and what that step would cover. */
  blocked?: { reason: string; at: number; covers: Map<string, number> };
}

function allIds(machine: AnyStateMachine): { states: string[]; transitions: string[] } {
  const nodes = allStateNodes(machine.root);
  return {
    states: nodes.map(keyOf),
    transitions: [machine.root, ...nodes].flatMap(transitionsOf).map(transitionId).filter((id): id is string => id !== undefined),
  };
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A node actor of the machine (the studio's driver) and the transitions it takes, which the caller empties per step. */
function trackedDriver(model: BrowserModel<AnyStateMachine, unknown>, variant: Variant) {
  const stepTransitions: string[] = [];
  const driver = createMachineDriver(model.machine, {
    input: variant.input,
    onTransition: (t: AnyTransitionDefinition) => {
      const id = transitionId(t);
      if (id) stepTransitions.push(id);
    },
  });
  return { driver, stepTransitions };
}

/** Replays a path on a node actor: what each step covers, and the first step a browser cannot take. */
async function planPath(model: BrowserModel<AnyStateMachine, unknown>, variant: Variant, path: ModelPath): Promise<PlannedPath> {
  const { driver, stepTransitions } = trackedDriver(model, variant);
  const planned: PlannedPath = { path, variant, states: new Set(), transitions: new Set() };
  const blockedBy = (step: number, event: AnyEventObject, from: AnyMachineSnapshot, leaves: string[]): string | undefined => {
    const entry = model.events[event.type];
    if (step > 0 && isUnreachable(entry)) return entry.unreachable;
    if (step > 0 && entry && !isUnreachable(entry)) {
      const reason = entry.unreachableSample?.(event, from);
      if (reason) return reason;
    }
    for (const leaf of leaves) {
      const state = model.states[leaf];
      if (isUnreachable(state)) return state.unreachable;
    }
    return undefined;
  };
  driver.actor.start();
  try {
    for (const [index, step] of path.steps.entries()) {
      if (index > 0) stepTransitions.splice(0);
      const from = driver.actor.getSnapshot();
      if (index > 0) await driver.perform(step.event);
      const nodes = driver.actor.getSnapshot()._nodes;
      const leaves = activeLeafKeys(driver.actor.getSnapshot());
      if (!planned.blocked) {
        const reason = blockedBy(index, step.event, from, leaves);
        if (reason) planned.blocked = { reason, at: index, covers: new Map() };
      }
      // Past the first step a browser cannot take, what the path covers is only reachable this way: the reason
      // stands for it, the more surely the closer it comes after that step.
      const ids = [...nodes.map(keyOf).filter(Boolean), ...stepTransitions];
      if (planned.blocked) for (const id of ids) if (!planned.blocked.covers.has(id)) planned.blocked.covers.set(id, index - planned.blocked.at);
      for (const node of nodes) if (!planned.blocked && keyOf(node)) planned.states.add(keyOf(node));
      for (const id of stepTransitions) if (!planned.blocked) planned.transitions.add(id);
      if (!sameValue(driver.actor.getSnapshot().value, step.value)) throw new Error(`path left the model at step ${index}`);
    }
  } finally {
    driver.actor.stop();
  }
  return planned;
}

/**
 * An edge path reaches its edge by the shortest path to the edge's source, which may need what a browser cannot do
 * (e.g. a state the server only gives on a later visit) although a walkable path passes through the same state. For
 * each blocked path's last step, try it after every walkable path's visit of the state it starts from (a path of the
 * same input: another input's path reaches the same state value with another context); a splice that leaves the
 * model (the replay ends elsewhere) is dropped.
 */
async function splicedEdges(model: BrowserModel<AnyStateMachine, unknown>, planned: PlannedPath[]): Promise<PlannedPath[]> {
  const walkable = planned.filter((p) => !p.blocked);
  const reachable = new Set(walkable.flatMap((p) => [...p.states, ...p.transitions]));
  const spliced: PlannedPath[] = [];
  const tried = new Set<string>();
  for (const blocked of planned) {
    if (!blocked.blocked || blocked.path.steps.length < 2) continue;
    const last = blocked.path.steps.at(-1)!;
    const from = blocked.path.steps.at(-2)!.value;
    for (const path of walkable) {
      if (path.variant !== blocked.variant) continue;
      const at = path.path.steps.findIndex((step) => sameValue(step.value, from));
      if (at < 0) continue;
      const steps = [...path.path.steps.slice(0, at + 1), last];
      const key = JSON.stringify([blocked.variant.name, steps.map((s) => s.event)]);
      if (tried.has(key)) continue;
      tried.add(key);
      const candidate: ModelPath = { kind: 'edge', steps, description: steps.slice(1).map((s) => describeEvent(s.event)).join(' → ') };
      const result = await planPath(model, blocked.variant, candidate).catch(() => undefined);
      if (!result || result.blocked) continue;
      if ([...result.transitions].some((id) => !reachable.has(id))) {
        spliced.push(result);
        for (const id of [...result.states, ...result.transitions]) reachable.add(id);
      }
    }
  }
  return spliced;
}

/**
 * A path blocked at its last step (an event a browser cannot cause in the state the path reached, e.g. because the
 * screen is gone) is dropped by the generator as the prefix it would otherwise be: what it covers before that step
 * may be covered by no walkable path. Its walkable part is tried as a path of its own, kept only when it covers
 * something the walkable paths do not (so walks whose paths already cover everything reachable pick as before).
 */
async function walkablePrefixes(model: BrowserModel<AnyStateMachine, unknown>, planned: PlannedPath[]): Promise<PlannedPath[]> {
  const reachable = new Set(planned.filter((p) => !p.blocked).flatMap((p) => [...p.states, ...p.transitions]));
  const prefixes: PlannedPath[] = [];
  const tried = new Set<string>();
  for (const blocked of planned) {
    if (!blocked.blocked || blocked.blocked.at < 2) continue;
    const steps = blocked.path.steps.slice(0, blocked.blocked.at);
    const key = JSON.stringify([blocked.variant.name, steps.map((s) => s.event)]);
    if (tried.has(key)) continue;
    tried.add(key);
    const candidate: ModelPath = { kind: blocked.path.kind, steps, description: steps.slice(1).map((s) => describeEvent(s.event)).join(' → ') };
    const result = await planPath(model, blocked.variant, candidate);
    if (result.blocked || ![...result.states, ...result.transitions].some((id) => !reachable.has(id))) continue;
    prefixes.push(result);
    for (const id of [...result.states, ...result.transitions]) reachable.add(id);
  }
  return prefixes;
}

/** `MODEL_PATH=<machine>:<id>`: the one path to replay, or undefined for a full walk (of this machine or any). */
function replayedPath(machine: string): string | undefined {
  const [name, id] = (process.env.MODEL_PATH ?? '').split(':');
  return name === machine && id ? id : undefined;
}

/** The walk's record for the statechart studio, committed beside the diagrams (docs/statecharts/browser-coverage). */
function writeCoverageSnapshot(coverage: MachineCoverage): void {
  const dir = resolve(process.cwd(), 'docs', 'statecharts', 'browser-coverage');
  mkdirSync(dir, { recursive: true });
  const snapshot = { ...coverage, date: new Date().toISOString().slice(0, 10) };
  writeFileSync(join(dir, `${coverage.machine}.json`), `${JSON.stringify(snapshot, null, 2)}\n`);
}

/** The fewest walkable paths that cover what all walkable paths cover (greedy, shortest first on ties). */
function pickPaths(planned: PlannedPath[]): PlannedPath[] {
  const walkable = planned.filter((p) => !p.blocked).sort((a, b) => a.path.steps.length - b.path.steps.length);
  const covered = new Set<string>();
  const gain = (p: PlannedPath) => [...p.states, ...p.transitions].filter((id) => !covered.has(id)).length;
  const picked: PlannedPath[] = [];
  for (;;) {
    let best: PlannedPath | undefined;
    for (const candidate of walkable) if (gain(candidate) > (best ? gain(best) : 0)) best = candidate;
    if (!best) return picked;
    picked.push(best);
    for (const id of [...best.states, ...best.transitions]) covered.add(id);
  }
}

/**
 * Registers the browser walk of a machine: a test that the map is complete, one test per picked path, and a
 * coverage test that fails when something a browser can reach was not covered. Call inside a spec file.
 */
export function describeBrowserModel<TMachine extends AnyStateMachine, TWorld>(title: string, model: BrowserModel<TMachine, TWorld>): void {
  const anyModel = model as unknown as BrowserModel<AnyStateMachine, unknown>;
  const ids = allIds(model.machine);
  const variants = variantsOf(anyModel);
  const covered = { states: new Set<string>(), transitions: new Set<string>() };
  let plan: { picked: PlannedPath[]; generated: number; reasons: Map<string, string> } | undefined;
  const replay = replayedPath(model.name);
  const planOnce = async () => {
    if (plan) return plan;
    const planned = (
      await Promise.all(variants.map((variant) => Promise.all(generateFor(anyModel, variant).map((path) => planPath(anyModel, variant, path)))))
    ).flat();
    const generated = planned.length;
    planned.push(...(await walkablePrefixes(anyModel, planned)));
    planned.push(...(await splicedEdges(anyModel, planned)));
    const walkable = planned.filter((p) => !p.blocked);
    const picked = replay ? walkable.filter((p) => pathId(p.variant.name, p.path) === replay).slice(0, 1) : pickPaths(planned);
    if (replay && picked.length === 0) {
      const ids = [...new Set(walkable.map((p) => pathId(p.variant.name, p.path)))].join(', ');
      throw new Error(`${model.name} has no walkable path ${replay}; its walkable paths are ${ids}`);
    }
    if (model.runLast) picked.sort((a, b) => Number(model.runLast!(a.path)) - Number(model.runLast!(b.path)));
    const reachable = new Set(picked.flatMap((p) => [...p.states, ...p.transitions]));
    // What only blocked paths reach, with the reason of the step that reaches it first.
    const closest = new Map<string, { reason: string; distance: number }>();
    for (const p of planned) {
      if (!p.blocked) continue;
      for (const [id, distance] of p.blocked.covers) {
        if (!reachable.has(id) && distance < (closest.get(id)?.distance ?? Infinity)) closest.set(id, { reason: p.blocked.reason, distance });
      }
    }
    const reasons = new Map([...closest].map(([id, { reason }]) => [id, reason]));
    plan = { picked, generated, reasons };
    return plan;
  };

  test.describe(title, () => {
    test.describe.configure({ mode: 'serial' });
    // Replaying one path of another machine (a spec file may walk several): nothing of this one runs.
    test.skip(Boolean(process.env.MODEL_PATH) && replay === undefined, 'another machine is replaying one path');

    test('the browser map covers every state and event of the machine', () => {
      expect(mapProblems(anyModel)).toEqual([]);
    });

    // Playwright needs the tests at collection time; the paths are generated then (a few ms in node).
    const generated = variants.reduce((sum, variant) => sum + generateFor(anyModel, variant).length, 0);
    test('walks the picked generated paths', async ({ browser, baseURL }) => {
      const { picked } = await planOnce();
      test.setTimeout(60_000 * Math.max(1, picked.length));
      // The page a passed path left where `open` leaves it (model.reuse), for the next path of the same input.
      let spare: OpenWalk | undefined;
      try {
        for (const [n, { path, variant }] of picked.entries()) {
          const kind = variant.name ? `${path.kind}, ${variant.name}` : path.kind;
          const id = pathId(variant.name, path);
          await test.step(`path ${n + 1}/${picked.length} ${id} (${kind}): ${path.description}`, async () => {
            const reused = spare?.variant === variant ? spare : undefined;
            if (spare && !reused) await spare.close();
            spare = undefined;
            spare = await walkPath(anyModel, variant, path, reused ?? { ...(await variant.open({ browser, baseURL: baseURL!, path })), variant }, covered);
          });
        }
      } finally {
        await spare?.close();
        await model.finish?.();
      }
    });

    test('covers every state and transition a browser can reach', async () => {
      test.skip(replay !== undefined, `replaying path ${replay} alone`);
      const { reasons } = await planOnce();
      const missingStates = ids.states.filter((id) => !covered.states.has(id));
      const missingTransitions = ids.transitions.filter((id) => !covered.transitions.has(id));
      const coverage: MachineCoverage = {
        machine: model.name,
        states: { covered: ids.states.length - missingStates.length, total: ids.states.length, missing: missingStates },
        transitions: { covered: ids.transitions.length - missingTransitions.length, total: ids.transitions.length, missing: missingTransitions },
        paths: { generated, machine: 0, view: plan?.picked.length ?? 0 },
        reasons: Object.fromEntries([...missingStates, ...missingTransitions].map((id) => [id, reasons.get(id) ?? 'not walked'])),
      };
      writeBrowserCoverage(coverage);
      writeCoverageSnapshot(coverage);
      const unexplained = [...missingStates, ...missingTransitions].filter((id) => !reasons.has(id));
      expect(unexplained, 'reachable in the browser but not covered by the walk').toEqual([]);
    });
  });
}

type OpenWalk = WalkContext<unknown> & { close: () => Promise<void>; variant: Variant };

/** Walks one path on the page given; returns the page when the model brought it back for the next path, else closes it. */
async function walkPath(
  model: BrowserModel<AnyStateMachine, unknown>,
  variant: Variant,
  path: ModelPath,
  walk: OpenWalk,
  covered: { states: Set<string>; transitions: Set<string> },
): Promise<OpenWalk | undefined> {
  const { driver, stepTransitions } = trackedDriver(model, variant);
  driver.actor.start();
  let at = 0;
  let kept = false;
  try {
    for (const [index, step] of path.steps.entries()) {
      at = index;
      if (index > 0 && step.event.type.startsWith('xstate.after.')) {
        // The page's own timer: the next state's check waits for it.
        if (model.delay) await model.delay(walk, step.event);
        await driver.perform(step.event);
      } else if (index > 0) {
        const action = model.events[step.event.type];
        if (!action || isUnreachable(action)) throw new Error(`event '${step.event.type}' cannot be performed in the browser`);
        await test.step(`does ${describeEvent(step.event)}`, () => action.perform(walk, step.event));
        await driver.perform(step.event);
      }
      const snapshot = driver.actor.getSnapshot();
      expect(snapshot.value, 'the node actor follows the path').toEqual(step.value);
      for (const leaf of activeLeafKeys(snapshot)) {
        const check = model.states[leaf];
        if (!check || isUnreachable(check)) throw new Error(`state '${leaf}' has no browser check`);
        await test.step(`sees ${leaf}`, () => check(walk));
      }
      // Counted only once the browser showed the states the step leads to.
      for (const node of snapshot._nodes) if (keyOf(node)) covered.states.add(keyOf(node));
      for (const id of stepTransitions.splice(0)) covered.transitions.add(id);
    }
    kept = (await model.reuse?.(walk, driver.actor.getSnapshot())) ?? false;
    return kept ? walk : undefined;
  } catch (cause) {
    throw new Error(pathFailureReport({ machine: model.name, variant: variant.name, path, failedStep: at, cause }), { cause });
  } finally {
    driver.actor.stop();
    if (!kept) await walk.close();
  }
}
