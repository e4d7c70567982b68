// @vitest-environment jsdom
// The React side of the one query-parameter mechanism (src/views/url-state/use-url-state.ts): each hook reads the
// address on load (a reload, a shared link) and writes it on click, leaving the other parameters alone.
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { MemoryRouter, useLocation, useNavigate, useNavigationType } from 'react-router';
import { subjectBeside } from '../../src/lib/url-state';
import { useUrlActionFlag, useUrlDialog, useUrlToggle, useUrlValue } from '../../src/views/url-state/use-url-state';

function Address() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  return (
    <>
      <output aria-label="address">{location.search}</output>
      <output aria-label="entry">{`${navigationType} ${location.key}`}</output>
      <button onClick={() => navigate(-1)}>Back</button>
    </>
  );
}

const address = () => screen.getByRole('status', { name: 'address' }).textContent;
const entry = () => screen.getByRole('status', { name: 'entry' }).textContent;

function ValueProbe() {
  const [edit, setEdit] = useUrlValue('edit');
  return (
    <>
      <p>edit: {edit ?? 'none'}</p>
      <button onClick={() => setEdit('tax-id')}>Add tax id</button>
      <button onClick={() => setEdit(null)}>Close</button>
      <button onClick={() => setEdit((current) => (current === 'password' ? null : current))}>Close the password form</button>
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

// A dialog owned by a machine whose subject is in a parameter of its own (qryn's action=delete-token&token_id=…);
// `open` stands in for the machine: it opens for a token that exists.
function DialogProbe({ ready = true }: { ready?: boolean }) {
  const [openFor, setOpenFor] = useState<string | null>(null);
  const request = useUrlDialog({
    address: subjectBeside('action', 'delete-token', 'token_id'),
    ready,
    dialogOpen: openFor !== null,
    open: (id) => {
      if (id !== '5') return false;
      setOpenFor(id);
      return true;
    },
  });
  return (
    <>
      <p>dialog: {openFor ?? 'closed'}</p>
      <button onClick={() => request('5')}>Delete token 5</button>
      <button onClick={() => setOpenFor(null)}>Cancel</button>
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

  it('edit=… (value): opening adds a history entry, closing replaces it (Back does not reopen), a no-op writes nothing', async () => {
    renderAt('?project=acme', <ValueProbe />);
    await userEvent.click(screen.getByRole('button', { name: 'Add tax id' }));
    expect(entry()).toMatch(/^PUSH /);
    const opened = entry();
    await userEvent.click(screen.getByRole('button', { name: 'Close the password form' }));
    expect(screen.getByText('edit: tax-id')).toBeTruthy();
    expect(entry()).toBe(opened);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(entry()).toMatch(/^REPLACE /);
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByText('edit: none')).toBeTruthy();
    expect(address()).toBe('?project=acme');
  });

  it('action=delete-token&token_id=… (a subject beside the action): a link opens it, closing clears both', async () => {
    renderAt('?action=delete-token&token_id=5&sidebar=open', <DialogProbe />);
    expect(screen.getByText('dialog: 5')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('dialog: closed')).toBeTruthy();
    expect(address()).toBe('?sidebar=open');
    await userEvent.click(screen.getByRole('button', { name: 'Delete token 5' }));
    expect(screen.getByText('dialog: 5')).toBeTruthy();
    expect(address()).toBe('?sidebar=open&action=delete-token&token_id=5');
  });

  it('a subject that is not there clears the address; while the data loads the address waits', async () => {
    renderAt('?action=delete-token&token_id=99', <DialogProbe />);
    expect(screen.getByText('dialog: closed')).toBeTruthy();
    expect(address()).toBe('');
    cleanup();
    const loading = renderAt('?action=delete-token&token_id=5', <DialogProbe ready={false} />);
    expect(address()).toBe('?action=delete-token&token_id=5');
    expect(screen.getByText('dialog: closed')).toBeTruthy();
    await act(async () =>
      loading.rerender(
        <MemoryRouter initialEntries={['/billing?action=delete-token&token_id=5']}>
          <DialogProbe ready />
          <Address />
        </MemoryRouter>,
      ),
    );
    expect(screen.getByText('dialog: 5')).toBeTruthy();
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
