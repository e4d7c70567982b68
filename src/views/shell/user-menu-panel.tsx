import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { css } from 'styled-system/css';
import { useCurrentUser } from '../../app/auth-context';
import { areaPath, hasArea } from '../../app/route-paths';
import { LayersIcon, LogOutIcon, MonitorIcon, MoonIcon, SunIcon, UserIcon } from '../../components/ui/icons';
import { Menu, type MenuEntry } from '../../components/ui/menu';
import { settings } from '../../config/settings';
import { readThemePreference, saveThemePreference, type ThemePreference } from '../../lib/theme';
import { replayGesture, type Gesture } from './first-use';
import { useQueryParamToggle } from './query-param-toggle';
import { UserMenuButton } from './user-menu';

/** The user menu in the top bar (user-menu=open): who is signed in, account, theme, version, logout. Loaded on first use (user-menu.tsx). */
export function UserMenuPanel({ projectSlug, gesture }: { projectSlug: string | null; gesture: React.MutableRefObject<Gesture | null> }) {
  const user = useCurrentUser();
  const trigger = useRef<HTMLButtonElement>(null);
  // The click or key that asked for this menu, done again on its real trigger.
  useEffect(() => replayGesture(trigger.current, gesture), [gesture]);
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
      trigger={<UserMenuButton ref={trigger} name={user.name} email={user.email} />}
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
