import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A modal whose open state is in the URL (spec 001 §2 qryn: action=create-token, action=delete-token, modal=open), so
 * a link or a reload opens it: the URL asks, the machine opens; when the machine is closed again the URL follows.
 * `open` receives the search params (the subject they name) and is called once `ready` (the data it needs loaded).
 */
export function useUrlModal(options: {
  param: string;
  value: string;
  /** Other parameters that belong to this modal (the subject's id), cleared with it. */
  extra?: readonly string[];
  ready?: boolean;
  isClosed: () => boolean;
  closedNow: boolean;
  open: (search: URLSearchParams) => void;
}): (extra?: Record<string, string>) => void {
  const { param, value, extra = [], ready = true, isClosed, closedNow, open } = options;
  const [search, setSearch] = useSearchParams();
  const requested = search.get(param) === value;
  const key = search.toString();

  useEffect(() => {
    if (requested && ready && isClosed()) open(search);
    // Runs when the URL or the readiness changes, not on every render (open and isClosed are new each render).
  }, [requested, ready, key]);

  // Only a modal that was open and closed clears the URL (not a first render waiting for its data).
  const wasOpen = useRef(false);
  useEffect(() => {
    const closedAfterOpen = closedNow && wasOpen.current;
    wasOpen.current = !closedNow;
    if (!closedAfterOpen || !isClosed() || !requested) return;
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(param);
        for (const name of extra) next.delete(name);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
    // Runs when the machine opens or closes.
  }, [closedNow]);

  return useCallback(
    (values: Record<string, string> = {}) =>
      setSearch(
        (current) => {
          const next = new URLSearchParams(current);
          next.set(param, value);
          for (const [name, v] of Object.entries(values)) next.set(name, v);
          return next;
        },
        { preventScrollReset: true },
      ),
    [param, value, setSearch],
  );
}
