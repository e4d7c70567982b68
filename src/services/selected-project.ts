// The remembered project (slug) survives reloads; logout and account switches forget it.
import { readStorage, removeStorage, STORAGE_KEYS, writeStorage } from './browser-storage';

export function readSelectedProject(): string | null {
  return readStorage('local', STORAGE_KEYS.project);
}

export function rememberSelectedProject(slug: string): void {
  writeStorage('local', STORAGE_KEYS.project, slug);
}

export function clearSelectedProject(): void {
  removeStorage('local', STORAGE_KEYS.project);
}
