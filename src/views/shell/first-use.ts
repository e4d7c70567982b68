// The shell's menus and popovers come with the UI kit's overlay runtime (menu, popover, positioning, focus trap),
// too heavy for the first paint. Until one is first wanted its trigger is a plain button that looks and reads the
// same (its name, aria-haspopup, aria-expanded="false"); hovering or focusing it starts loading the real component,
// and the click or key that opened it is replayed on the real trigger once that is mounted, so focus, roles and
// keyboard behaviour are the UI kit's own from the first use on.
import { useEffect, useRef, useState, type KeyboardEvent, type MutableRefObject } from 'react';

export type Gesture = { kind: 'click' } | { kind: 'key'; key: string };

/** Keys that open a menu from its trigger (the UI kit's menu trigger: arrows, Enter, Space). */
const MENU_KEYS = ['ArrowDown', 'ArrowUp', 'Enter', ' '];

export interface FirstUse {
  /** The real component is wanted (opened once, or open from the address): render it. */
  wanted: boolean;
  /** What the user did on the stand-in, to replay on the real trigger. */
  gesture: MutableRefObject<Gesture | null>;
  /** Handlers for the stand-in trigger. */
  standIn: {
    onPointerEnter: () => void;
    onFocus: () => void;
    onClick: () => void;
    onKeyDown: (event: KeyboardEvent) => void;
  };
}

/**
 * `open` is the address's open state (the component is wanted at once when the page is loaded open); `load` is the
 * lazy import of the real component; `menuKeys` replays the menu's opening keys (a popover opens by click only).
 */
export function useFirstUse(open: boolean, load: () => Promise<unknown>, menuKeys = false): FirstUse {
  const [wanted, setWanted] = useState(open);
  const gesture = useRef<Gesture | null>(null);
  useEffect(() => {
    if (open) setWanted(true);
  }, [open]);
  const prefetch = () => {
    void load();
  };
  const want = (next: Gesture) => {
    gesture.current = next;
    prefetch();
    setWanted(true);
  };
  return {
    wanted,
    gesture,
    standIn: {
      onPointerEnter: prefetch,
      onFocus: prefetch,
      onClick: () => want({ kind: 'click' }),
      onKeyDown: (event) => {
        if (!menuKeys || !MENU_KEYS.includes(event.key)) return;
        event.preventDefault();
        want({ kind: 'key', key: event.key });
      },
    },
  };
}

/** Once the real trigger is mounted: focus it and replay the gesture that asked for it (at most once). */
export function replayGesture(trigger: HTMLElement | null, gesture: MutableRefObject<Gesture | null>): void {
  const done = gesture.current;
  gesture.current = null;
  if (!trigger || !done) return;
  trigger.focus();
  if (done.kind === 'click') trigger.click();
  else trigger.dispatchEvent(new globalThis.KeyboardEvent('keydown', { key: done.key, bubbles: true, cancelable: true }));
}
