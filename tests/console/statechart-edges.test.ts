// Every chart of the statechart studio draws every transition of its machine: for each machine of the catalogue, the
// labelled edges of its chart are exactly its transitions (one per target; a targetless one as a loop on its state;
// a root one from the "any state" box), read from xstate's own state nodes and not from the chart builder.
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { describe, expect, it } from 'vitest';
import { keyOf, transitionsOf } from '../../src/lib/model-paths';
import { MACHINE_CATALOGUE } from '../../src/machines/machine-catalogue';
import { ANY_STATE_ID, ROOT_INITIAL_ID, buildChartGraph, machineCounts, purposeOf, transitionLabel } from '../../src/views/statecharts/statechart-graph';

const states = (node: AnyStateNode): AnyStateNode[] => [node, ...Object.values(node.states as Record<string, AnyStateNode>).filter((c) => c.type !== 'history').flatMap(states)];

/** '<from> --<label>--> <to>' for each transition target of the machine, as xstate defines them. */
function machineEdges(machine: AnyStateMachine): string[] {
  const root = machine.root;
  const id = (node: AnyStateNode) => (node === root ? ROOT_INITIAL_ID : `s:${keyOf(node)}`);
  return states(root).flatMap((node) =>
    transitionsOf(node).flatMap((transition) => {
      const from = node === root ? ANY_STATE_ID : id(node);
      const targets = transition.target?.length ? transition.target : [node];
      return targets.map((target) => `${from} --${transitionLabel(transition)}--> ${id(target)}`);
    }),
  );
}

describe('statechart studio charts', () => {
  for (const entry of MACHINE_CATALOGUE) {
    it(`${entry.id}: the chart's edges are the machine's transitions`, async () => {
      const { machine } = await entry.load();
      const graph = buildChartGraph(machine);
      const drawn = graph.edges.filter((e) => e.labels?.length).map((e) => `${e.sources[0]} --${e.labels![0].text}--> ${e.targets[0]}`);
      expect(drawn.sort()).toEqual(machineEdges(machine).sort());
      // Every edge ends at a box or dot that the chart has.
      const ids = new Set<string>();
      const walk = (nodes: typeof graph.children) => nodes.forEach((n) => (ids.add(n.id), walk(n.children ?? [])));
      walk(graph.children);
      for (const edge of graph.edges) expect([...edge.sources, ...edge.targets].filter((x) => !ids.has(x)), entry.id).toEqual([]);
    });
  }

  it('the log search chart draws logs.run into running from any state', async () => {
    const entry = MACHINE_CATALOGUE.find((e) => e.id === 'qryn-log-search')!;
    const graph = buildChartGraph((await entry.load()).machine);
    expect(graph.edges.some((e) => e.sources[0] === ANY_STATE_ID && e.targets[0] === 's:running' && e.labels?.[0].text.startsWith('logs.run'))).toBe(true);
  });

  it('the index line: the header’s first sentence before its list of states, and the machine’s size', async () => {
    expect(purposeOf('The run of Loggen: save, then\nstream progress. More prose.\nStates:\n- idle  nothing')).toBe('The run of Loggen: save, then stream progress.');
    expect(purposeOf('No sentence end\n- idle  nothing')).toBe('No sentence end');
    const { machine } = await MACHINE_CATALOGUE.find((e) => e.id === 'qryn-log-search')!.load();
    // idle, running, results, error; logs.run ×2 on the root, onDone and onError ×2 in running.
    expect(machineCounts(machine)).toEqual({ states: 4, transitions: 5 });
  });
});
