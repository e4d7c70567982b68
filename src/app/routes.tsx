// The one route registry of the console. Every screen is lazy-loaded (its own chunk).
//
// Adding an area is one line in AREAS below: its id, where it lives, its path and the lazy import of a module
// that exports the named component. Links to an area (sidebar, menus) show only when hasArea(id) is true, so an
// area that is not registered never leads to a blank page. See docs/console.md.
import { createElement, type ComponentType } from 'react';
import { useParams, type ActionFunction, type RouteObject } from 'react-router';
import type { ProductSlug } from '../../contract/products';

export type AreaId =
  | 'account'
  | 'accountDelete'
  | 'billing'
  | 'organization'
  | 'organizationCreate'
  | 'projectSettings'
  | 'stack'
  | 'systemStatus'
  | 'verify'
  | 'invitations'
  | 'stackAdd'
  | 'stackRedirect'
  | 'statecharts'
  // Each product's pages: id = slug, scope 'project', path 'stack/<slug>/*', wrapped in RequireIntegration.
  | ProductSlug;

/**
 * - root: inside the shell at /{path}
 * - project: inside the shell at /{projectSlug}/{path}
 * - both: registered at /{path} and /{projectSlug}/{path}
 * - bare: signed in, without the shell (verify, invitations)
 */
export type AreaScope = 'root' | 'project' | 'both' | 'bare';

export interface AreaRoute {
  id: AreaId;
  scope: AreaScope;
  /** Path without a leading slash; may end with '/*' for areas with their own nested routes. */
  path: string;
  load: () => Promise<ComponentType>;
  /** The route action its forms post intents to (Hepic's /{projectSlug}/stack/hepic). */
  action?: () => Promise<ActionFunction>;
}

const view =
  <M extends Record<string, unknown>>(loader: () => Promise<M>, name: keyof M & string) =>
  async (): Promise<ComponentType> =>
    (await loader())[name] as ComponentType;

/**
 * A product's pages inside the stack's guard (enabled, usable by this person; the document title). The page title
 * is fixed, or follows the path below the product (`create`, `auth` …) for products with several pages.
 */
const productArea =
  <M extends Record<string, unknown>>(productSlug: ProductSlug, pageTitle: string | ((subpath: string) => string), loader: () => Promise<M>, name: keyof M & string) =>
  async (): Promise<ComponentType> => {
    const [{ RequireIntegration }, module] = await Promise.all([import('../views/stack/require-integration'), loader()]);
    const Page = module[name] as ComponentType;
    return function ProductArea() {
      const subpath = useParams()['*'] ?? '';
      return createElement(RequireIntegration, { productSlug, pageTitle: typeof pageTitle === 'string' ? pageTitle : pageTitle(subpath), children: createElement(Page) });
    };
  };

/** Page titles below stack/clickhouse and stack/hepic (spec 001 §2: the product name, then the page's own title). */
export const clickhousePageTitle = (subpath: string) => {
  const page = subpath.split('/')[0];
  return page === 'create' ? 'Create cluster' : page === 'settings' ? 'Settings' : 'Clusters';
};
export const hepicPageTitle = (subpath: string) =>
  ({ 'data-ingestion': 'Data Ingestion', auth: 'Auth', config: 'Config' })[subpath.split('/')[0]] ?? 'Overview';

export const AREAS: AreaRoute[] = [
  { id: 'verify', scope: 'bare', path: 'verify', load: view(() => import('../views/verify/verify-view'), 'VerifyView') },
  { id: 'invitations', scope: 'bare', path: 'invitations', load: view(() => import('../views/invitations/invitation-view'), 'InvitationView') },
  { id: 'organization', scope: 'both', path: 'organization', load: view(() => import('../views/organization/organization-settings-view'), 'OrganizationSettingsView') },
  { id: 'projectSettings', scope: 'project', path: 'settings', load: view(() => import('../views/project-settings/project-settings-view'), 'ProjectSettingsView') },
  { id: 'account', scope: 'both', path: 'account', load: view(() => import('../views/account/account-settings-view'), 'AccountSettingsView') },
  { id: 'accountDelete', scope: 'root', path: 'account/delete', load: view(() => import('../views/account/account-delete-view'), 'AccountDeleteView') },
  { id: 'billing', scope: 'both', path: 'billing', load: view(() => import('../views/billing/billing-settings-view'), 'BillingSettingsView') },
  { id: 'organizationCreate', scope: 'both', path: 'organization/create', load: view(() => import('../views/organization/create-organization-view'), 'CreateOrganizationView') },
  { id: 'clickhouse', scope: 'project', path: 'stack/clickhouse/*', load: productArea('clickhouse', clickhousePageTitle, () => import('../views/clickhouse/clickhouse-area'), 'ClickhouseArea') },
  {
    id: 'hepic',
    scope: 'project',
    path: 'stack/hepic/*',
    load: productArea('hepic', hepicPageTitle, () => import('../views/stack/hepic/hepic-area'), 'HepicArea'),
    action: async () => (await import('../views/stack/hepic/hepic-actions')).hepicAction,
  },
  { id: 'loggen', scope: 'project', path: 'stack/loggen/*', load: productArea('loggen', 'Configuration', () => import('../views/stack/loggen/loggen-view'), 'LoggenView') },
  // qryn wraps itself in the stack's guard: its document title follows the page shown (Overview, Auth Tokens …).
  { id: 'qryn', scope: 'project', path: 'stack/qryn/*', load: view(() => import('../views/stack/qryn/qryn-area'), 'QrynArea') },
  { id: 'grafana', scope: 'project', path: 'stack/grafana/*', load: productArea('grafana', 'Overview', () => import('../views/stack/grafana/grafana-view'), 'GrafanaView') },
  { id: 'stack', scope: 'project', path: 'stack', load: view(() => import('../views/stack/stack-view'), 'StackView') },
  { id: 'stackAdd', scope: 'project', path: 'stack/add', load: view(() => import('../views/stack/add-product-view'), 'AddProductView') },
  { id: 'stackRedirect', scope: 'project', path: 'stack/*', load: view(() => import('../views/stack/require-integration'), 'StackRedirect') },
  { id: 'statecharts', scope: 'both', path: 'statecharts/*', load: view(() => import('../views/statecharts/statechart-studio-view'), 'StatechartStudioView') },
  { id: 'systemStatus', scope: 'both', path: 'system-status', load: view(() => import('../views/system-status/system-status-view'), 'SystemStatusView') },
];

export function hasArea(id: AreaId, areas: readonly AreaRoute[] = AREAS): boolean {
  return areas.some((area) => area.id === id);
}

export function toRouteObject(area: AreaRoute): RouteObject {
  return {
    path: area.path,
    lazy: async () => {
      const [Component, action] = await Promise.all([area.load(), area.action?.()]);
      return action ? { Component, action } : { Component };
    },
  };
}

export function areaRoutes(scope: 'root' | 'project' | 'bare', areas: readonly AreaRoute[] = AREAS): RouteObject[] {
  return areas.filter((area) => area.scope === scope || (area.scope === 'both' && scope !== 'bare')).map(toRouteObject);
}

/** Path segments that belong to a project area (spec 000 section 2), registered or not. */
export const PROJECT_AREA_SEGMENTS = ['stack', 'settings', 'account', 'billing', 'organization', 'system-status'] as const;

/** A link to an area, relative to the selected project when the area also exists per project. */
export function areaPath(path: string, projectSlug: string | null): string {
  return projectSlug ? `/${projectSlug}/${path}` : `/${path}`;
}
