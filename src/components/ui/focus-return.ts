// Focus back on the control that started a flow once the control can be used again. A control disabled while its
// flow runs (a confirmation being asked for, a save, a re-read) drops the keyboard focus, and a dialog that closes
// meanwhile cannot hand focus back to it: without this, a keyboard user is left at the top of the page. Pass the ref
// as the dialog's finalFocus too: whichever comes last, the control enabled again or the dialog gone, focuses it.
import { useEffect, useRef } from 'react';

/** Nothing on the page has the keyboard focus (it fell to the document when its control went away or was disabled). */
export function focusIsNowhere(): boolean {
  const active = document.activeElement;
  return !active || active === document.body;
}

export function useFocusReturn<T extends HTMLElement>(usable: boolean) {
  const ref = useRef<T>(null);
  const started = useRef(false);
  useEffect(() => {
    if (!usable || !started.current) return;
    started.current = false;
    // Only when focus is nowhere: a person who moved on elsewhere keeps their place.
    if (focusIsNowhere()) ref.current?.focus();
  }, [usable]);
  /** Call when the control starts its flow. */
  const start = () => {
    started.current = true;
  };
  return { ref, start };
}
