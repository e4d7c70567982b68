// The React side of src/lib/url-state.ts: hooks that read the address on load and write it on click.
import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import {
  hasActionFlag,
  readToggle,
  readValue,
  urlDialogDecision,
  writeActionFlag,
  writeToggle,
  writeValue,
  type DialogAddress,
  type ToggleParam,
  type ValueParam,
} from '../../lib/url-state';

/** A toggle kept in the address (sidebar=open, user-menu=open, select-project=open). */
export function useUrlToggle(name: ToggleParam): [boolean, (open: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const open = readToggle(params, name);
  const setOpen = useCallback(
    (next: boolean) => setParams((current) => writeToggle(current, name, next), { replace: true, preventScrollReset: true }),
    [name, setParams],
  );
  return [open, setOpen];
}

/**
 * A named value kept in the address (edit=card, edit=password, modal=…): set on click, read on load; null clears.
 * Opening adds a history entry (Back closes the form); clearing replaces it, so Back after closing does not reopen
 * what was just closed. The setter also takes a function of the value the address holds when it runs (e.g. clear
 * only if it still names this form); writing what the address already holds does nothing.
 */
export function useUrlValue(name: ValueParam): [string | null, (value: string | null | ((current: string | null) => string | null)) => void] {
  const [params, setParams] = useSearchParams();
  const value = readValue(params, name);
  // react-router's functional update sees the same search as this render; the ref keeps the setter stable.
  const latest = useRef(params);
  latest.current = params;
  const setValue = useCallback(
    (next: string | null | ((current: string | null) => string | null)) => {
      const held = readValue(latest.current, name);
      const written = typeof next === 'function' ? next(held) : next;
      if (written === held) return; // no history entry for what the address already says
      setParams((current) => writeValue(current, name, written), { replace: written === null, preventScrollReset: true });
    },
    [name, setParams],
  );
  return [value, setValue];
}

/** A dialog without a subject named by `action={action}` (action=create-token): open while the address says so. */
export function useUrlActionFlag(action: string): [boolean, (open: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const open = hasActionFlag(params, action);
  const setOpen = useCallback(
    (next: boolean) => setParams((current) => writeActionFlag(current, action, next), { replace: !next, preventScrollReset: true }),
    [action, setParams],
  );
  return [open, setOpen];
}

/**
 * A dialog owned by a machine and named in the address (`address`: the subject in the action, the action alone, or
 * the subject beside it): a click writes the address, the address opens the machine (on a click, on a reload, from a
 * shared link), and the machine closing clears the address. `open(subject)` returns false when the subject is not
 * there or not allowed (the parameters are then removed).
 */
export function useUrlDialog(options: {
  address: DialogAddress;
  /** The data the subject is looked up in has loaded (and who may act is known). */
  ready: boolean;
  dialogOpen: boolean;
  open: (subject: string) => boolean;
}): (subject?: string) => void {
  const { ready, dialogOpen } = options;
  const [params, setParams] = useSearchParams();
  // The address and open are new objects each render; the effect runs when the address or the dialog changes.
  const latest = useRef(options);
  latest.current = options;
  const requested = options.address.read(params);
  const wasOpen = useRef(false);

  useEffect(() => {
    const { address, open } = latest.current;
    const clear = () => setParams((current) => address.write(current, null), { replace: true, preventScrollReset: true });
    const justClosed = wasOpen.current && !dialogOpen;
    wasOpen.current = dialogOpen;
    const decision = urlDialogDecision({ requested: requested !== null, ready, subjectAvailable: true, dialogOpen, justClosed });
    if (decision === 'open' && requested !== null) {
      if (!open(requested)) clear();
    } else if (decision === 'clear') clear();
  }, [requested, ready, dialogOpen, setParams]);

  return useCallback(
    (subject = '') => setParams((current) => latest.current.address.write(current, subject), { preventScrollReset: true }),
    [setParams],
  );
}
