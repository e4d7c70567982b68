import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { css } from 'styled-system/css';
import { useCurrentUser } from '../../app/auth-context';
import { areaPath, hasArea } from '../../app/routes';
import { LayersIcon, LogOutIcon, MonitorIcon, MoonIcon, SunIcon, UserIcon } from '../../components/ui/icons';
import { Menu, type MenuEntry } from '../../components/ui/menu';
import { settings } from '../../config/settings';
import { readThemePreference, saveThemePreference, type ThemePreference } from '../../lib/theme';
import { useQueryParamToggle } from './query-param-toggle';

function initials(name: string, email: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
  return letters || email.slice(0, 1).toUpperCase() || '?';
}

/** The user menu in the top bar (user-menu=open): who is signed in, account, theme, version, logout. */
export function UserMenu({ projectSlug }: { projectSlug: string | null }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [open, setOpen] = useQueryParamToggle('user-menu');
  // A link item navigates to another page, whose address has no user-menu param: closing by rewriting this page's
  // query as well would navigate back here while the linked page's code is still loading.
  const leaving = useRef(false);
  const onOpenChange = (next: boolean) => {
    if (!next && leaving.current) {
      leaving.current = false;
      return;
    }
    setOpen(next);
  };
  const leave = () => {
    leaving.current = true;
  };
  const [theme, setTheme] = useState<ThemePreference>(readThemePreference);
  const chooseTheme = (next: ThemePreference) => {
    saveThemePreference(next);
    setTheme(next);
  };
  const themeItems: MenuEntry[] = (
    [
      ['dark', 'Dark', <MoonIcon key="dark" />],
      ['light', 'Light', <SunIcon key="light" />],
      ['system', 'System', <MonitorIcon key="system" />],
    ] as const
  ).map(([value, label, icon]) => ({
    value: `theme-${value}`,
    icon,
    label: (
      <span className={css({ display: 'flex', flex: '1', justifyContent: 'space-between' })}>
        {label}
        {theme === value && <span aria-label="(current)">✓</span>}
      </span>
    ),
    onSelect: () => chooseTheme(value),
  }));
  const accountItems: MenuEntry[] = hasArea('account')
    ? [{ value: 'account', icon: <UserIcon />, label: 'Account settings', onSelect: leave, asLink: <Link to={areaPath('account', projectSlug)} /> }]
    : [];
  // The statechart studio, for the people who test and design the console's workflows.
  const studioItems: MenuEntry[] = hasArea('statecharts')
    ? [{ value: 'statecharts', icon: <LayersIcon />, label: 'Statechart studio', onSelect: leave, asLink: <Link to={areaPath('statecharts', projectSlug)} /> }]
    : [];

  return (
    <Menu
      open={open}
      onOpenChange={onOpenChange}
      placement="bottom-end"
      trigger={
        <button
          type="button"
          aria-label={`User menu for ${user.name || user.email}`}
          className={css({ w: '9', h: '9', borderRadius: 'full', bg: 'colorPalette.default', color: 'colorPalette.fg', fontWeight: 'semibold', textStyle: 'sm', cursor: 'pointer', _focusVisible: { outline: '2px solid', outlineColor: 'colorPalette.default', outlineOffset: '2px' } })}
        >
          {/* The initials are drawn, not text: a visible text outside the name "User menu for …" would not match it. */}
          <span aria-hidden="true" data-initials={initials(user.name, user.email)} className={css({ _before: { content: 'attr(data-initials)' } })} />
        </button>
      }
      header={
        <div className={css({ px: '2.5', py: '2', display: 'flex', flexDirection: 'column' })}>
          <span className={css({ fontWeight: 'semibold', textStyle: 'sm' })}>{user.name || user.email}</span>
          <span className={css({ color: 'fg.muted', textStyle: 'xs' })}>{user.email}</span>
        </div>
      }
      groups={[
        ...(accountItems.length ? [{ id: 'account', items: [...accountItems, ...studioItems] }] : []),
        { id: 'theme', label: 'Theme', items: themeItems },
        { id: 'session', items: [{ value: 'logout', icon: <LogOutIcon />, label: 'Logout', onSelect: () => navigate('/logout') }] },
      ]}
      footer={<p className={css({ px: '2.5', py: '1.5', textStyle: 'xs', color: 'fg.muted' })}>Version {settings.packageVersion}</p>}
    />
  );
}
