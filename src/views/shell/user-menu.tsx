import { lazy, Suspense, type ComponentProps, type Ref } from 'react';
import { css } from 'styled-system/css';
import { useCurrentUser } from '../../app/auth-context';
import { useFirstUse } from './first-use';
import { useQueryParamToggle } from './query-param-toggle';

const loadPanel = () => import('./user-menu-panel');
const UserMenuPanel = lazy(async () => ({ default: (await loadPanel()).UserMenuPanel }));

function initials(name: string, email: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
  return letters || email.slice(0, 1).toUpperCase() || '?';
}

/** The round button with the user's initials: the menu's trigger, and its stand-in until the menu is first used. */
export function UserMenuButton({ name, email, ref, ...props }: { name: string; email: string; ref?: Ref<HTMLButtonElement> } & ComponentProps<'button'>) {
  return (
    <button
      type="button"
      {...props}
      ref={ref}
      aria-label={`User menu for ${name || email}`}
      className={css({ w: '9', h: '9', borderRadius: 'full', bg: 'colorPalette.default', color: 'colorPalette.fg', fontWeight: 'semibold', textStyle: 'sm', cursor: 'pointer', _focusVisible: { outline: '2px solid', outlineColor: 'colorPalette.default', outlineOffset: '2px' } })}
    >
      {/* The initials are drawn, not text: a visible text outside the name "User menu for …" would not match it. */}
      <span aria-hidden="true" data-initials={initials(name, email)} className={css({ _before: { content: 'attr(data-initials)' } })} />
    </button>
  );
}

/** The user menu in the top bar (user-menu=open); the menu itself (user-menu-panel.tsx) loads on first use. */
export function UserMenu({ projectSlug }: { projectSlug: string | null }) {
  const user = useCurrentUser();
  const [open] = useQueryParamToggle('user-menu');
  const firstUse = useFirstUse(open, loadPanel, true);
  const standIn = <UserMenuButton name={user.name} email={user.email} aria-haspopup="menu" aria-expanded="false" {...firstUse.standIn} />;
  if (!firstUse.wanted) return standIn;
  return (
    <Suspense fallback={standIn}>
      <UserMenuPanel projectSlug={projectSlug} gesture={firstUse.gesture} />
    </Suspense>
  );
}
