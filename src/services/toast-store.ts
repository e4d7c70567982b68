// Notifications (spec 000 section 2): at most 5, newest first; dismissed after their duration (5 s default,
// 7 s errors, 5 s success and warning); hidden first, then removed 1 s later; hovering pauses the countdown.

export type ToastType = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: string;
  type: ToastType;
  title: string;
  description?: string;
  duration: number;
  /** false once dismissed: the view animates it out and the store removes it 1 s later. */
  visible: boolean;
  paused: boolean;
}

export interface ToastInput {
  type?: ToastType;
  title: string;
  description?: string;
  duration?: number;
}

export const MAX_TOASTS = 5;
export const TOAST_REMOVE_DELAY_MS = 1000;
export const TOAST_DURATIONS: Record<ToastType, number> = { info: 5000, success: 5000, warning: 5000, error: 7000 };

interface Timer {
  handle: ReturnType<typeof setTimeout> | null;
  startedAt: number;
  remaining: number;
}

export interface ToastStore {
  show(input: ToastInput): string;
  dismiss(id: string): void;
  pause(id: string): void;
  resume(id: string): void;
  clear(): void;
  getSnapshot(): readonly Toast[];
  subscribe(listener: () => void): () => void;
}

export function createToastStore(now: () => number = Date.now): ToastStore {
  let toasts: readonly Toast[] = [];
  const timers = new Map<string, Timer>();
  const removals = new Map<string, ReturnType<typeof setTimeout>>();
  const listeners = new Set<() => void>();
  let counter = 0;

  const emit = () => {
    for (const listener of listeners) listener();
  };
  const update = (id: string, patch: Partial<Toast>) => {
    toasts = toasts.map((toast) => (toast.id === id ? { ...toast, ...patch } : toast));
  };
  const remove = (id: string) => {
    const timer = timers.get(id);
    if (timer?.handle) clearTimeout(timer.handle);
    timers.delete(id);
    const removal = removals.get(id);
    if (removal) clearTimeout(removal);
    removals.delete(id);
    toasts = toasts.filter((toast) => toast.id !== id);
  };
  const startTimer = (id: string, remaining: number) => {
    const handle = setTimeout(() => store.dismiss(id), remaining);
    timers.set(id, { handle, startedAt: now(), remaining });
  };

  const store: ToastStore = {
    show(input) {
      const type = input.type ?? 'info';
      const id = `toast-${++counter}`;
      const toast: Toast = {
        id,
        type,
        title: input.title,
        description: input.description,
        duration: input.duration ?? TOAST_DURATIONS[type],
        visible: true,
        paused: false,
      };
      // Newest first; beyond five the oldest go at once.
      const next = [toast, ...toasts];
      for (const dropped of next.slice(MAX_TOASTS)) remove(dropped.id);
      toasts = [toast, ...toasts].slice(0, MAX_TOASTS);
      startTimer(id, toast.duration);
      emit();
      return id;
    },
    dismiss(id) {
      const toast = toasts.find((item) => item.id === id);
      if (!toast || !toast.visible) return;
      const timer = timers.get(id);
      if (timer?.handle) clearTimeout(timer.handle);
      timers.delete(id);
      update(id, { visible: false, paused: false });
      removals.set(
        id,
        setTimeout(() => {
          remove(id);
          emit();
        }, TOAST_REMOVE_DELAY_MS),
      );
      emit();
    },
    pause(id) {
      const timer = timers.get(id);
      if (!timer?.handle) return;
      clearTimeout(timer.handle);
      timers.set(id, { handle: null, startedAt: timer.startedAt, remaining: Math.max(0, timer.remaining - (now() - timer.startedAt)) });
      update(id, { paused: true });
      emit();
    },
    resume(id) {
      const timer = timers.get(id);
      if (!timer || timer.handle) return;
      startTimer(id, timer.remaining);
      update(id, { paused: false });
      emit();
    },
    clear() {
      for (const toast of toasts) remove(toast.id);
      toasts = [];
      emit();
    },
    getSnapshot: () => toasts,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return store;
}

/** The console's one toast store; views call toast.success(...) and friends. */
export const toastStore = createToastStore();

export const toast = {
  show: (input: ToastInput) => toastStore.show(input),
  info: (title: string, description?: string) => toastStore.show({ type: 'info', title, description }),
  success: (title: string, description?: string) => toastStore.show({ type: 'success', title, description }),
  warning: (title: string, description?: string) => toastStore.show({ type: 'warning', title, description }),
  error: (title: string, description?: string) => toastStore.show({ type: 'error', title, description }),
};
