import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore, MAX_TOASTS, TOAST_REMOVE_DELAY_MS } from '../../src/services/toast-store';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('toast store', () => {
  it('keeps at most 5, newest first', () => {
    const store = createToastStore(() => Date.now());
    for (let index = 1; index <= 7; index += 1) store.show({ title: `toast ${index}` });
    const titles = store.getSnapshot().map((toast) => toast.title);
    expect(titles).toHaveLength(MAX_TOASTS);
    expect(titles).toEqual(['toast 7', 'toast 6', 'toast 5', 'toast 4', 'toast 3']);
  });

  it('hides after the default 5 s, then removes 1 s later', () => {
    const store = createToastStore(() => Date.now());
    store.show({ title: 'saved' });
    vi.advanceTimersByTime(4999);
    expect(store.getSnapshot()[0]?.visible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()[0]?.visible).toBe(false);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toHaveLength(0);
  });

  it('uses 7 s for errors and 5 s for success and warning', () => {
    const store = createToastStore(() => Date.now());
    const error = store.show({ type: 'error', title: 'failed' });
    const success = store.show({ type: 'success', title: 'done' });
    const warning = store.show({ type: 'warning', title: 'careful' });
    vi.advanceTimersByTime(5000);
    const visible = (id: string) => store.getSnapshot().find((toast) => toast.id === id)?.visible;
    expect(visible(success)).toBe(false);
    expect(visible(warning)).toBe(false);
    expect(visible(error)).toBe(true);
    vi.advanceTimersByTime(2000);
    expect(visible(error)).toBe(false);
  });

  it('pauses while hovered and resumes with the time that was left', () => {
    const store = createToastStore(() => Date.now());
    const id = store.show({ title: 'hover me' });
    vi.advanceTimersByTime(3000);
    store.pause(id);
    vi.advanceTimersByTime(60_000);
    expect(store.getSnapshot()[0]?.visible).toBe(true);
    store.resume(id);
    vi.advanceTimersByTime(1999);
    expect(store.getSnapshot()[0]?.visible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()[0]?.visible).toBe(false);
  });

  it('notifies subscribers', () => {
    const store = createToastStore(() => Date.now());
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.show({ title: 'a' });
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    store.show({ title: 'b' });
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
