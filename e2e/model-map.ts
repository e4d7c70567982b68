// The completeness check of a browser walk's map (e2e/model-walk.ts), a path's id and what a failed path prints,
// kept free of Playwright so unit tests (tests/unit/model-map.test.ts) can run them without a browser.
import type { AnyStateMachine } from 'xstate';
import { allStateNodes, describeEvent, isLeaf, keyOf, safeJson, transitionsOf, type ModelPath } from '../src/lib/model-paths';

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


/**
 * Machines of the catalogue without a browser walk yet, each with why: the coverage table prints the reason in the
 * browser columns, and `npm test` fails for a catalogue machine that has neither a walk nor an entry here.
 */
const NOT_YET = 'no generated walk yet; hand-written browser specs cover its screen';
const EXPLORER = 'no generated walk yet; hand-written browser specs (e2e/qryn-explorer*.spec.ts) cover its screens';
export const WALKS_NOT_WRITTEN: Record<string, string> = {
  // Walked once on a fresh Acme project with qryn: the real server answered the confirm with 409 "already scheduled
  // for cancellation", so the walk needs a subscription that stays active (a card on file, as e2e/stack.spec.ts sets).
  'cancel-subscription': `${NOT_YET}; a fresh project's qryn subscription answered the confirm with 409 (already scheduled for cancellation), so its walk needs a subscription kept active by a card on file`,
  'card-setup': NOT_YET,
  'grafana-datasource': NOT_YET,
  'grafana-users': NOT_YET,
  'invitation-accept': NOT_YET,
  'member-removal': NOT_YET,
  'password-change': NOT_YET,
  'qryn-explorer': EXPLORER,
  'qryn-metric-query': EXPLORER,
  'qryn-log-search': EXPLORER,
  'qryn-log-tail': EXPLORER,
  'qryn-trace-search': EXPLORER,
  'qryn-trace-view': EXPLORER,
  'qryn-trace-metrics': EXPLORER,
};

/** A path's id: short, and the same while the generator gives the same events from the same input. */
export function pathId(variant: string, path: ModelPath): string {
  const text = JSON.stringify([variant, path.steps.map((step) => step.event)]);
  // FNV-1a: stable across runs and machines, unlike an index into the generated list.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/** The one-line command that replays a single path of a machine's walk, headed where a display exists, with a trace. */
export function replayCommand(machine: string, id: string): string {
  return `npm run test:path -- ${machine} ${id}`;
}

/** A path in words: where it starts, then each event and the state it leads to. */
export function stepsInWords(path: ModelPath): string[] {
  return path.steps.map((step, index) =>
    index === 0 ? `1. starts in ${safeJson(step.value)}` : `${index + 1}. ${describeEvent(step.event)} → ${safeJson(step.value)}`,
  );
}

/** What a failed path prints: the replay command on one line, then the path step by step, then the failure. */
export function pathFailureReport(args: { machine: string; variant: string; path: ModelPath; failedStep: number; cause: unknown }): string {
  const id = pathId(args.variant, args.path);
  const message = args.cause instanceof Error ? args.cause.message : String(args.cause);
  return [
    // One line with the command: CI's closing summary keeps only the first line of an error.
    `path ${id} of ${args.machine} failed at step ${args.failedStep + 1}${args.variant ? ` (input: ${args.variant})` : ''}; replay: ${replayCommand(args.machine, id)}`,
    ...stepsInWords(args.path).map((line, index) => `  ${index === args.failedStep ? '✗' : ' '} ${line}`),
    message,
  ].join('\n');
}
