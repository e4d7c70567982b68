// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COPY_INDICATOR_MS, CopyButton } from '../../src/components/ui/copy-button';
import { Field, Input } from '../../src/components/ui/field';
import { Toaster } from '../../src/components/ui/toaster';
import { Tabs } from '../../src/components/ui/tabs';
import { createToastStore } from '../../src/services/toast-store';

beforeEach(() => {
  // Ark UI measures elements; jsdom has no ResizeObserver.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('Field', () => {
  it('labels the input and binds the error text with aria-describedby', async () => {
    render(
      <Field label="Project name" errorText="The project name must have at least 3 characters">
        <Input name="name" />
      </Field>,
    );
    const input = screen.getByLabelText('Project name');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const error = screen.getByText('The project name must have at least 3 characters');
    // Ark notices the rendered error text after mount, then points the input at it.
    await waitFor(() => expect((input.getAttribute('aria-describedby') ?? '').split(' ')).toContain(error.id));
  });
  it('binds helper text when valid', () => {
    render(
      <Field label="Email" helperText="We never share it.">
        <Input name="email" />
      </Field>,
    );
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.getAttribute('aria-describedby')).toContain(screen.getByText('We never share it.').id);
  });
});

describe('Toaster', () => {
  it('renders newest first in a live region and pauses on hover', () => {
    vi.useFakeTimers();
    const store = createToastStore(() => Date.now());
    render(<Toaster store={store} />);
    act(() => {
      store.show({ type: 'success', title: 'Your project has successfully been created.' });
      store.show({ type: 'error', title: 'Error while creating organization' });
    });
    const items = [...document.querySelector('[aria-live="polite"]')!.children];
    expect(items.map((item) => item.querySelector('p')?.textContent)).toEqual(['Error while creating organization', 'Your project has successfully been created.']);
    expect(screen.getByRole('alert').textContent).toContain('Error while creating organization');
    expect(document.querySelector('[aria-live="polite"]')).not.toBeNull();
    const success = screen.getByRole('status');
    fireEvent.mouseEnter(success);
    act(() => vi.advanceTimersByTime(10_000));
    expect(success.hidden).toBe(false);
    fireEvent.mouseLeave(success);
    act(() => vi.advanceTimersByTime(5000));
    expect(success.hidden).toBe(true);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByText('Your project has successfully been created.')).toBeNull();
  });
});

describe('CopyButton', () => {
  it('shows the copied indicator for 2000 ms', async () => {
    vi.useFakeTimers();
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<CopyButton value="secret-token" />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(writeText).toHaveBeenCalledWith('secret-token');
    expect(screen.getByRole('button').textContent).toContain('Copied');
    act(() => vi.advanceTimersByTime(COPY_INDICATOR_MS - 1));
    expect(screen.getByRole('button').textContent).toContain('Copied');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('button').textContent).toBe('Copy');
  });
});

describe('Tabs', () => {
  it('renders tab triggers and the selected panel', () => {
    render(<Tabs aria-label="Ingestion" items={[{ value: 'logs', label: 'Logs', content: <p>Log snippet</p> }, { value: 'metrics', label: 'Metrics', content: <p>Metric snippet</p> }]} />);
    expect(screen.getByRole('tab', { name: 'Logs' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Log snippet')).toBeTruthy();
  });
});
