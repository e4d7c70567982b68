import type { ToggleParam } from '../../lib/url-state';
import { useUrlToggle } from '../url-state/use-url-state';

/** Open state kept in the URL (sidebar=open, user-menu=open, select-project=open) so it survives reloads and links. */
export function useQueryParamToggle(name: ToggleParam): [boolean, (open: boolean) => void] {
  return useUrlToggle(name);
}
