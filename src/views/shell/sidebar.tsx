import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { css, cx } from 'styled-system/css';
import { queries } from '../../app/query-keys';
import { hasArea } from '../../app/route-paths';
import { BookIcon, BuildingIcon, CardIcon, GridIcon, HomeIcon, LayersIcon, LifeBuoyIcon, LogOutIcon, PlusIcon, SettingsIcon, SwitchIcon, UserIcon } from '../../components/ui/icons';
import { settings } from '../../config/settings';
import { toast } from '../../services/toast-store';
import { buildSidebar, type SidebarLink } from './sidebar-model';
import { useShellData } from './use-shell-data';
import { useIntegrationStatus } from '../stack/integration-status-badge';

const sectionLabel = css({ px: '3', pt: '5', pb: '1.5', textStyle: 'xs', fontWeight: 'semibold', letterSpacing: 'wider', color: 'fg.muted', textTransform: 'uppercase' });
const itemClass = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2.5',
  px: '3',
  py: '1.5',
  minH: '9',
  borderRadius: 'l2',
  textStyle: 'sm',
  color: 'fg.muted',
  fontWeight: 'medium',
  transition: 'background 0.15s, color 0.15s',
  _hover: { bg: 'gray.a3', color: 'fg.default' },
  '&[aria-current=page]': { bg: 'colorPalette.a3', color: 'colorPalette.text' },
  '&[aria-disabled=true]': { opacity: 0.45, cursor: 'not-allowed' },
  _focusVisible: { outline: '2px solid', outlineColor: 'colorPalette.default', outlineOffset: '-2px' },
});

const accountIcons: Record<string, ReactNode> = { account: <UserIcon />, billing: <CardIcon />, organization: <BuildingIcon /> };

function SidebarNavLink({ link, icon, onNavigate }: { link: SidebarLink; icon: ReactNode; onNavigate?: () => void }) {
  if (link.external) {
    return (
      <a href={link.href} className={itemClass} target={link.href.startsWith('mailto:') ? undefined : '_blank'} rel="noreferrer">
        {icon}
        {link.label}
      </a>
    );
  }
  if (link.disabled) return <DisabledProjectLink icon={icon} label={link.label} />;
  return (
    <NavLink to={link.href} className={itemClass} onClick={onNavigate} end>
      {icon}
      {link.label}
    </NavLink>
  );
}

export const NO_PROJECT_SELECTED = 'No project has been selected.';

/**
 * A project-scoped link while no project is selected: it stays in the tab order (so keyboard users learn why it
 * does nothing) and answers a click or Enter with the spec's toast instead of navigating.
 */
function DisabledProjectLink({ icon, label }: { icon: ReactNode; label: string }) {
  const explain = () => toast.error(NO_PROJECT_SELECTED, 'Choose a project in the project menu first.');
  return (
    <span
      role="link"
      aria-disabled="true"
      tabIndex={0}
      className={itemClass}
      title="Select a project first"
      onClick={explain}
      onKeyDown={(event) => {
        if (event.key === 'Enter') explain();
      }}
    >
      {icon}
      {label}
    </span>
  );
}

export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const shell = useShellData();
  const projectId = shell.currentProject?.id ?? null;
  const integrations = useQuery({ ...queries.integrations(projectId ?? 0), enabled: projectId !== null });
  const userProducts = useQuery(queries.userProducts(shell.organizationId));
  const model = buildSidebar({
    projectSlug: shell.projectSlug,
    integrations: projectId !== null ? (integrations.data ?? []) : [],
    organizationId: shell.organizationId,
    organizations: shell.organizations.data ?? [],
    hideBilling: settings.hideBilling,
    hasArea: (id) => hasArea(id),
    supportEmail: settings.supportEmail,
    docsUrl: settings.docsUrl,
  });
  const productsElsewhere = projectId === null ? (userProducts.data ?? []) : [];

  return (
    <nav aria-label="Main" className={css({ display: 'flex', flexDirection: 'column', h: 'full', overflowY: 'auto', px: '3', pb: '3' })}>
      <Link to="/" onClick={onNavigate} className={css({ display: 'flex', alignItems: 'center', gap: '2.5', px: '2', h: '14', flexShrink: 0, fontWeight: 'semibold', textStyle: 'md', color: 'fg.default' })}>
        <img src="/favicon.svg" alt="" width="28" height="28" />
        <span>Observability</span>
      </Link>

      <div className={css({ display: 'flex', flexDirection: 'column', gap: '0.5' })}>
        <NavLink to={shell.projectSlug ? `/${shell.projectSlug}` : '/'} className={itemClass} onClick={onNavigate} end>
          <HomeIcon />
          Overview
        </NavLink>
        <NavLink to="/projects" className={itemClass} onClick={onNavigate} end>
          <GridIcon />
          Projects
        </NavLink>
      </div>

      <p className={sectionLabel} id="sidebar-integrations">
        Integrations
      </p>
      <ul aria-labelledby="sidebar-integrations" className={css({ display: 'flex', flexDirection: 'column', gap: '0.5' })}>
        {projectId === null && (
          <li className={css({ px: '3', py: '1', textStyle: 'xs', color: 'fg.muted' })}>
            {productsElsewhere.length > 0 ? 'Select a project to open its integrations.' : 'Select a project to see its integrations.'}
          </li>
        )}
        {projectId === null &&
          productsElsewhere.map((product) => (
            <li key={product.slug}>
              <DisabledProjectLink icon={<LayersIcon />} label={product.name} />
            </li>
          ))}
        {projectId !== null && integrations.isLoading && <li className={css({ px: '3', py: '1', textStyle: 'xs', color: 'fg.muted' })}>Loading…</li>}
        {projectId !== null && integrations.isError && <li className={css({ px: '3', py: '1', textStyle: 'xs', color: 'fg.error' })}>Integrations are not available right now.</li>}
        {projectId !== null && integrations.isSuccess && model.integrations.length === 0 && (
          <li className={css({ px: '3', py: '1', textStyle: 'xs', color: 'fg.muted' })}>No integrations enabled in this project yet.</li>
        )}
        {model.integrations.map((integration) => (
          <li key={integration.slug}>
            {integration.href ? (
              <NavLink to={integration.href} className={itemClass} onClick={onNavigate}>
                <LayersIcon />
                <span className={css({ flex: '1' })}>{integration.name}</span>
                {integration.status !== 'active' && <StatusDot status={integration.status} productSlug={integration.slug} projectId={projectId ?? 0} />}
              </NavLink>
            ) : (
              <span className={cx(itemClass, css({ _hover: { bg: 'transparent' } }))}>
                <LayersIcon />
                <span className={css({ flex: '1' })}>{integration.name}</span>
                <StatusDot status={integration.status} productSlug={integration.slug} projectId={projectId ?? 0} />
              </span>
            )}
          </li>
        ))}
      </ul>

      {(model.settings || model.docs) && <p className={sectionLabel}>Project</p>}
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '0.5' })}>
        {model.settings && <SidebarNavLink link={model.settings} icon={<SettingsIcon />} onNavigate={onNavigate} />}
        <SidebarNavLink link={model.docs} icon={<BookIcon />} />
      </div>

      {model.accountLinks.length > 0 && <p className={sectionLabel}>Account</p>}
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '0.5' })}>
        {model.accountLinks.map((link) => (
          <SidebarNavLink key={link.id} link={link} icon={accountIcons[link.id]} onNavigate={onNavigate} />
        ))}
      </div>

      <p className={sectionLabel} id="sidebar-switch-account">
        Switch account
      </p>
      <ul aria-labelledby="sidebar-switch-account" className={css({ display: 'flex', flexDirection: 'column', gap: '0.5' })}>
        {model.switchAccount.map((entry) => (
          <li key={entry.id}>
            <Link to={entry.href} className={itemClass} aria-current={entry.current ? 'true' : undefined} onClick={onNavigate}>
              <SwitchIcon />
              <span className={css({ flex: '1', truncate: true })}>{entry.label}</span>
              {entry.current && (
                <span role="img" aria-label="(current account)" className={css({ color: 'colorPalette.text', fontWeight: 'bold' })}>
                  ✓
                </span>
              )}
            </Link>
          </li>
        ))}
        {model.createOrganization && (
          <li>
            <SidebarNavLink link={model.createOrganization} icon={<PlusIcon />} onNavigate={onNavigate} />
          </li>
        )}
      </ul>

      <div className={css({ mt: 'auto', pt: '5', display: 'flex', flexDirection: 'column', gap: '0.5' })}>
        <SidebarNavLink link={model.support} icon={<LifeBuoyIcon />} />
        <Link to="/logout" className={cx(itemClass, css({ textTransform: 'uppercase', letterSpacing: 'wide', textStyle: 'xs' }))}>
          <LogOutIcon />
          Logout
        </Link>
        <p className={css({ px: '3', pt: '2', textStyle: 'xs', color: 'fg.muted' })}>Version {settings.packageVersion}</p>
      </div>
    </nav>
  );
}

// Named as the status badge words it (a trial reads its days left), so the dot and the badge never disagree.
function StatusDot(props: { status: string; productSlug: string; projectId: number }) {
  const { status } = props;
  const { text } = useIntegrationStatus(props);
  const color = status === 'active' ? 'green.9' : status === 'trial' ? 'iris.9' : status === 'suspended' ? 'red.9' : 'amber.9';
  return <span title={text} aria-label={text} role="img" className={css({ w: '2', h: '2', borderRadius: 'full', flexShrink: 0 })} style={{ background: `var(--colors-${color.replace('.', '-')})` }} />;
}
