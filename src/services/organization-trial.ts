import { OrganizationTrialResponse } from '../../contract/organizations';
import { http } from './http';

/** The organization's trial (shell banner); only meaningful in organization mode. */
export function getOrganizationTrial() {
  return http.get('organizations/trial', OrganizationTrialResponse);
}
