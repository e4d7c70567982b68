import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { css } from 'styled-system/css';
import { useCurrentUser } from '../../app/auth-context';
import { queries } from '../../app/query-keys';
import { areaPath, hasArea } from '../../app/route-paths';
import { buttonStyles } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ArrowRightIcon } from '../../components/ui/icons';
import { Skeleton } from '../../components/ui/spinner';
import { formatDate } from '../../lib/format';
import { rememberSelectedProject } from '../../services/selected-project';
import { projectHome } from '../projects/project-home';
import { visibleIntegrations } from '../shell/sidebar-model';
import { IntegrationStatusBadge } from '../stack/integration-status-badge';
import { useShellData } from '../shell/use-shell-data';

/** / and /welcome (and /{projectSlug}): greeting, the account's projects, the selected project's integrations. */
export function OverviewView() {
  const user = useCurrentUser();
  const shell = useShellData();
  const location = useLocation();
  const project = shell.currentProject;
  const integrations = useQuery({ ...queries.integrations(project?.id ?? 0), enabled: Boolean(project) });
  const welcome = location.pathname === '/welcome';
  const projects = shell.projects.data ?? [];
  if (shell.projects.isError) throw shell.projects.error;

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <div>
        <h1 className={css({ textStyle: { base: '2xl', md: '3xl' }, fontWeight: 'semibold', letterSpacing: 'tight' })}>
          {welcome ? 'Welcome' : 'Hello'}, {user.givenName || user.name || user.email}
        </h1>
        <p className={css({ color: 'fg.muted', mt: '1' })}>
          {shell.currentOrganization ? (
            <>
              You are working in the <bdi>{shell.currentOrganization.name}</bdi> organization.
            </>
          ) : (
            'You are working in your personal account.'
          )}
        </p>
      </div>

      {project && (
        <Card
          title={project.name}
          description="Integrations enabled in this project"
          headerAction={
            hasArea('stack') ? (
              <Link to={`/${project.slug}/stack`} className={buttonStyles({ variant: 'outline', size: 'sm' })}>
                Open stack <ArrowRightIcon />
              </Link>
            ) : undefined
          }
        >
          {integrations.isLoading && <Skeleton height="16" />}
          {integrations.isError && <p className={css({ color: 'fg.error' })}>We encountered an error while fetching some data.</p>}
          {integrations.isSuccess && visibleIntegrations(integrations.data).length === 0 && <p className={css({ color: 'fg.muted' })}>No integrations are enabled in this project yet.</p>}
          {integrations.isSuccess && (
            <ul className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))' }, gap: '3' })}>
              {visibleIntegrations(integrations.data).map((integration) => (
                <li key={integration.id} className={css({ borderWidth: '1px', borderRadius: 'l2', p: '3', display: 'flex', flexDirection: 'column', gap: '1' })}>
                  <div className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '2' })}>
                    <span className={css({ fontWeight: 'semibold' })}>{integration.product.name}</span>
                    <IntegrationStatusBadge status={integration.status} productSlug={integration.product.slug} projectId={project.id} />
                  </div>
                  <span className={css({ textStyle: 'xs', color: 'fg.muted' })}>
                    Added {formatDate(integration.createdAt)} by <bdi>{integration.creatorName}</bdi>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      )}

      <Card
        title="Your projects"
        description={shell.projects.isSuccess ? `${projects.length} project${projects.length === 1 ? '' : 's'} in this account` : undefined}
        headerAction={
          <Link to="/projects" className={buttonStyles({ variant: 'ghost', size: 'sm' })}>
            View all <ArrowRightIcon />
          </Link>
        }
      >
        {shell.projects.isLoading && <Skeleton height="16" />}
        {shell.projects.isSuccess && projects.length === 0 && (
          <p className={css({ color: 'fg.muted' })}>
            No projects yet.{' '}
            {!shell.readOnly && (
              <Link className={css({ color: 'colorPalette.text', textDecoration: 'underline' })} to="/resources/create-project">
                Create your first project
              </Link>
            )}
          </p>
        )}
        <ul className={css({ display: 'flex', flexDirection: 'column' })}>
          {projects.slice(0, 6).map((item) => (
            <li key={item.id} className={css({ borderBottomWidth: '1px', _last: { borderBottomWidth: '0' } })}>
              <Link to={projectHome(item.slug)} onClick={() => rememberSelectedProject(item.slug)} className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', py: '2.5', px: '1', gap: '3', _hover: { color: 'colorPalette.text' } })}>
                <span className={css({ fontWeight: 'medium' })}>{item.name}</span>
                <span className={css({ color: 'fg.muted', textStyle: 'xs', fontFamily: 'mono' })}>{item.slug}</span>
              </Link>
            </li>
          ))}
        </ul>
      </Card>

      <section aria-labelledby="quick-links">
        <h2 id="quick-links" className={css({ textStyle: 'lg', fontWeight: 'semibold', mb: '3' })}>
          Quick links
        </h2>
        <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' }, gap: '3' })}>
          <QuickLink to="/projects" title="Projects" text="Browse and create projects." />
          {hasArea('account') && <QuickLink to={areaPath('account', shell.projectSlug)} title="Account" text="Profile and password." />}
          {hasArea('organization') && shell.organizationId !== null && !shell.readOnly && <QuickLink to={areaPath('organization', shell.projectSlug)} title="Organization" text="Members and invitations." />}
          {hasArea('systemStatus') && <QuickLink to={areaPath('system-status', shell.projectSlug)} title="System status" text="Service health." />}
        </div>
      </section>
    </div>
  );
}

function QuickLink({ to, title, text }: { to: string; title: string; text: string }) {
  return (
    <Link to={to} className={css({ display: 'flex', flexDirection: 'column', gap: '1', p: '4', borderWidth: '1px', borderRadius: 'l3', bg: 'bg.default', transition: 'border-color 0.15s', _hover: { borderColor: 'colorPalette.default' } })}>
      <span className={css({ fontWeight: 'semibold', display: 'flex', alignItems: 'center', gap: '1' })}>
        {title} <ArrowRightIcon />
      </span>
      <span className={css({ color: 'fg.muted', textStyle: 'sm' })}>{text}</span>
    </Link>
  );
}
