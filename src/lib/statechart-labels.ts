// How a statechart names its parts (events, delays, guards, actions, invoked actors), shared by the Mermaid files of
// `npm run statecharts` and the statechart studio's diagram, so both label a machine the same way.
import type { AnyStateNode } from 'xstate';

function describeDelay(delay: string): string {
  return /^\d+$/.test(delay) ? `${delay} ms` : delay;
}

export function eventLabel(eventType: string, source: AnyStateNode): string {
  if (eventType === '') return 'always';
  if (eventType.startsWith('xstate.done.actor.')) return `done: ${eventType.slice('xstate.done.actor.'.length)}`;
  if (eventType.startsWith('xstate.error.actor.')) return `error: ${eventType.slice('xstate.error.actor.'.length)}`;
  if (eventType.startsWith('xstate.done.state.')) return 'done';
  if (eventType.startsWith('xstate.after.')) {
    // xstate.after.<delay>.<source id>
    const suffix = `.${source.id}`;
    const delay = eventType.slice('xstate.after.'.length, eventType.endsWith(suffix) ? -suffix.length : undefined);
    return `after ${describeDelay(delay)}`;
  }
  return eventType;
}

export function guardLabel(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && 'type' in guard && typeof (guard as { type: unknown }).type === 'string') {
    return (guard as { type: string }).type;
  }
  if (typeof guard === 'function') {
    // Higher-order guards (not/and/or/stateIn) keep their operands on the function object.
    const higher = guard as { check?: unknown; guards?: unknown[]; stateValue?: unknown; name?: string };
    if (Array.isArray(higher.guards)) {
      const parts = higher.guards.map((g) => guardLabel(g) ?? 'inline');
      return `${higher.name === 'not' ? 'not ' : ''}${parts.join(higher.name === 'or' ? ' or ' : ' and ')}`;
    }
    if (higher.stateValue !== undefined) return `in ${JSON.stringify(higher.stateValue)}`;
    return 'inline guard';
  }
  return 'guard';
}

export function actionLabel(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'object' && action !== null && 'type' in action) return String((action as { type: unknown }).type);
  if (typeof action === 'function') {
    const type = (action as { type?: unknown }).type;
    return typeof type === 'string' ? type.replace(/^xstate\./, '') : 'inline action';
  }
  return 'action';
}

export function invokeLabel(invoke: { id: string; src: unknown }): string {
  const src = typeof invoke.src === 'string' ? invoke.src : 'inline actor';
  return src === invoke.id ? src : `${src} (id ${invoke.id})`;
}
