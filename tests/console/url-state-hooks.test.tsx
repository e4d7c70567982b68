// @vitest-environment jsdom
// The React side of the one query-parameter mechanism (src/views/url-state/use-url-state.ts): each hook reads the
// address on load (a reload, a shared link) and writes it on click, leaving the other parameters alone.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter, useLocation } from 'react-router';
import { useUrlActionFlag, useUrlToggle, useUrlValue } from '../../src/views/url-state/use-url-state';

function Address() {
  const location = useLocation();
  return <output aria-label="address">{location.search}</output>;
}

function ValueProbe() {
  const [edit, setEdit] = useUrlValue('edit');
  return (
    <>
      <p>edit: {edit ?? 'none'}</p>
      <button onClick={() => setEdit('tax-id')}>Add tax id</button>
      <button onClick={() => setEdit(null)}>Close</button>
    </>
  );
}

function FlagProbe() {
  const [open, setOpen] = useUrlActionFlag('create-token');
  return (
    <>
      <p>dialog: {open ? 'open' : 'closed'}</p>
      <button onClick={() => setOpen(true)}>Create token</button>
      <button onClick={() => setOpen(false)}>Cancel</button>
    </>
  );
}

function ToggleProbe() {
  const [open, setOpen] = useUrlToggle('user-menu');
  return <button onClick={() => setOpen(!open)}>menu {open ? 'open' : 'closed'}</button>;
}

const renderAt = (search: string, probe: React.ReactNode) =>
  render(
    <MemoryRouter initialEntries={[`/billing${search}`]}>
      {probe}
      <Address />
    </MemoryRouter>,
  );

describe('url-state hooks', () => {
  afterEach(cleanup);

  it('edit=… (value): read on load, set on click, cleared without touching other parameters', async () => {
    renderAt('?edit=card&project=acme', <ValueProbe />);
    expect(screen.getByText('edit: card')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add tax id' }));
    expect(screen.getByText('edit: tax-id')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByText('edit: none')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'address' }).textContent).toBe('?project=acme');
  });

  it('action=create-token (subjectless action): a link opens it, closing removes only that action', async () => {
    renderAt('?action=create-token&sidebar=open', <FlagProbe />);
    expect(screen.getByText('dialog: open')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('dialog: closed')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'address' }).textContent).toBe('?sidebar=open');
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(screen.getByRole('status', { name: 'address' }).textContent).toBe('?sidebar=open&action=create-token');
  });

  it("another screen's action does not open this dialog", () => {
    renderAt('?action=delete-project-4', <FlagProbe />);
    expect(screen.getByText('dialog: closed')).toBeTruthy();
  });

  it('user-menu=open (toggle): read on load, written on click', async () => {
    renderAt('?user-menu=open', <ToggleProbe />);
    await userEvent.click(screen.getByRole('button', { name: 'menu open' }));
    expect(screen.getByRole('button', { name: 'menu closed' })).toBeTruthy();
    expect(screen.getByRole('status', { name: 'address' }).textContent).toBe('');
  });
});
