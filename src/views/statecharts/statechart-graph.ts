// A machine definition as an ELK graph (elkjs lays it out; statechart-diagram.tsx draws it): one node per state,
// compound states and parallel regions as nested nodes, an initial-state dot per compound state, one labelled edge
// per transition target (event, guard, delay). Transitions defined on the machine's root ("from any state") start
// from an "any state" box of their own, so a state entered only that way still has its incoming edge; they are
// also listed beside the diagram.
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { keyOf, transitionsOf } from '../../lib/model-paths';
import { eventLabel, guardLabel, invokeLabel } from '../../lib/statechart-labels';

export interface ChartNode {
  id: string;
  /** Dot path of the state ('' for an initial-state dot). */
  stateKey: string;
  label: string;
  kind: 'atomic' | 'final' | 'compound' | 'parallel' | 'initial' | 'any';
  /** Lines drawn under the name: invoked actors. */
  notes: string[];
  width?: number;
  height?: number;
  children?: ChartNode[];
  layoutOptions?: Record<string, string>;
}

export interface ChartEdge {
  id: string;
  sources: string[];
  targets: string[];
  labels?: Array<{ text: string; width: number; height: number }>;
}

export interface ChartGraph {
  id: string;
  layoutOptions: Record<string, string>;
  children: ChartNode[];
  edges: ChartEdge[];
  /** Transitions of the root: '{event} → {target}'. */
  anyState: string[];
}

/** The box root transitions start from, and the root's initial dot. */
export const ANY_STATE_ID = 'any:';
export const ROOT_INITIAL_ID = 'i:';

const CHAR_WIDTH = 7;
const LINE_HEIGHT = 16;
const LABEL_CHAR_WIDTH = 6.2;

export function transitionLabel(transition: AnyTransitionDefinition): string {
  const guard = guardLabel(transition.guard);
  return `${eventLabel(transition.eventType, transition.source)}${guard ? ` [${guard}]` : ''}`;
}

function childStates(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states as Record<string, AnyStateNode>).filter((child) => child.type !== 'history');
}

function nodeId(node: AnyStateNode): string {
  return `s:${keyOf(node)}`;
}

function toChartNode(node: AnyStateNode): ChartNode {
  const notes = (node.invoke as Array<{ id: string; src: unknown }>).map((invoke) => `invoke ${invokeLabel(invoke)}`);
  const children = childStates(node);
  const kind = node.type === 'parallel' ? 'parallel' : children.length ? 'compound' : node.type === 'final' ? 'final' : 'atomic';
  const label = node.key;
  const base = { id: nodeId(node), stateKey: keyOf(node), label, kind, notes } as const;
  if (kind === 'atomic' || kind === 'final') {
    const longest = Math.max(label.length + 2, ...notes.map((n) => n.length));
    return {
      ...base,
      width: Math.max(90, Math.ceil(longest * CHAR_WIDTH) + 24),
      height: 22 + LINE_HEIGHT * (1 + notes.length),
    };
  }
  const initialChildren: ChartNode[] =
    kind === 'compound' && node.initial?.target?.length
      ? [{ id: `i:${keyOf(node)}`, stateKey: '', label: 'initial', kind: 'initial', notes: [], width: 12, height: 12 }]
      : [];
  return {
    ...base,
    children: [...initialChildren, ...children.map(toChartNode)],
    layoutOptions: {
      'elk.padding': `[top=${28 + LINE_HEIGHT * notes.length},left=14,bottom=14,right=14]`,
      // Parallel regions side by side; a compound state's children flow like the whole chart.
      ...(kind === 'parallel' ? { 'elk.direction': 'RIGHT' } : {}),
    },
  };
}

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...childStates(node).flatMap(allNodes)];
}

export function buildChartGraph(machine: AnyStateMachine): ChartGraph {
  const root = machine.root;
  const edges: ChartEdge[] = [];
  const anyState: string[] = [];
  let count = 0;
  const label = (text: string) => ({ text, width: Math.ceil(text.length * LABEL_CHAR_WIDTH) + 6, height: 14 });
  for (const node of allNodes(root)) {
    if (node.type === 'compound' && node.initial?.target?.length && node !== root) {
      for (const target of node.initial.target) {
        edges.push({ id: `e${count++}`, sources: [`i:${keyOf(node)}`], targets: [nodeId(target)] });
      }
    }
    for (const transition of transitionsOf(node)) {
      const text = transitionLabel(transition);
      const targets = transition.target?.length ? transition.target : [];
      if (node === root) anyState.push(`${text} → ${targets.map((t) => keyOf(t) || '(root)').join(', ') || '(stays)'}`);
      // A transition without a target stays in its state: drawn as a loop. One to the root re-enters the machine:
      // drawn to the root's initial dot.
      for (const target of targets.length ? targets : [node]) {
        const to = target === root ? ROOT_INITIAL_ID : nodeId(target);
        edges.push({ id: `e${count++}`, sources: [node === root ? ANY_STATE_ID : nodeId(node)], targets: [to], labels: [label(text)] });
      }
    }
  }
  const rootInitial: ChartNode[] = root.initial?.target?.length
    ? [{ id: ROOT_INITIAL_ID, stateKey: '', label: 'initial', kind: 'initial', notes: [], width: 12, height: 12 }]
    : [];
  if (anyState.length > 0) rootInitial.push({ id: ANY_STATE_ID, stateKey: '', label: 'any state', kind: 'any', notes: [], width: 90, height: 22 + LINE_HEIGHT });
  for (const target of root.initial?.target ?? []) edges.push({ id: `e${count++}`, sources: [ROOT_INITIAL_ID], targets: [nodeId(target)] });
  return {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.json.edgeCoords': 'ROOT',
      'elk.json.shapeCoords': 'ROOT',
      'elk.layered.spacing.nodeNodeBetweenLayers': '44',
      'elk.spacing.nodeNode': '28',
      'elk.spacing.edgeLabel': '4',
      'elk.edgeLabels.inline': 'false',
    },
    children: [...rootInitial, ...childStates(root).map(toChartNode)],
    edges,
    anyState,
  };
}

/** How many states (the root not counted) and transition definitions (guarded alternatives apart) a machine has. */
export function machineCounts(machine: AnyStateMachine): { states: number; transitions: number } {
  const nodes = allNodes(machine.root);
  return { states: nodes.length - 1, transitions: nodes.reduce((sum, node) => sum + transitionsOf(node).length, 0) };
}

/** The first sentence of a header comment, before its list of states: the machine's purpose in one line. */
export function purposeOf(header: string): string {
  const lines = header.split('\n');
  const listStart = lines.findIndex((l) => /^\s*(States?\b|-\s)/.test(l));
  const prose = listStart < 0 ? lines : lines.slice(0, listStart);
  const text = prose.join(' ').replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(text)?.[1] ?? text;
  // References in parentheses (spec sections, notes) belong to the page, not the one line.
  const plain = sentence.replace(/\s*\([^()]*\)/g, '').replace(/\s*\([^()]*$/, '').trim();
  return plain.length > 140 ? `${plain.slice(0, plain.lastIndexOf(' ', 137))}…` : plain;
}
