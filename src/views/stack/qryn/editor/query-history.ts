// The last queries run per language, newest first, kept in this browser (localStorage): the editor's History list.
import type { ExplorerLanguage } from '../../../../machines/qryn-explorer/explorer-url';

export const HISTORY_SIZE = 20;
const key = (language: ExplorerLanguage) => `qryn-explorer-history-${language}`;

type Store = Pick<Storage, 'getItem' | 'setItem'>;

const defaultStore = (): Store | null => {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can be denied (privacy settings): the editor then works without a history.
    return null;
  }
};

export function loadHistory(language: ExplorerLanguage, store: Store | null = defaultStore()): string[] {
  try {
    const parsed = JSON.parse(store?.getItem(key(language)) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((q): q is string => typeof q === 'string').slice(0, HISTORY_SIZE) : [];
  } catch {
    return [];
  }
}

/** Puts `query` first (once: an older copy moves up) and keeps the last HISTORY_SIZE; answers the new list. */
export function rememberQuery(language: ExplorerLanguage, query: string, store: Store | null = defaultStore()): string[] {
  const text = query.trim();
  const list = loadHistory(language, store);
  if (!text) return list;
  const next = [text, ...list.filter((q) => q !== text)].slice(0, HISTORY_SIZE);
  try {
    store?.setItem(key(language), JSON.stringify(next));
  } catch {
    // A full storage keeps the old list.
  }
  return next;
}
