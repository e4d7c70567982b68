// Development builds only: the actors running on the current page, for the inspect panel (src/views/statecharts/
// inspect-panel.tsx). Every useActorRef of the console registers its actor here in development: vite.config.ts
// points the views' '@xstate/react' at inspected-react.ts while serving, so no view names this module and the
// production build contains none of it.
import type { AnyActorRef } from 'xstate';

export interface InspectedActor {
  /** Unique per registration, in the order the actors started. */
  key: number;
  /** The machine's id (or "actor" for logic without one). */
  name: string;
  /** The actor's session id (xstate's own). */
  sessionId: string;
  status: string;
  /** The state value (a string, or an object for nested and parallel states). */
  value: unknown;
  context: unknown;
}

interface Entry {
  key: number;
  name: string;
  actor: AnyActorRef;
}

const entries = new Map<number, Entry>();
const listeners = new Set<() => void>();
let nextKey = 1;
let view: InspectedActor[] = [];

function describe({ key, name, actor }: Entry): InspectedActor {
  const snapshot = actor.getSnapshot() as { status?: string; value?: unknown; context?: unknown };
  return { key, name, sessionId: actor.sessionId, status: snapshot.status ?? 'active', value: snapshot.value, context: snapshot.context };
}

function changed(): void {
  view = [...entries.values()].map(describe);
  for (const listener of listeners) listener();
}

/** Registers a running actor; its snapshots are followed until the returned function is called. */
export function registerActor(name: string, actor: AnyActorRef): () => void {
  const key = nextKey++;
  entries.set(key, { key, name, actor });
  const subscription = actor.subscribe({ next: changed, error: changed, complete: changed });
  changed();
  return () => {
    subscription.unsubscribe();
    entries.delete(key);
    changed();
  };
}

/** The registered actors now (a new array after each change, for useSyncExternalStore). */
export function inspectedActors(): InspectedActor[] {
  return view;
}

export function subscribeToInspection(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
