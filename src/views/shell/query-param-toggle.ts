import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** Open state kept in the URL (sidebar=open, user-menu=open, select-project=open) so it survives reloads and links. */
export function useQueryParamToggle(name: string): [boolean, (open: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const open = params.get(name) === 'open';
  const setOpen = useCallback(
    (next: boolean) => {
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next) updated.set(name, 'open');
          else updated.delete(name);
          return updated;
        },
        { replace: true, preventScrollReset: true },
      );
    },
    [name, setParams],
  );
  return [open, setOpen];
}
