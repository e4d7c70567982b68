// Which account the console acts as: localStorage orgId (empty = personal) and this tab's sessionStorage orgLogin.
import { readStorage, removeStorage, STORAGE_KEYS, writeStorage } from './browser-storage';
import { parseStoredOrganizationId } from './token';

export type AccountMode = 'personal' | 'organization';

export function readSelectedOrganizationId(): number | null {
  return parseStoredOrganizationId(readStorage('local', STORAGE_KEYS.organizationId));
}

export function persistAccountMode(organizationId: number | null): void {
  writeStorage('local', STORAGE_KEYS.organizationId, organizationId === null ? '' : String(organizationId));
  writeStorage('session', STORAGE_KEYS.organizationLogin, organizationId === null ? 'personal' : 'organization');
}

export function clearAccountMode(): void {
  removeStorage('local', STORAGE_KEYS.organizationId);
  removeStorage('session', STORAGE_KEYS.organizationLogin);
}

/**
 * A shared address of a project in another account (an organization's project opened in the personal account): the
 * organization to switch to, or undefined to stay. A switch made for the same project in this tab that did not bring
 * it (the exchange was refused) is not made again, however much later the page renders (no reload on every focus);
 * one that brought it is forgotten (forgetFollowedProject), so a later address of it may switch again.
 */
export function accountToFollow(input: { projectId: number; current: number | null; holder: number | null | undefined }): number | null | undefined {
  if (input.holder === undefined || input.holder === input.current) return undefined;
  const [project] = (readStorage('session', STORAGE_KEYS.followedProject) ?? '').split('@');
  if (project === String(input.projectId)) return undefined;
  return input.holder;
}

/** Switches the tab to the account holding a shared project: remembered, then the page loads again in that account. */
export function followProjectAccount(projectId: number, organizationId: number | null): void {
  writeStorage('session', STORAGE_KEYS.followedProject, `${projectId}@${Date.now()}`);
  persistAccountMode(organizationId);
  globalThis.location.reload();
}

/** The shared project opened in its account: a later address of it may switch again. */
export function forgetFollowedProject(): void {
  removeStorage('session', STORAGE_KEYS.followedProject);
}
