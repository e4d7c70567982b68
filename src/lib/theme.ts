// Theme preference: system, dark or light; dark by default; stored locally. Applied as a class on <html>
// before React renders (from the module entry, because the CSP forbids inline scripts).
import { readStorage, STORAGE_KEYS, writeStorage } from '../services/browser-storage';

export type ThemePreference = 'system' | 'dark' | 'light';
export type Theme = 'dark' | 'light';

export const DEFAULT_THEME: ThemePreference = 'dark';

export function readThemePreference(): ThemePreference {
  const stored = readStorage('local', STORAGE_KEYS.theme);
  return stored === 'system' || stored === 'dark' || stored === 'light' ? stored : DEFAULT_THEME;
}

export function resolveTheme(preference: ThemePreference, prefersDark: boolean): Theme {
  if (preference === 'system') return prefersDark ? 'dark' : 'light';
  return preference;
}

function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

export function applyTheme(preference: ThemePreference): Theme {
  const theme = resolveTheme(preference, systemPrefersDark());
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.classList.toggle('light', theme === 'light');
  root.style.colorScheme = theme;
  return theme;
}

export function saveThemePreference(preference: ThemePreference): Theme {
  writeStorage('local', STORAGE_KEYS.theme, preference);
  return applyTheme(preference);
}

/** Follows the operating system while the preference is 'system'. */
export function watchSystemTheme(): () => void {
  if (typeof matchMedia !== 'function') return () => undefined;
  const query = matchMedia('(prefers-color-scheme: dark)');
  const onChange = () => {
    if (readThemePreference() === 'system') applyTheme('system');
  };
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
