// Stepping a machine in the studio: a fresh actor whose side effects are harmless doubles. Invoked actors are
// controlled promises (an outcome event settles them), delays run on a manual clock (an `after` event advances it),
// and every named action that is not one of xstate's own (assign, raise, sendTo, …) only writes a line to the
// effects log instead of calling the browser, the router or the identity server.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import type { LoadedMachine } from '../../machines/machine-catalogue';
import {
  acceptedEventTypes,
  createMachineDriver,
  describeEvent,
  generateModelPaths,
  safeJson,
  type MachineDriver,
  type ModelPath,
} from '../../lib/model-paths';

export interface StudioStep {
  event: AnyEventObject;
  value: unknown;
}

export interface PathPlayback {
  path: ModelPath;
  /** Index of the last step taken (0: the initial state). */
  index: number;
  /** Set when the actor did not reach the state the path expects. */
  mismatch: string | null;
}

function isBuiltInAction(implementation: unknown): boolean {
  const type = (implementation as { type?: unknown } | null)?.type;
  return typeof implementation === 'function' && typeof type === 'string' && type.startsWith('xstate.');
}

/** Named actions replaced by recorders, except xstate's own (they only change the actor: context, raised events). */
export function harmlessActions(machine: AnyStateMachine, record: (line: string) => void): Record<string, unknown> {
  const actions = (machine.implementations.actions ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(actions)
      .filter(([, implementation]) => !isBuiltInAction(implementation))
      .map(([name]) => [name, (_: unknown, params: unknown) => record(params === undefined ? name : `${name} ${safeJson(params)}`)]),
  );
}

/** The samples of an event type: the model test's when the machine shares them, else the bare event. */
export function samplesFor(loaded: LoadedMachine, type: string): AnyEventObject[] {
  const shared = loaded.samples?.events[type];
  return shared && shared.length ? [...shared] : [{ type }];
}

export function useStudioSession(loaded: LoadedMachine) {
  const { machine } = loaded;
  const [snapshot, setSnapshot] = useState<AnyMachineSnapshot | null>(null);
  const [effects, setEffects] = useState<string[]>([]);
  const [history, setHistory] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [playback, setPlayback] = useState<PathPlayback | null>(null);
  const [busy, setBusy] = useState(false);
  const driver = useRef<MachineDriver<AnyStateMachine> | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    setEffects([]);
    setHistory([]);
    setError(null);
    let current: MachineDriver<AnyStateMachine>;
    try {
      current = createMachineDriver(machine, {
        input: loaded.samples?.input,
        actions: harmlessActions(machine, (line) => setEffects((lines) => [...lines, line])),
      });
      current.actor.subscribe({
        next: (next) => setSnapshot(next as AnyMachineSnapshot),
        error: (cause) => setError(cause instanceof Error ? cause.message : String(cause)),
      });
      current.actor.start();
      setSnapshot(current.actor.getSnapshot() as AnyMachineSnapshot);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
      return undefined;
    }
    driver.current = current;
    return () => {
      current.actor.stop();
    };
  }, [machine, loaded.samples, generation]);

  const reset = useCallback(() => {
    setPlayback(null);
    setGeneration((n) => n + 1);
  }, []);

  const perform = useCallback(async (event: AnyEventObject) => {
    if (!driver.current) return;
    setBusy(true);
    setError(null);
    try {
      await driver.current.perform(event);
      setHistory((lines) => [...lines, describeEvent(event)]);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setBusy(false);
    }
  }, []);

  const paths = useMemo((): { paths: ModelPath[]; error: string | null } => {
    if (!loaded.samples) return { paths: [], error: null };
    try {
      return { paths: generateModelPaths(machine, loaded.samples), error: null };
    } catch (cause) {
      return { paths: [], error: cause instanceof Error ? cause.message : String(cause) };
    }
  }, [machine, loaded.samples]);

  const startPath = useCallback((path: ModelPath) => {
    setGeneration((n) => n + 1);
    setPlayback({ path, index: 0, mismatch: null });
  }, []);

  const nextPathStep = useCallback(async () => {
    if (!playback || !driver.current) return;
    const index = playback.index + 1;
    const step = playback.path.steps[index];
    if (!step) return;
    await perform(step.event);
    const actual = safeJson(driver.current.actor.getSnapshot().value);
    const expected = safeJson(step.value);
    setPlayback({ ...playback, index, mismatch: actual === expected ? null : `expected ${expected}, the actor is in ${actual}` });
  }, [playback, perform]);

  const accepted = snapshot && snapshot.status === 'active' ? acceptedEventTypes(snapshot) : [];
  return { snapshot, effects, history, error, busy, accepted, perform, reset, paths, playback, startPath, nextPathStep };
}
