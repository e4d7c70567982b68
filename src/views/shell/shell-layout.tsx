import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { css } from 'styled-system/css';
import { useAuthSelector } from '../../app/auth-context';
import { hasArea } from '../../app/route-paths';
import { IconButton } from '../../components/ui/button';
import { MenuIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { clearSelectedProject, readSelectedProject, rememberSelectedProject } from '../../services/selected-project';
import { projectFromQuery, restoreProjectPath } from '../project/project-path';
import { useFirstUse } from './first-use';
import { ProjectChooser } from './project-chooser';
import { useQueryParamToggle } from './query-param-toggle';
import { Sidebar } from './sidebar';
import { TrialBanner } from './trial-banner';
import { UserMenu } from './user-menu';
import { useShellData } from './use-shell-data';

// The drawer brings the UI kit's dialog runtime: loaded when the drawer is first opened, kept mounted after that.
const loadDrawer = () => import('./navigation-drawer');
const NavigationDrawer = lazy(async () => ({ default: (await loadDrawer()).NavigationDrawer }));

/** The signed-in frame: sidebar (a drawer on mobile, sidebar=open), top bar, trial banner and the page. */
export function ShellLayout() {
  const shell = useShellData();
  const location = useLocation();
  const navigate = useNavigate();
  const [drawerOpen, setDrawerOpen] = useQueryParamToggle('sidebar');
  const emailVerified = useAuthSelector((snapshot) => snapshot.context.decodedToken?.email_verified);
  const drawer = useFirstUse(drawerOpen, loadDrawer);

  // Root behaviour: restore the remembered project into the path (spec 000 section 2).
  const projectSlugs = shell.projects.data?.map((project) => project.slug);
  useEffect(() => {
    if (!projectSlugs) return;
    const chosen = projectFromQuery({ pathname: location.pathname, search: location.search, projectSlugs });
    if (chosen) {
      rememberSelectedProject(chosen.slug);
      navigate(chosen.target, { replace: true });
      return;
    }
    const remembered = readSelectedProject();
    if (remembered && !projectSlugs.includes(remembered)) {
      clearSelectedProject();
      return;
    }
    const target = restoreProjectPath({ pathname: location.pathname, search: location.search, state: location.state, rememberedSlug: remembered, projectSlugs });
    if (target) navigate(target, { replace: true });
  }, [projectSlugs?.join(','), location.pathname, location.search, location.state, navigate]);

  if (emailVerified === false && hasArea('verify')) return <Navigate to="/verify" replace />;

  // Nobody to work for yet: no projects and no organizations leads to creating an organization. Their own Account
  // Settings (the sidebar offers them) stay reachable: a new or social account can read its profile or delete itself.
  const noAccountData = shell.projects.isSuccess && shell.organizations.isSuccess && shell.projects.data.length === 0 && shell.organizations.data.length === 0;
  const ownAccountPage = location.pathname === '/account' || location.pathname.startsWith('/account/');
  if (noAccountData && hasArea('organizationCreate') && !location.pathname.startsWith('/organization/create') && !ownAccountPage) {
    return <Navigate to="/organization/create" replace />;
  }

  return (
    <div className={css({ minH: '100dvh', display: 'flex', bg: 'shell.canvas' })}>
      <a href="#main" className={css({ position: 'absolute', left: '2', top: '-20', zIndex: 'skipLink', bg: 'bg.default', px: '3', py: '2', borderRadius: 'l2', shadow: 'md', _focus: { top: '2' } })}>
        Skip to content
      </a>
      <aside aria-label="Sidebar" className={css({ display: { base: 'none', md: 'block' }, w: { md: '60', lg: '64' }, flexShrink: 0, position: 'sticky', top: '0', h: '100dvh', bg: 'shell.sidebar', borderRightWidth: '1px' })}>
        <Sidebar />
      </aside>

      {drawer.wanted && (
        <Suspense fallback={null}>
          <NavigationDrawer open={drawerOpen} onOpenChange={setDrawerOpen} />
        </Suspense>
      )}

      <div className={css({ flex: '1', minW: '0', display: 'flex', flexDirection: 'column' })}>
        <header className={css({ position: 'sticky', top: '0', zIndex: 'docked', bg: 'shell.topbar', borderBottomWidth: '1px', backdropFilter: 'blur(8px)' })}>
          <div className={css({ h: '14', display: 'flex', alignItems: 'center', gap: '3', px: { base: '3', md: '6' } })}>
            <IconButton aria-label="Open navigation" className={css({ display: { base: 'inline-flex', md: 'none' } })} onClick={() => setDrawerOpen(true)}>
              <MenuIcon />
            </IconButton>
            <ProjectChooser />
            <div className={css({ flex: '1' })} />
            {shell.currentOrganization && (
              <span className={css({ display: { base: 'none', sm: 'inline' }, textStyle: 'sm', color: 'fg.muted', truncate: true, maxW: '48' })}>
                {shell.currentOrganization.name}
                {shell.readOnly ? ' · read-only' : ''}
              </span>
            )}
            <UserMenu projectSlug={shell.projectSlug} />
          </div>
          <TrialBanner organizationId={shell.organizationId} />
        </header>
        <main id="main" tabIndex={-1} className={css({ outline: 'none',  flex: '1', w: 'full', maxW: '7xl', mx: 'auto', px: { base: '4', md: '6', lg: '8' }, py: { base: '5', md: '8' } })}>
          <Suspense fallback={<Spinner size="lg" />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
