// The browser storage keys the spec names (orgId, orgLogin) plus the console's own. Access is wrapped because
// storage throws in private modes and in some embedded browsers; the console must keep working without it.

export const STORAGE_KEYS = {
  /** localStorage: selected organization id, empty for the personal account. */
  organizationId: 'orgId',
  /** sessionStorage: remembers the account mode of this tab ('organization' or 'personal'). */
  organizationLogin: 'orgLogin',
  /** localStorage: slug of the last selected project. */
  project: 'project',
  /** localStorage: system, dark or light. */
  theme: 'theme',
  /** sessionStorage: where to go after the identity server sends the user back to /auth. */
  returnPath: 'returnPath',
  /** sessionStorage: set before reloading after a failed chunk load, to avoid reload loops. */
  chunkReload: 'chunkReloadAt',
  /** sessionStorage: `{projectId}@{ms}` of the last switch to a shared project's account, so a refused one is not repeated. */
  followedProject: 'followedProject',
} as const;

type Area = 'local' | 'session';

function area(which: Area): Storage | null {
  try {
    return which === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
  } catch {
    return null;
  }
}

export function readStorage(which: Area, key: string): string | null {
  try {
    return area(which)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(which: Area, key: string, value: string): void {
  try {
    area(which)?.setItem(key, value);
  } catch {
    // Storage full or disabled: the value only lives for this page.
  }
}

export function removeStorage(which: Area, key: string): void {
  try {
    area(which)?.removeItem(key);
  } catch {
    // Nothing to remove when storage is disabled.
  }
}
