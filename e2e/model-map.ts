// The completeness check of a browser walk's map (e2e/model-walk.ts), kept free of Playwright so a unit test
// (tests/unit/model-map.test.ts) can show that it fails on a missing or stray entry and passes on a complete map.
import type { AnyStateMachine } from 'xstate';
import { allStateNodes, isLeaf, keyOf, transitionsOf } from '../src/lib/model-paths';

export interface Unreachable {
  unreachable: string;
}

/** What the check needs of a browser model: the machine and the keys of its two maps. */
export interface BrowserMap {
  machine: AnyStateMachine;
  states: Record<string, unknown>;
  events: Record<string, unknown>;
}

/** The map against the machine: every leaf state and every event type the machine handles has an entry. */
export function mapProblems(model: BrowserMap): string[] {
  const nodes = allStateNodes(model.machine.root);
  const leaves = nodes.filter(isLeaf).map(keyOf);
  const eventTypes = new Set(
    [model.machine.root, ...nodes]
      .flatMap(transitionsOf)
      .map((t) => t.eventType)
      .filter((type) => type !== '' && !type.startsWith('xstate.after.') && !type.startsWith('xstate.done.state.') && type !== '*'),
  );
  return [
    ...leaves.filter((key) => !(key in model.states)).map((key) => `state '${key}' has no entry in the browser map`),
    ...Object.keys(model.states).filter((key) => !leaves.includes(key)).map((key) => `the browser map names state '${key}', which the machine does not have`),
    ...[...eventTypes].filter((type) => !(type in model.events)).map((type) => `event '${type}' has no entry in the browser map`),
    ...Object.keys(model.events).filter((type) => !eventTypes.has(type)).map((type) => `the browser map names event '${type}', which the machine does not handle`),
  ];
}

