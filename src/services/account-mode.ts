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
