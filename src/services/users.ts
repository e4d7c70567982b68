import { OrganizationList } from '../../contract/organizations';
import { http } from './http';

export type UserOrganization = Awaited<ReturnType<typeof listUserOrganizations>>[number];

/** Organizations the user is a member of (read_only tells read-only membership). */
export function listUserOrganizations() {
  return http.get('users/organizations', OrganizationList);
}

/** Organizations the user owns (fresh for 8 h). */
export function listOwnedOrganizations() {
  return http.get('organizations/users/owner', OrganizationList);
}
