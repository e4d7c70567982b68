// The committed diagrams in docs/statecharts must match what the machines generate today.
import { describe, expect, it } from 'vitest';
import { readCommittedStatecharts, renderMermaid, renderStatechartFiles } from '../../scripts/statecharts';
import { sessionMachine } from './fixtures/session.machine';

describe('statecharts', () => {
  it('renders nested states, final states, invokes, guards and delays from the definition', () => {
    const diagram = renderMermaid(sessionMachine);
    expect(diagram.split('\n')[0]).toBe('stateDiagram-v2');
    expect(diagram).toContain('[*] --> editing');
    expect(diagram).toContain('state editing {');
    expect(diagram).toContain('[*] --> editing__pristine');
    expect(diagram).toContain('submitting : invoke signIn');
    expect(diagram).toContain('editing --> submitting : form.submit [hasEmail] / assign');
    expect(diagram).toContain('submitting --> signedIn : done signIn [isVerified] / assign');
    expect(diagram).toContain('failed --> editing : after 3000 ms');
    expect(diagram).toContain('signedIn__active --> signedIn__warning : after idleTimeout');
    expect(diagram).toContain('signedIn__warning --> signedOut : after 10000 ms');
    expect(diagram).toContain('signedOut --> [*]');
    expect(diagram).not.toMatch(/entry \/ raise|exit \/ cancel/);
  });

  it('committed diagrams are up to date (run npm run statecharts)', async () => {
    const expected = await renderStatechartFiles();
    const committed = readCommittedStatecharts();
    const stale = [...expected.keys()].filter((path) => committed.get(path) !== expected.get(path));
    const orphaned = [...committed.keys()].filter((path) => !expected.has(path));
    const problems = [
      ...stale.map((path) => `${path} is missing or out of date`),
      ...orphaned.map((path) => `${path} has no machine any more`),
    ];
    expect(problems, `Statecharts differ from the machines: run npm run statecharts\n${problems.join('\n')}`).toEqual([]);
  });
});
