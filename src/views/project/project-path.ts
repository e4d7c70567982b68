// Project slugs in paths (spec 000 section 2): a name, a dash and the numeric id. Pure rules, unit-tested.
import { projectIdFromSlug } from '../../../contract/project-slug';
import { PROJECT_AREA_SEGMENTS } from '../../app/route-paths';

export { projectIdFromSlug };

export function isProjectSlug(value: string | null | undefined): value is string {
  return typeof value === 'string' && projectIdFromSlug(value) !== null;
}

/**
 * The first path segment is read as a project slug. A valid slug is a project; an invalid one followed by a project
 * area (/{bad}/stack) redirects to /; anything else is an unknown page ('Nothing to see here!').
 */
export function classifyProjectPath(slug: string, rest: string): 'project' | 'redirect-home' | 'not-found' {
  if (isProjectSlug(slug)) return 'project';
  const next = rest.split('/').filter(Boolean)[0];
  return next && (PROJECT_AREA_SEGMENTS as readonly string[]).includes(next) ? 'redirect-home' : 'not-found';
}

/** Root paths that also exist under a project: the remembered project is restored into them. */
const PROJECT_VARIANTS = ['/', '/account', '/billing', '/organization', '/organization/create', '/system-status'];

/**
 * Where to send the user so the remembered project is in the path, or null to stay. Not when the path already
 * has a project, when the navigation carries state or a query string, or when the project no longer exists.
 */
export function restoreProjectPath(input: {
  pathname: string;
  search: string;
  state: unknown;
  rememberedSlug: string | null;
  projectSlugs: readonly string[];
}): string | null {
  const { pathname, search, state, rememberedSlug } = input;
  if (!rememberedSlug || !isProjectSlug(rememberedSlug)) return null;
  if (search && search !== '?') return null;
  if (state !== null && state !== undefined) return null;
  const first = pathname.split('/').filter(Boolean)[0];
  if (first && isProjectSlug(first)) return null;
  if (!input.projectSlugs.includes(rememberedSlug)) return null;
  const normalised = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (!PROJECT_VARIANTS.includes(normalised)) return null;
  return normalised === '/' ? `/${rememberedSlug}` : `/${rememberedSlug}${normalised}`;
}

/**
 * The `project` query parameter selects a project (e.g. a link shared from a mail: /billing?project=acme-1):
 * when it names one of the user's projects it becomes the remembered project and moves into the path, and the
 * parameter is dropped. Anything else is ignored (null).
 */
export function projectFromQuery(input: { pathname: string; search: string; projectSlugs: readonly string[] }): { slug: string; target: string } | null {
  const params = new URLSearchParams(input.search);
  const wanted = params.get('project');
  if (!wanted || !input.projectSlugs.includes(wanted)) return null;
  params.delete('project');
  const rest = params.toString();
  const segments = input.pathname.split('/').filter(Boolean);
  if (segments[0] && isProjectSlug(segments[0])) segments.shift();
  const normalised = `/${segments.join('/')}`;
  const path = PROJECT_VARIANTS.includes(normalised) ? (normalised === '/' ? `/${wanted}` : `/${wanted}${normalised}`) : `/${wanted}/${segments.join('/')}`.replace(/\/$/, '');
  return { slug: wanted, target: rest ? `${path}?${rest}` : path };
}
