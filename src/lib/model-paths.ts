// The pure half of model-based testing, shared by the test harness (tests/support/model-based.ts) and the
// statechart studio (/statecharts): walking a machine definition, generating the paths the tests replay (shortest,
// edge and maximal simple paths over xstate/graph), and the doubles a replay runs on (a manual clock for delays,
// controlled promises for invoked actors). Nothing here imports a test runner, so the studio plays exactly the
// paths the tests replay.
import {
  createActor,
  fromPromise,
  type Actor,
  type AnyActorLogic,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type EventFrom,
  type InspectionEvent,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths, type StatePath } from 'xstate/graph';

export interface ModelPath {
  kind: 'shortest' | 'edge' | 'simple';
  description: string;
  steps: Array<{ event: AnyEventObject; value: unknown }>;
}

export type EventType<TMachine extends AnyStateMachine> = EventFrom<TMachine>['type'];

/**
 * Sample events per event type. An event type the machine declares but never handles may have `[]`; one used in a
 * transition needs at least one sample. Invoked actors' outcomes are listed under `xstate.done.actor.<id>` /
 * `xstate.error.actor.<id>` (checked at run time: their ids are not in the machine's type).
 */
export type ModelEvents<TMachine extends AnyStateMachine> = {
  [K in EventType<TMachine>]: ReadonlyArray<Extract<EventFrom<TMachine>, { type: K }>>;
} & {
  [K: `xstate.done.actor.${string}`]: ReadonlyArray<{ type: string; output?: unknown }>;
  [K: `xstate.error.actor.${string}`]: ReadonlyArray<{ type: string; error?: unknown }>;
};

/**
 * What a machine's model test walks it with: sample events per event type (invoked actors' outcomes under
 * `xstate.done.actor.<id>` / `xstate.error.actor.<id>`), and the options that shape path generation. Kept next to
 * the machine (`<flow>.samples.ts`) when the studio plays the same paths as the test.
 */
export interface ModelSamples {
  events: Record<string, ReadonlyArray<AnyEventObject>>;
  input?: unknown;
  /** How a state is told apart from another; defaults to its value plus its whole context as JSON. */
  serializeContext?: (context: never) => unknown;
  maxPaths?: number;
  simplePaths?: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// Definition walking

export function allStateNodes(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states as Record<string, AnyStateNode>).flatMap((child) => [child, ...allStateNodes(child)]);
}

export function keyOf(node: AnyStateNode): string {
  return node.path.join('.');
}

export function isLeaf(node: AnyStateNode): boolean {
  return node.type === 'atomic' || node.type === 'final';
}

export function transitionsOf(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}

/**
 * A stable id for a transition definition: source state, event and position among that event's candidates, so
 * that guarded alternatives count separately. Stable across machine.provide(), which rebuilds the state nodes.
 */
export function transitionId(transition: AnyTransitionDefinition): string | undefined {
  const source = transition.source;
  const candidates: AnyTransitionDefinition[] =
    transition.eventType === '' ? (source.always ?? []) : (source.transitions.get(transition.eventType) ?? []);
  const index = candidates.indexOf(transition);
  if (index < 0) return undefined;
  const event = transition.eventType === '' ? 'always' : transition.eventType;
  const targets = transition.target?.map((t) => keyOf(t) || '(root)').join(',') ?? '(self)';
  return `${keyOf(source) || '(root)'} --${event}[${index}]--> ${targets}`;
}

export function isInternalEvent(type: string): boolean {
  return type.startsWith('xstate.after.') || type.startsWith('xstate.done.state.') || type === '' || type === '*';
}

/** Leaf keys of the active state nodes of a snapshot. */
export function activeLeafKeys(snapshot: { _nodes: AnyStateNode[] }): string[] {
  return snapshot._nodes.filter(isLeaf).map(keyOf);
}

/** Event types the active states handle (for the studio's buttons and path generation). */
export function acceptedEventTypes(snapshot: { _nodes: AnyStateNode[] }): string[] {
  return [...new Set(snapshot._nodes.flatMap((node: AnyStateNode) => [...node.transitions.keys()]))].filter(
    (type: string) => !type.startsWith('xstate.done.state.') && type !== '*',
  );
}

export function describeEvent(event: AnyEventObject): string {
  const { type, ...rest } = event;
  // An outcome without output ({ output: undefined }) reads as the bare event.
  const shown = Object.values(rest).some((value) => value !== undefined);
  const payload = shown ? ` ${safeJson(rest)}` : '';
  return `${type}${payload}`;
}

export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? `Error(${v.message})` : v)) ?? 'undefined';
  } catch {
    return '[unserialisable]';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Path generation

type Adjacency = Record<string, { transitions: Record<string, { event: AnyEventObject; state: AnyMachineSnapshot }> }>;

/** The shortest, edge and maximal simple paths of a machine under the given samples, prefixes dropped. */
export function generateModelPaths(machine: AnyStateMachine, samples: ModelSamples): ModelPath[] {
  const { events } = samples;
  const serializeContext = (samples.serializeContext ?? ((context: unknown) => context)) as (context: unknown) => unknown;
  const traversal = {
    input: samples.input,
    events: (snapshot: AnyMachineSnapshot) =>
      // Only event types the current state handles: the rest would be no-op self-loops in the graph.
      acceptedEventTypes(snapshot).flatMap((type: string) => (type.startsWith('xstate.after.') ? [{ type }] : (events[type] ?? []))),
    serializeState: (snapshot: AnyMachineSnapshot) =>
      safeJson({ value: snapshot.value, status: snapshot.status, context: serializeContext(snapshot.context) }),
  };

  const generated: ModelPath[] = [];
  const toModelPath = (kind: ModelPath['kind'], path: StatePath<AnyMachineSnapshot, AnyEventObject>): ModelPath => {
    const steps = path.steps.map((step) => ({ event: step.event, value: step.state.value }));
    return { kind, steps, description: describeSteps(steps) };
  };
  const shortest = getShortestPaths(machine, traversal as never) as unknown as Array<StatePath<AnyMachineSnapshot, AnyEventObject>>;
  for (const path of shortest) generated.push(toModelPath('shortest', path));
  // Paths to states alone miss every transition into an already-reached state (a loop back, a retry): extend the
  // shortest path to each state by every event it handles, so each edge of the graph is replayed at least once.
  const shortestByState = new Map(shortest.map((path) => [traversal.serializeState(path.state), path]));
  const adjacency = getAdjacencyMap(machine, traversal as never) as unknown as Adjacency;
  for (const [serialized, { transitions }] of Object.entries(adjacency)) {
    const head = shortestByState.get(serialized);
    if (!head) continue;
    for (const { event, state } of Object.values(transitions)) {
      const path = toModelPath('edge', head);
      path.steps.push({ event, value: state.value });
      path.description = describeSteps(path.steps);
      generated.push(path);
    }
  }
  const maxPaths = samples.maxPaths ?? 400;
  if (samples.simplePaths !== false) {
    generated.push(...maximalSimplePaths(machine.id, adjacency, shortest[0], traversal.serializeState, maxPaths));
  }
  const paths = dropPrefixPaths(generated);
  if (paths.length > maxPaths) {
    throw new Error(
      `Model of '${machine.id}': ${paths.length} paths exceed maxPaths ${maxPaths}; narrow serializeContext, ` +
        'turn off simplePaths, or raise maxPaths',
    );
  }
  return paths;
}

function describeSteps(steps: ModelPath['steps']): string {
  return steps.slice(1).map((s) => describeEvent(s.event)).join(' → ') || '(initial state)';
}

/**
 * Simple paths (no state twice) over xstate/graph's adjacency map, keeping only maximal ones: every shorter simple
 * path is a prefix of one of them and would be dropped anyway. xstate's getSimplePaths enumerates every simple path
 * to every state with no bound, which is exponential and hung on a 20-state graph; this walk stops with an error
 * once `limit` maximal paths are found, so a large graph fails fast with advice instead of hanging.
 */
function maximalSimplePaths(
  machineId: string,
  adjacency: Adjacency,
  initial: StatePath<AnyMachineSnapshot, AnyEventObject> | undefined,
  serializeState: (snapshot: AnyMachineSnapshot) => string,
  limit: number,
): ModelPath[] {
  if (!initial) return [];
  const start = serializeState(initial.state);
  const found: ModelPath[] = [];
  const onPath = new Set<string>([start]);
  const steps: ModelPath['steps'] = [{ event: { type: 'xstate.init' }, value: initial.state.value }];
  const walk = (serialized: string) => {
    let extended = false;
    for (const { event, state } of Object.values(adjacency[serialized]?.transitions ?? {})) {
      const next = serializeState(state);
      if (onPath.has(next)) continue;
      extended = true;
      onPath.add(next);
      steps.push({ event, value: state.value });
      walk(next);
      steps.pop();
      onPath.delete(next);
    }
    if (!extended && steps.length > 1) {
      if (found.length >= limit) {
        throw new Error(
          `Model of '${machineId}': more than ${limit} simple paths; narrow serializeContext, turn off simplePaths, ` +
            'or raise maxPaths',
        );
      }
      found.push({ kind: 'simple', steps: [...steps], description: describeSteps(steps) });
    }
  };
  walk(start);
  return found;
}

/** Replaying A→B→C also replays A→B: keep only paths that are not a prefix of another (shortest ones first). */
function dropPrefixPaths(paths: ModelPath[]): ModelPath[] {
  const signature = (path: ModelPath) => path.steps.slice(1).map((s) => safeJson(s.event));
  const seen = new Map<string, ModelPath>();
  for (const path of paths) {
    const key = signature(path).join('\u0000');
    if (!seen.has(key)) seen.set(key, path);
  }
  const unique = [...seen.values()];
  return unique.filter((path) => {
    const own = signature(path);
    return !unique.some((other) => {
      if (other === path) return false;
      const longer = signature(other);
      return longer.length > own.length && own.every((event, i) => event === longer[i]);
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Replay doubles

/** A clock advanced by hand; xstate schedules `after` timers on it (its `clock` actor option). */
export class ManualClock {
  private now = 0;
  private nextId = 0;
  private readonly timers = new Map<number, { due: number; fn: () => void }>();

  setTimeout(fn: (...args: unknown[]) => void, timeout: number): number {
    const id = this.nextId++;
    this.timers.set(id, { due: this.now + timeout, fn });
    return id;
  }

  clearTimeout(id: number): void {
    this.timers.delete(id);
  }

  /** Fires the earliest pending timer; false when none is pending. */
  fireNext(): boolean {
    const next = [...this.timers.entries()].sort(([a, x], [b, y]) => x.due - y.due || a - b)[0];
    if (!next) return false;
    const [id, timer] = next;
    this.timers.delete(id);
    this.now = timer.due;
    timer.fn();
    return true;
  }
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Controlled promise doubles for every actor in the machine's setup(), keyed by the invoked actor's id:
 * `settle(id, 'done', output)` resolves the running double, `settle(id, 'error', error)` rejects it.
 */
export function createActorDoubles(machine: AnyStateMachine, overrides: Record<string, AnyActorLogic> = {}) {
  const running = new Map<string, Pending>();
  const names = Object.keys((machine.implementations.actors ?? {}) as Record<string, unknown>);
  const actors: Record<string, AnyActorLogic> = {};
  for (const name of names) {
    actors[name] =
      overrides[name] ??
      fromPromise(
        ({ self, signal }) =>
          new Promise((resolve, reject) => {
            running.set(self.id, { resolve, reject });
            signal.addEventListener('abort', () => running.delete(self.id));
          }),
      );
  }
  for (const [name, logic] of Object.entries(overrides)) actors[name] ??= logic;
  const settle = (id: string, outcome: 'done' | 'error', value: unknown) => {
    const pending = running.get(id);
    if (!pending) {
      throw new Error(`No running invoked actor '${id}' to ${outcome === 'done' ? 'complete' : 'fail'}`);
    }
    running.delete(id);
    if (outcome === 'done') pending.resolve(value);
    else pending.reject(value);
  };
  return { actors, settle, isRunning: (id: string) => running.has(id) };
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export interface MachineDriver<TMachine extends AnyStateMachine> {
  actor: Actor<TMachine>;
  /**
   * Takes one step of a path: an outcome event settles the running double, a delayed event advances the manual
   * clock until the actor received it, any other event is sent.
   */
  perform: (event: AnyEventObject) => Promise<void>;
  /** Types of the events the root actor received, in order. */
  received: () => string[];
}

export interface DriverOptions {
  input?: unknown;
  /** Actor doubles not to replace with controlled promises. */
  actors?: Record<string, AnyActorLogic>;
  /** Implementations of named actions (the studio replaces effects with harmless recorders). */
  actions?: Record<string, unknown>;
  /** Each transition the root actor takes (for coverage). */
  onTransition?: (transition: AnyTransitionDefinition) => void;
}

/** A fresh actor of the machine on a manual clock, with every invoked actor replaced by a controlled double. */
export function createMachineDriver<TMachine extends AnyStateMachine>(source: TMachine, options: DriverOptions = {}): MachineDriver<TMachine> {
  const doubles = createActorDoubles(source, options.actors ?? {});
  const machine = source.provide({ actors: doubles.actors, ...(options.actions ? { actions: options.actions } : {}) } as never) as TMachine;
  const clock = new ManualClock();
  const receivedTypes: string[] = [];
  let root: Actor<TMachine> | undefined;
  const actor = createActor(machine, {
    clock,
    input: options.input,
    inspect: (inspection: InspectionEvent) => {
      if (!root || inspection.actorRef !== root) return;
      if (inspection.type === '@xstate.microstep' && options.onTransition) {
        for (const transition of (inspection as { _transitions: AnyTransitionDefinition[] })._transitions) options.onTransition(transition);
      }
      if (inspection.type === '@xstate.event') receivedTypes.push(inspection.event.type);
    },
  } as never) as Actor<TMachine>;
  root = actor;

  const perform = async (event: AnyEventObject) => {
    const type = event.type;
    if (type.startsWith('xstate.done.actor.')) {
      doubles.settle(type.slice('xstate.done.actor.'.length), 'done', (event as { output?: unknown }).output);
    } else if (type.startsWith('xstate.error.actor.')) {
      doubles.settle(type.slice('xstate.error.actor.'.length), 'error', (event as { error?: unknown }).error);
    } else if (type.startsWith('xstate.after.')) {
      const before = receivedTypes.length;
      while (!receivedTypes.slice(before).includes(type)) {
        if (!clock.fireNext()) throw new Error(`The delayed event '${type}' was never scheduled`);
        await tick();
      }
    } else {
      actor.send(event as never);
    }
    // Promise doubles settle on the microtask queue; one macrotask lets every chained reaction finish.
    await tick();
    await tick();
  };
  return { actor, perform, received: () => receivedTypes };
}
