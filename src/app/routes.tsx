// The console's route table: each registered area (src/app/route-paths.ts: id, scope, path) with its lazy view
// (its own chunk). Only the router setup (src/app/router.tsx) imports this module; views take their links from
// route-paths, so the views this table loads never import it back.
//
// Adding an area is its id, scope and path in AREA_PATHS and the lazy import of the module that exports its named
// component in AREA_VIEWS below (the type checker asks for one when the other is missing). Links to an area
// (sidebar, menus) show only when hasArea(id) is true, so an area that is not registered never leads to a blank
// page. See docs/console.md.
import { createElement, type ComponentType } from 'react';
import { useParams, type ActionFunction, type RouteObject } from 'react-router';
import type { ProductSlug } from '../../contract/products';
import { AREA_PATHS, type AreaPath, type RegisteredAreaId } from './route-paths';

/** What an area's route loads: the view, and the route action its forms post intents to (Hepic's). */
interface AreaView {
  load: () => Promise<ComponentType>;
  action?: () => Promise<ActionFunction>;
}

export interface AreaRoute extends AreaPath, AreaView {}

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

const AREA_VIEWS: Record<RegisteredAreaId, AreaView> = {
  verify: { load: view(() => import('../views/verify/verify-view'), 'VerifyView') },
  invitations: { load: view(() => import('../views/invitations/invitation-view'), 'InvitationView') },
  organization: { load: view(() => import('../views/organization/organization-settings-view'), 'OrganizationSettingsView') },
  projectSettings: { load: view(() => import('../views/project-settings/project-settings-view'), 'ProjectSettingsView') },
  account: { load: view(() => import('../views/account/account-settings-view'), 'AccountSettingsView') },
  accountDelete: { load: view(() => import('../views/account/account-delete-view'), 'AccountDeleteView') },
  billing: { load: view(() => import('../views/billing/billing-settings-view'), 'BillingSettingsView') },
  organizationCreate: { load: view(() => import('../views/organization/create-organization-view'), 'CreateOrganizationView') },
  clickhouse: { load: productArea('clickhouse', clickhousePageTitle, () => import('../views/clickhouse/clickhouse-area'), 'ClickhouseArea') },
  hepic: {
    load: productArea('hepic', hepicPageTitle, () => import('../views/stack/hepic/hepic-area'), 'HepicArea'),
    action: async () => (await import('../views/stack/hepic/hepic-actions')).hepicAction,
  },
  loggen: { load: productArea('loggen', 'Configuration', () => import('../views/stack/loggen/loggen-view'), 'LoggenView') },
  // qryn wraps itself in the stack's guard: its document title follows the page shown (Overview, Auth Tokens …).
  qryn: { load: view(() => import('../views/stack/qryn/qryn-area'), 'QrynArea') },
  grafana: { load: productArea('grafana', 'Overview', () => import('../views/stack/grafana/grafana-view'), 'GrafanaView') },
  stack: { load: view(() => import('../views/stack/stack-view'), 'StackView') },
  stackAdd: { load: view(() => import('../views/stack/add-product-view'), 'AddProductView') },
  stackRedirect: { load: view(() => import('../views/stack/require-integration'), 'StackRedirect') },
  statecharts: { load: view(() => import('../views/statecharts/statechart-studio-view'), 'StatechartStudioView') },
  systemStatus: { load: view(() => import('../views/system-status/system-status-view'), 'SystemStatusView') },
};

export const AREAS: AreaRoute[] = AREA_PATHS.map((area) => ({ ...area, ...AREA_VIEWS[area.id] }));

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
