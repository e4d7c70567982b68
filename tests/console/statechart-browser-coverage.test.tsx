// @vitest-environment jsdom
// The statechart studio's browser walk panel: a machine's last recorded walk (states and transitions walked, paths
// played, the date, and what is left to jsdom with the reason), a machine without a record, a record that cannot be
// read, and the committed records themselves (docs/statecharts/browser-coverage) found by machine name.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MACHINE_CATALOGUE } from '../../src/machines/machine-catalogue';
import { BrowserCoveragePanel, browserCoverageLoader, type BrowserCoverageSnapshot } from '../../src/views/statecharts/browser-coverage-panel';

afterEach(cleanup);

const record: BrowserCoverageSnapshot = {
  machine: 'member-role',
  date: '2026-11-29',
  states: { covered: 2, total: 3, missing: ['changing'] },
  transitions: { covered: 3, total: 4, missing: ['changing → idle (xstate.error.actor.changeRole)'] },
  paths: { generated: 6, view: 2 },
  reasons: { changing: 'the request is held', 'changing → idle (xstate.error.actor.changeRole)': 'the request is held' },
};

describe('browser walk panel', () => {
  it("shows the last run's figures and what jsdom alone walks, with why", async () => {
    render(<BrowserCoveragePanel machineId="member-role" files={{ '/docs/statecharts/browser-coverage/member-role.json': async () => record }} />);
    const list = await screen.findByLabelText('Browser coverage');
    expect(within(list).getByText('States walked').nextSibling?.textContent).toBe('2 of 3');
    expect(within(list).getByText('Transitions walked').nextSibling?.textContent).toBe('3 of 4');
    expect(within(list).getByText('Paths played').nextSibling?.textContent).toBe('2 of 6 generated');
    expect(within(list).getByText('2026-11-29').tagName).toBe('TIME');
    expect(screen.getByText('the request is held')).toBeTruthy();
    expect(screen.getByText('changing, changing → idle (xstate.error.actor.changeRole)')).toBeTruthy();
  });

  it('says when no walk of the machine is recorded', () => {
    render(<BrowserCoveragePanel machineId="member-role" files={{}} />);
    expect(screen.getByText(/No browser walk of this machine has been recorded/)).toBeTruthy();
  });

  it('shows a loading state, then an error when the record cannot be read', async () => {
    render(<BrowserCoveragePanel machineId="member-role" files={{ '/x/member-role.json': () => Promise.reject(new Error('Failed to fetch')) }} />);
    expect(screen.getByLabelText('Loading the browser walk')).toBeTruthy();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain("The browser walk's record could not be loaded");
    expect(alert.textContent).toContain('Failed to fetch');
  });

  it('finds the committed record of each walked machine by its catalogue name', async () => {
    const walked = MACHINE_CATALOGUE.map((entry) => entry.id).filter((id) => browserCoverageLoader(id));
    expect(walked.length).toBeGreaterThan(0);
    for (const id of walked) expect(((await browserCoverageLoader(id)!()) as BrowserCoverageSnapshot).machine).toBe(id);
  });
});
