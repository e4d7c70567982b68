// The browser level of the coverage table `npm test` prints (tests/support/model-coverage.ts --check): every machine
// of the catalogue is listed; one without a walk, or whose walk leaves a state or transition out without a reason,
// fails the run unless the reason its walk is not written is given.
import { describe, expect, it } from 'vitest';
import { browserCoverageProblems, formatCoverageTable, type MachineCoverage } from '../support/model-coverage';

const walked = (machine: string, missing: string[] = [], reasons: Record<string, string> = {}): MachineCoverage => ({
  machine,
  states: { covered: 3 - missing.length, total: 3, missing },
  transitions: { covered: 4, total: 4, missing: [] },
  paths: { generated: 5, machine: 0, view: 2 },
  reasons,
});

describe('browser coverage check', () => {
  const expected = { machines: ['member-role', 'grafana-users', 'qryn-log-tail'], notWritten: { 'qryn-log-tail': 'its views are changing' } };

  it('passes complete walks and machines whose missing walk has a reason', () => {
    expect(browserCoverageProblems([walked('member-role'), walked('grafana-users', ['failed'], { failed: 'a network failure the page cannot cause' })], expected)).toEqual([]);
  });

  it('fails a machine without a walk and without a reason', () => {
    expect(browserCoverageProblems([walked('member-role')], expected)).toEqual([
      'grafana-users: no browser walk recorded coverage (it failed, did not run, or is not written and e2e/model-map.ts gives no reason)',
    ]);
  });

  it('fails a walk that leaves a state out without a reason', () => {
    expect(browserCoverageProblems([walked('member-role', ['changing'], { changing: 'not walked' }), walked('grafana-users')], expected)).toEqual([
      'member-role: changing is left out of the browser walk without a reason',
    ]);
  });

  it('lists every machine in the table, with the reason of a walk not written', () => {
    const table = formatCoverageTable([], [walked('member-role')], expected);
    expect(table).toMatch(/\| grafana-users +\| - .*\| missing +\| missing /);
    expect(table).toMatch(/\| qryn-log-tail +\| - .*\| not written +\| not written /);
    expect(table).toContain('No browser walk yet (and why):\n  qryn-log-tail: its views are changing');
    expect(table).toMatch(/\| member-role +\| - .*\| 3\/3 100% +\| 4\/4 100% +\| 2 of 5 /);
  });
});
