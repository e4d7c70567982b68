// A machine definition as an ELK graph (elkjs lays it out; statechart-diagram.tsx draws it): one node per state,
// compound states and parallel regions as nested nodes, an initial-state dot per compound state, one labelled edge
// per transition target (event, guard, delay). Transitions defined on the machine's root ("from any state") have no
// box to start from and are listed beside the diagram instead.
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { keyOf, transitionsOf } from '../../lib/model-paths';
import { eventLabel, guardLabel, invokeLabel } from '../../lib/statechart-labels';

export interface ChartNode {
  id: string;
  /** Dot path of the state ('' for an initial-state dot). */
  stateKey: string;
  label: string;
  kind: 'atomic' | 'final' | 'compound' | 'parallel' | 'initial';
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
      if (node === root) {
        anyState.push(`${text} → ${targets.map((t) => keyOf(t) || '(root)').join(', ') || '(stays)'}`);
        continue;
      }
      // A transition without a target stays in its state: drawn as a loop.
      for (const target of targets.length ? targets : [node]) {
        if (target === root) continue;
        edges.push({ id: `e${count++}`, sources: [nodeId(node)], targets: [nodeId(target)], labels: [label(text)] });
      }
    }
  }
  const rootInitial: ChartNode[] = root.initial?.target?.length
    ? [{ id: 'i:', stateKey: '', label: 'initial', kind: 'initial', notes: [], width: 12, height: 12 }]
    : [];
  for (const target of root.initial?.target ?? []) edges.push({ id: `e${count++}`, sources: ['i:'], targets: [nodeId(target)] });
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
