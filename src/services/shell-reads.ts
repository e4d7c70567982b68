// The reads the shell and the overview make before they paint: projects, organizations, a project's integrations,
// the products in use, trial days. Checked with wire-checks.ts (no schema library on the first paint).
import { http } from './http';
import { integrationCancellation, integrationList, integrationTrial, organizationList, organizationTrial, projectList, userProductList } from './wire-checks';

export type Project = Awaited<ReturnType<typeof listProjects>>[number];
export type UserOrganization = Awaited<ReturnType<typeof listUserOrganizations>>[number];
export type Integration = Awaited<ReturnType<typeof listIntegrations>>[number];
export type UserProduct = Awaited<ReturnType<typeof listUserProducts>>[number];

export function listProjects() {
  return http.read('projects/', projectList);
}

/** Organizations the user is a member of (read_only tells read-only membership). */
export function listUserOrganizations() {
  return http.read('users/organizations', organizationList);
}

/** Organizations the user owns (fresh for 8 h). */
export function listOwnedOrganizations() {
  return http.read('organizations/users/owner', organizationList);
}

export function listIntegrations(projectId: number) {
  return http.read('integrations/', integrationList, { searchParams: { project_id: projectId } });
}

export function getIntegrationTrial(slug: string, projectId: number) {
  return http.read(`integrations/${encodeURIComponent(slug)}/trial`, integrationTrial, { searchParams: { project_id: projectId } });
}

/** The scheduled cancellation date in milliseconds (the API sends seconds), or null. */
export async function getIntegrationCancellation(slug: string, projectId: number): Promise<number | null> {
  const response = await http.read(`integrations/${encodeURIComponent(slug)}/cancellation`, integrationCancellation, { searchParams: { project_id: projectId } });
  return response.cancellationDateTimestamp === null ? null : response.cancellationDateTimestamp * 1000;
}

export function listUserProducts() {
  return http.read('users/products', userProductList);
}

/** The organization's trial (shell banner); only meaningful in organization mode. */
export function getOrganizationTrial() {
  return http.read('organizations/trial', organizationTrial);
}
