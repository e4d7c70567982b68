// The console's areas as paths: which are registered, where they live and how to link to them. Views take their
// links from here; src/app/routes.tsx adds the lazy view of each area to build the route table. This module imports
// no view, so the views and the route table (which loads them) never import each other.
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

export interface AreaPath {
  id: AreaId;
  scope: AreaScope;
  /** Path without a leading slash; may end with '/*' for areas with their own nested routes. */
  path: string;
}

/** The registered areas, in route order (the more specific stack paths before `stack/*`). */
export const AREA_PATHS = [
  { id: 'verify', scope: 'bare', path: 'verify' },
  { id: 'invitations', scope: 'bare', path: 'invitations' },
  { id: 'organization', scope: 'both', path: 'organization' },
  { id: 'projectSettings', scope: 'project', path: 'settings' },
  { id: 'account', scope: 'both', path: 'account' },
  { id: 'accountDelete', scope: 'root', path: 'account/delete' },
  { id: 'billing', scope: 'both', path: 'billing' },
  { id: 'organizationCreate', scope: 'both', path: 'organization/create' },
  { id: 'clickhouse', scope: 'project', path: 'stack/clickhouse/*' },
  { id: 'hepic', scope: 'project', path: 'stack/hepic/*' },
  { id: 'loggen', scope: 'project', path: 'stack/loggen/*' },
  { id: 'qryn', scope: 'project', path: 'stack/qryn/*' },
  { id: 'grafana', scope: 'project', path: 'stack/grafana/*' },
  { id: 'stack', scope: 'project', path: 'stack' },
  { id: 'stackAdd', scope: 'project', path: 'stack/add' },
  { id: 'stackRedirect', scope: 'project', path: 'stack/*' },
  { id: 'statecharts', scope: 'both', path: 'statecharts/*' },
  { id: 'systemStatus', scope: 'both', path: 'system-status' },
] as const satisfies readonly AreaPath[];

/** An area that has a route (and so a view in src/app/routes.tsx). */
export type RegisteredAreaId = (typeof AREA_PATHS)[number]['id'];

export function hasArea(id: AreaId, areas: readonly Pick<AreaPath, 'id'>[] = AREA_PATHS): boolean {
  return areas.some((area) => area.id === id);
}

/** Path segments that belong to a project area (spec 000 section 2), registered or not. */
export const PROJECT_AREA_SEGMENTS = ['stack', 'settings', 'account', 'billing', 'organization', 'system-status'] as const;

/** A link to an area, relative to the selected project when the area also exists per project. */
export function areaPath(path: string, projectSlug: string | null): string {
  return projectSlug ? `/${projectSlug}/${path}` : `/${path}`;
}
