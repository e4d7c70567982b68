// The machine catalogue is the studio's list of machines: every *.machine.ts file has one entry, each entry loads
// its machine (the one the file exports) with a header comment, and shared samples generate the paths the studio
// plays. The studio's harmless doubles record effects instead of running them.
import { describe, expect, it } from 'vitest';
import { findMachineFiles, collectStatecharts } from '../../scripts/statecharts';
import { generateModelPaths } from '../../src/lib/model-paths';
import { MACHINE_CATALOGUE, headerComment } from '../../src/machines/machine-catalogue';
import { harmlessActions } from '../../src/views/statecharts/use-studio-session';
import { buildChartGraph } from '../../src/views/statecharts/statechart-graph';
import { createOrganizationMachine } from '../../src/machines/create-organization/create-organization.machine';

describe('machine catalogue', () => {
  it('lists every machine file once, under the file’s base name', () => {
    const ids = findMachineFiles().map((file) => file.split('/').at(-1)!.replace(/\.machine\.ts$/, ''));
    expect(MACHINE_CATALOGUE.map((entry) => entry.id).sort()).toEqual(ids.sort());
    expect(new Set(MACHINE_CATALOGUE.map((entry) => entry.id)).size).toBe(MACHINE_CATALOGUE.length);
  });

  it('loads each machine that its file exports, with the file’s header comment', async () => {
    const charts = await collectStatecharts();
    for (const entry of MACHINE_CATALOGUE) {
      const loaded = await entry.load();
      const chart = charts.find((candidate) => candidate.name === entry.id);
      expect(chart, entry.id).toBeDefined();
      expect(loaded.machine.id, entry.id).toBe(chart!.machine.id);
      const header = headerComment(loaded.source);
      expect(header.length, entry.id).toBeGreaterThan(40);
      expect(header, entry.id).toMatch(/States?:|state/i);
      if (loaded.samples) expect(generateModelPaths(loaded.machine, loaded.samples).length, entry.id).toBeGreaterThan(0);
    }
  });

  it('reads block and line header comments', () => {
    expect(headerComment('/**\n * One.\n * Two.\n */\nimport x;')).toBe('One.\nTwo.');
    expect(headerComment('// One.\n// Two.\nimport x;')).toBe('One.\nTwo.');
  });
});

describe('studio doubles and graph', () => {
  it('replaces effect actions with recorders and keeps xstate’s own actions', () => {
    const lines: string[] = [];
    const actions = harmlessActions(createOrganizationMachine, (line) => lines.push(line));
    expect(Object.keys(actions).sort()).toEqual(['clearDraft', 'notifyCreated', 'openOrganization', 'saveDraft']);
    (actions.openOrganization as (a: unknown, p: unknown) => void)({}, { organizationId: 9 });
    expect(lines).toEqual(['openOrganization {"organizationId":9}']);
  });

  it('draws every state and every transition of a machine with a target', () => {
    const graph = buildChartGraph(createOrganizationMachine);
    const flat = (nodes: typeof graph.children): typeof graph.children => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
    const keys = flat(graph.children).filter((n) => n.kind !== 'initial').map((n) => n.stateKey);
    expect(keys).toContain('naming.checking');
    expect(keys).toContain('naming.resumable');
    // 19 states: the header comment's list, compound states (naming) counted as well as their children.
    expect(keys).toHaveLength(19);
    const labels = graph.edges.flatMap((e) => e.labels?.map((l) => l.text) ?? []);
    expect(labels).toContain('after createDelay');
    expect(labels).toContain('done: loadStart [ownsOrganization]');
    expect(labels).toContain('name.change [isValidName]');
  });
});
