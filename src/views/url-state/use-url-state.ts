// The React side of src/lib/url-state.ts: hooks that read the address on load and write it on click.
import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import {
  hasActionFlag,
  readAction,
  readToggle,
  readValue,
  urlDialogDecision,
  writeAction,
  writeActionFlag,
  writeToggle,
  writeValue,
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

/** A named value kept in the address (edit=card, edit=tax-id, modal=…): set on click, read on load; null clears. */
export function useUrlValue(name: ValueParam): [string | null, (value: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const value = readValue(params, name);
  const setValue = useCallback((next: string | null) => setParams((current) => writeValue(current, name, next), { preventScrollReset: true }), [name, setParams]);
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
 * A dialog owned by a machine and named by `action={prefix}{id}`: a click writes the address, the address opens
 * the machine (on a click, on a reload, from a shared link), and the machine closing clears the address.
 * `open(id)` returns false when the subject is not there or not allowed (the parameter is then removed).
 */
export function useUrlActionDialog(options: {
  prefix: string;
  /** The data the subject is looked up in has loaded (and who may act is known). */
  ready: boolean;
  dialogOpen: boolean;
  open: (id: string) => boolean;
}): (id: string) => void {
  const { prefix, ready, dialogOpen, open } = options;
  const [params, setParams] = useSearchParams();
  const requestedId = readAction(params, prefix);
  const wasOpen = useRef(false);
  const openRef = useRef(open);
  openRef.current = open;

  useEffect(() => {
    const justClosed = wasOpen.current && !dialogOpen;
    wasOpen.current = dialogOpen;
    const decision = urlDialogDecision({ requested: requestedId !== null, ready, subjectAvailable: true, dialogOpen, justClosed });
    if (decision === 'open' && requestedId !== null) {
      if (!openRef.current(requestedId)) setParams((current) => writeAction(current, prefix, null), { replace: true, preventScrollReset: true });
    } else if (decision === 'clear') {
      setParams((current) => writeAction(current, prefix, null), { replace: true, preventScrollReset: true });
    }
  }, [requestedId, ready, dialogOpen, prefix, setParams]);

  return useCallback((id: string) => setParams((current) => writeAction(current, prefix, id), { preventScrollReset: true }), [prefix, setParams]);
}
