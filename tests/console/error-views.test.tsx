// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, AuthenticationError, ServerError } from '../../src/services/errors';
import { CHUNK_RELOAD_MESSAGE, classifyRouteError, isChunkLoadError, shouldReloadAfterChunkError } from '../../src/views/errors/route-error';
import { BUG_BODY, BUG_TITLE, ErrorPresentation } from '../../src/views/errors/route-error-view';
import { NotFoundView } from '../../src/views/errors/not-found-view';

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  vi.restoreAllMocks();
});

const renderError = (error: unknown) =>
  render(
    <MemoryRouter>
      <ErrorPresentation error={error} />
    </MemoryRouter>,
  );

describe('route error views', () => {
  it('shows an API error with its description and a Reload page button', () => {
    renderError(new ApiError('We had issues loading your billing information', { description: 'Please refresh the page and try again.' }));
    expect(screen.getByRole('heading', { name: 'We had issues loading your billing information' })).toBeTruthy();
    expect(screen.getByText('Please refresh the page and try again.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeTruthy();
  });

  it('offers the go-to button of the error instead of reloading', () => {
    renderError(new ApiError('We could not find the integration for project 3', { action: { label: 'Go to Stack', to: '/p-3/stack' } }));
    const link = screen.getByRole('link', { name: 'Go to Stack' });
    expect(link.getAttribute('href')).toBe('/p-3/stack');
    expect(screen.queryByRole('button', { name: 'Reload page' })).toBeNull();
  });

  it('shows the update message for a failed chunk load and reloads once', () => {
    vi.useFakeTimers();
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    renderError(new TypeError('Failed to fetch dynamically imported module: http://x/assets/a.js'));
    expect(screen.getByText(CHUNK_RELOAD_MESSAGE)).toBeTruthy();
    vi.advanceTimersByTime(2000);
    expect(reload).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows the bug dialog for anything else, with the serialized error and both actions', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderError(new RangeError('index out of bounds'));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain(BUG_TITLE);
    expect(dialog.textContent).toContain(BUG_BODY);
    expect(dialog.textContent).toContain('index out of bounds');
    expect(screen.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toMatch(/^mailto:/);
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeTruthy();
  });

  it('keeps keyboard focus inside the bug dialog', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderError(new RangeError('index out of bounds'));
    const dialog = screen.getByRole('alertdialog');
    const contact = screen.getByRole('link', { name: 'Contact support' });
    const reload = screen.getByRole('button', { name: 'Reload page' });
    expect(document.activeElement).toBe(reload);
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(contact);
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(reload);
  });

  it('shows Nothing to see here! with a way home for unknown routes', () => {
    render(
      <MemoryRouter>
        <NotFoundView />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Nothing to see here!' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
  });
});

describe('route error classification', () => {
  it('recognises chunk load failures of the browsers', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new TypeError('x is undefined'))).toBe(false);
  });
  it('does not reload again within the guard window', () => {
    expect(shouldReloadAfterChunkError(null, 1000)).toBe(true);
    expect(shouldReloadAfterChunkError(1000, 5000)).toBe(false);
    expect(shouldReloadAfterChunkError(1000, 40_000)).toBe(true);
  });
  it('gives a server error without a description the spec\'s guidance', () => {
    expect(classifyRouteError(new ServerError('Internal error', { status: 500 }))).toMatchObject({
      kind: 'known',
      message: 'Internal error',
      description: 'Please refresh the page and try again. If the problem persists, please contact support.',
    });
  });
  it('shows authentication errors as known errors', () => {
    expect(classifyRouteError(new AuthenticationError('Not authenticated'))).toMatchObject({ kind: 'known', message: 'Not authenticated' });
  });
});
