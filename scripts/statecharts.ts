// `npm run statecharts`: one Mermaid stateDiagram-v2 per machine in src/machines/**/*.machine.ts, written to
// docs/statecharts/<name>.md, plus docs/statecharts/README.md as an index. Everything is read from the machine
// definitions (states, nesting, parallel regions, transitions with events and guards, invokes, delays, entry/exit
// actions), so a diagram cannot drift from the code; tests/harness/statecharts.test.ts fails when a committed
// diagram is out of date.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { actionLabel, eventLabel, guardLabel, invokeLabel } from '../src/lib/statechart-labels';

export { eventLabel };

export const repoRoot = resolve(process.cwd());
export const machinesDir = join(repoRoot, 'src', 'machines');
export const statechartsDir = join(repoRoot, 'docs', 'statecharts');

export function findMachineFiles(dir = machinesDir): string[] {
  let entries: Array<{ name: string; isDirectory(): boolean }>;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return findMachineFiles(path);
      return entry.name.endsWith('.machine.ts') ? [path] : [];
    })
    .sort();
}

function isMachine(value: unknown): value is AnyStateMachine {
  return (
    typeof value === 'object' &&
    value !== null &&
    'root' in value &&
    'getStateNodeById' in value &&
    typeof (value as { transition?: unknown }).transition === 'function'
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Labels

function nodeId(node: AnyStateNode): string {
  // Mermaid ids allow letters, digits and underscores; the path keeps nested names unique.
  return node.path.length === 0 ? 'root' : node.path.map((part) => part.replace(/[^A-Za-z0-9]/g, '_')).join('__');
}

function mermaidText(text: string): string {
  // Colons end a Mermaid label and #/; start entities or statements.
  return text.replace(/[:;#]/g, ' ').replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------------------------
// Diagram

interface Edge {
  from: AnyStateNode;
  to: ReadonlyArray<AnyStateNode>;
  label: string;
  transition: AnyTransitionDefinition;
  index: number;
}

function allTransitions(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}

function edgesOf(node: AnyStateNode): Edge[] {
  return allTransitions(node).map((transition, index) => {
    const guard = guardLabel(transition.guard);
    const label = `${eventLabel(transition.eventType, node)}${guard ? ` [${guard}]` : ''}`;
    return { from: node, to: transition.target ?? [], label, transition, index };
  });
}

function childStates(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states as Record<string, AnyStateNode>).filter((child) => child.type !== 'history');
}

function renderNode(node: AnyStateNode, indent: string, lines: string[]): void {
  const id = nodeId(node);
  const children = childStates(node);
  // A label only where the Mermaid id differs from the state's name (nested states carry their parent's path).
  if (id !== node.key) lines.push(`${indent}state "${node.key}" as ${id}`);
  for (const invoke of node.invoke as Array<{ id: string; src: unknown }>) {
    lines.push(`${indent}${id} : invoke ${mermaidText(invokeLabel(invoke))}`);
  }
  // xstate implements `after` with a raise on entry and a cancel on exit; the delay edges already show them.
  const scheduling = node.after.length ? ['raise', 'cancel'] : [];
  const entry = node.entry.map(actionLabel).filter((name: string) => !scheduling.includes(name));
  const exit = node.exit.map(actionLabel).filter((name: string) => !scheduling.includes(name));
  if (entry.length) lines.push(`${indent}${id} : entry / ${mermaidText(entry.join(', '))}`);
  if (exit.length) lines.push(`${indent}${id} : exit / ${mermaidText(exit.join(', '))}`);
  if (children.length === 0) return;
  lines.push(`${indent}state ${id} {`);
  renderChildren(node, `${indent}  `, lines);
  lines.push(`${indent}}`);
}

function renderChildren(node: AnyStateNode, indent: string, lines: string[]): void {
  const children = childStates(node);
  if (node.type === 'parallel') {
    children.forEach((child, i) => {
      if (i > 0) lines.push(`${indent}--`);
      renderNode(child, indent, lines);
    });
    return;
  }
  for (const target of node.initial?.target ?? []) lines.push(`${indent}[*] --> ${nodeId(target)}`);
  for (const child of children) renderNode(child, indent, lines);
  for (const child of children) {
    if (child.type === 'final') lines.push(`${indent}${nodeId(child)} --> [*]`);
  }
}

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...childStates(node).flatMap(allNodes)];
}

export function renderMermaid(machine: AnyStateMachine): string {
  const lines: string[] = ['stateDiagram-v2'];
  const root = machine.root;
  renderChildren(root, '  ', lines);
  const rootEdges = edgesOf(root);
  if (rootEdges.length) lines.push('  state "(any state)" as root');
  for (const node of allNodes(root)) {
    for (const edge of edgesOf(node)) {
      const from = nodeId(edge.from);
      const targets = edge.to.length ? edge.to : [edge.from];
      const stays = edge.to.length ? '' : ' (no state change)';
      const actions = edge.transition.actions.length
        ? ` / ${edge.transition.actions.map(actionLabel).join(', ')}`
        : '';
      for (const target of targets) {
        lines.push(`  ${from} --> ${nodeId(target)} : ${mermaidText(`${edge.label}${stays}${actions}`)}`);
      }
    }
  }
  return lines.join('\n');
}

function transitionTable(machine: AnyStateMachine): string {
  const rows = allNodes(machine.root).flatMap((node) =>
    edgesOf(node).map((edge) => {
      const source = node.path.join('.') || '(any state)';
      const target = edge.to.length ? edge.to.map((t) => t.path.join('.') || '(root)').join(', ') : '(stays)';
      const actions = edge.transition.actions.map(actionLabel).join(', ') || '';
      return `| ${source} | ${edge.label.replace(/\|/g, '\\|')} | ${target} | ${actions} |`;
    }),
  );
  return ['| from | event [guard] | to | actions |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

export interface Statechart {
  name: string;
  source: string;
  exportName: string;
  machine: AnyStateMachine;
  markdown: string;
}

export function renderStatechartMarkdown(name: string, source: string, exportName: string, machine: AnyStateMachine): string {
  const states = allNodes(machine.root).length - 1;
  const transitions = allNodes(machine.root).flatMap(edgesOf).length;
  return [
    `# ${name} (\`${exportName}\`)`,
    '',
    `<!-- Generated by \`npm run statecharts\` from ${source}. Do not edit: change the machine and regenerate. -->`,
    '',
    `Source: [${source}](../../${source}) — machine id \`${machine.id}\`, ${states} states, ${transitions} transitions.`,
    '',
    '```mermaid',
    renderMermaid(machine),
    '```',
    '',
    '## Transitions',
    '',
    transitionTable(machine),
    '',
  ].join('\n');
}

export async function collectStatecharts(files = findMachineFiles()): Promise<Statechart[]> {
  const charts: Statechart[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const machines = Object.entries(module).filter(([, value]) => isMachine(value)) as Array<[string, AnyStateMachine]>;
    const base = basename(file, '.machine.ts');
    const source = relative(repoRoot, file).split('\\').join('/');
    for (const [exportName, machine] of machines) {
      const name = machines.length === 1 ? base : `${base}-${exportName}`;
      charts.push({ name, source, exportName, machine, markdown: renderStatechartMarkdown(name, source, exportName, machine) });
    }
  }
  return charts.sort((a, b) => a.name.localeCompare(b.name));
}

export function renderIndex(charts: Statechart[]): string {
  const rows = charts.map((chart) => {
    const states = allNodes(chart.machine.root).length - 1;
    const transitions = allNodes(chart.machine.root).flatMap(edgesOf).length;
    return `| [${chart.name}](${chart.name}.md) | \`${chart.exportName}\` | ${chart.source} | ${states} | ${transitions} |`;
  });
  return [
    '# Statecharts',
    '',
    '<!-- Generated by `npm run statecharts`. Do not edit. -->',
    '',
    'One diagram per XState machine in `src/machines/**/*.machine.ts`, generated from the machine definitions.',
    'A test fails when a diagram here is out of date; run `npm run statecharts` after changing a machine.',
    '',
    '| machine | export | source | states | transitions |',
    '| --- | --- | --- | --- | --- |',
    ...(rows.length ? rows : ['| (no machines yet) | | | | |']),
    '',
  ].join('\n');
}

/** The files `npm run statecharts` writes, by path relative to the repository root. */
export async function renderStatechartFiles(): Promise<Map<string, string>> {
  const charts = await collectStatecharts();
  const files = new Map<string, string>();
  for (const chart of charts) files.set(`docs/statecharts/${chart.name}.md`, chart.markdown);
  files.set('docs/statecharts/README.md', renderIndex(charts));
  return files;
}

export function readCommittedStatecharts(): Map<string, string> {
  const files = new Map<string, string>();
  let names: string[] = [];
  try {
    names = readdirSync(statechartsDir).filter((name) => name.endsWith('.md'));
  } catch {
    return files;
  }
  for (const name of names) files.set(`docs/statecharts/${name}`, readFileSync(join(statechartsDir, name), 'utf8'));
  return files;
}

async function main(): Promise<void> {
  const files = await renderStatechartFiles();
  // Diagrams of machines that no longer exist go away too.
  for (const path of readCommittedStatecharts().keys()) {
    if (!files.has(path)) rmSync(join(repoRoot, path));
  }
  mkdirSync(statechartsDir, { recursive: true });
  for (const [path, content] of files) writeFileSync(join(repoRoot, path), content);
  process.stdout.write(`Wrote ${files.size} file(s) to docs/statecharts/\n`);
}

if (process.argv[1]?.endsWith('statecharts.ts') && !process.env.VITEST) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
