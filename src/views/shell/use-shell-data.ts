import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTokenOrganizationId } from '../../app/auth-context';
import { queries } from '../../app/query-keys';
import { isReadOnlyOrganization } from './sidebar-model';
import { isProjectSlug } from '../project/project-path';

/** The shell's shared server state: projects and organizations of the current account, the project in the path. */
export function useShellData() {
  const organizationId = useTokenOrganizationId();
  const params = useParams();
  const projects = useQuery(queries.projects(organizationId));
  const organizations = useQuery(queries.userOrganizations());
  const slug = isProjectSlug(params.projectSlug) ? params.projectSlug : null;
  const currentProject = slug ? (projects.data?.find((project) => project.slug === slug) ?? null) : null;
  const organizationList = organizations.data ?? [];
  return {
    organizationId,
    projects,
    organizations,
    projectSlug: currentProject?.slug ?? null,
    currentProject,
    currentOrganization: organizationList.find((organization) => organization.id === organizationId) ?? null,
    readOnly: isReadOnlyOrganization(organizationId, organizationList),
  };
}
