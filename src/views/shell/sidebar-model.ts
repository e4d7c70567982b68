// What the sidebar shows (spec 000 section 2 Shell), as a pure function of the shell's data so the visibility
// rules are tested without rendering.
import { areaPath, type AreaId } from '../../app/route-paths';

export interface SidebarIntegrationInput {
  status: string;
  isUserActive: boolean;
  product: { name: string; slug: string };
}

export interface SidebarOrganizationInput {
  id: number;
  name: string;
  readOnly: boolean;
}

export interface SidebarInput {
  projectSlug: string | null;
  integrations: readonly SidebarIntegrationInput[];
  organizationId: number | null;
  organizations: readonly SidebarOrganizationInput[];
  hideBilling: boolean;
  hasArea: (id: AreaId) => boolean;
  supportEmail: string;
  docsUrl: string;
}

export interface SidebarLink {
  id: string;
  label: string;
  href: string;
  /** Project-scoped links are disabled while no project is selected. */
  disabled: boolean;
  external?: boolean;
}

export interface SidebarIntegration {
  slug: string;
  name: string;
  status: string;
  /** null while the stack area is not registered: the entry shows without a link. */
  href: string | null;
}

export interface SidebarModel {
  integrations: SidebarIntegration[];
  settings: SidebarLink | null;
  docs: SidebarLink;
  accountLinks: SidebarLink[];
  switchAccount: { id: string; label: string; href: string; current: boolean }[];
  createOrganization: SidebarLink | null;
  support: SidebarLink;
  readOnly: boolean;
}

/** Products that keep their own user list: their entry shows only to listed users. */
const USER_LISTED_PRODUCTS = new Set(['hepic', 'grafana']);

export function visibleIntegrations<T extends SidebarIntegrationInput>(integrations: readonly T[]): T[] {
  return integrations.filter((integration) => {
    if (integration.status === 'cancelled_by_user') return false;
    if (USER_LISTED_PRODUCTS.has(integration.product.slug) && !integration.isUserActive) return false;
    return true;
  });
}

export function isReadOnlyOrganization(organizationId: number | null, organizations: readonly SidebarOrganizationInput[]): boolean {
  if (organizationId === null) return false;
  return organizations.find((organization) => organization.id === organizationId)?.readOnly ?? false;
}

export function buildSidebar(input: SidebarInput): SidebarModel {
  const { projectSlug, hasArea } = input;
  const noProject = projectSlug === null;
  const readOnly = isReadOnlyOrganization(input.organizationId, input.organizations);
  const inOrganization = input.organizationId !== null;

  const integrations = visibleIntegrations(input.integrations).map((integration) => ({
    slug: integration.product.slug,
    name: integration.product.name,
    status: integration.status,
    href: hasArea('stack') && projectSlug ? `/${projectSlug}/stack/${integration.product.slug}` : null,
  }));

  const settings =
    hasArea('projectSettings') && !readOnly
      ? { id: 'settings', label: 'Settings', href: projectSlug ? `/${projectSlug}/settings` : '/projects', disabled: noProject }
      : null;

  const accountLinks: SidebarLink[] = [];
  if (hasArea('account')) accountLinks.push({ id: 'account', label: 'Account', href: areaPath('account', projectSlug), disabled: false });
  if (hasArea('billing') && !input.hideBilling) accountLinks.push({ id: 'billing', label: 'Billing', href: areaPath('billing', projectSlug), disabled: false });
  if (hasArea('organization') && inOrganization && !readOnly) {
    accountLinks.push({ id: 'organization', label: 'Organization', href: areaPath('organization', projectSlug), disabled: false });
  }

  const switchAccount = [
    { id: 'personal', label: 'Personal account', href: '/login?personalAccount', current: input.organizationId === null },
    ...input.organizations.map((organization) => ({
      id: `organization-${organization.id}`,
      label: organization.name,
      href: `/login?organization=${organization.id}`,
      current: organization.id === input.organizationId,
    })),
  ];

  const createOrganization =
    hasArea('organizationCreate') && !readOnly
      ? { id: 'create-organization', label: 'Create organization', href: areaPath('organization/create', projectSlug), disabled: false }
      : null;

  return {
    integrations,
    settings,
    docs: { id: 'docs', label: 'Docs', href: input.docsUrl, disabled: false, external: true },
    accountLinks,
    switchAccount,
    createOrganization,
    support: { id: 'support', label: 'Request support', href: `mailto:${input.supportEmail}?subject=${encodeURIComponent('Support request')}`, disabled: false, external: true },
    readOnly,
  };
}
