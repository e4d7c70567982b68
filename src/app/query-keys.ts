import { queryOptions } from '@tanstack/react-query';
import { getIntegrationCancellation, getIntegrationTrial, listIntegrations, listServiceStatus } from '../services/integrations';
import { getOrganizationTrial } from '../services/organization-trial';
import { listProducts, listUserProducts } from '../services/products';
import { listProjects } from '../services/projects';
import { listOwnedOrganizations, listUserOrganizations } from '../services/users';
import { STALE_TIME } from './query-client';

// Query definitions shared by the shell views; the account scope (organization id) is part of every key so a
// switch never shows the previous account's data.
export const queries = {
  projects: (scope: number | null) => queryOptions({ queryKey: ['projects', scope], queryFn: listProjects }),
  userOrganizations: () => queryOptions({ queryKey: ['users', 'organizations'], queryFn: listUserOrganizations }),
  ownedOrganizations: () => queryOptions({ queryKey: ['organizations', 'owned'], queryFn: listOwnedOrganizations, staleTime: STALE_TIME.long }),
  organizationTrial: (organizationId: number) =>
    queryOptions({ queryKey: ['organizations', 'trial', organizationId], queryFn: getOrganizationTrial, staleTime: STALE_TIME.long }),
  products: () => queryOptions({ queryKey: ['products'], queryFn: listProducts, staleTime: STALE_TIME.reference }),
  userProducts: (scope: number | null) => queryOptions({ queryKey: ['users', 'products', scope], queryFn: listUserProducts }),
  integrations: (projectId: number) => queryOptions({ queryKey: ['integrations', projectId], queryFn: () => listIntegrations(projectId) }),
  integrationTrial: (slug: string, projectId: number) =>
    queryOptions({ queryKey: ['integrations', projectId, slug, 'trial'], queryFn: () => getIntegrationTrial(slug, projectId), staleTime: STALE_TIME.long }),
  integrationCancellation: (slug: string, projectId: number) =>
    queryOptions({ queryKey: ['integrations', projectId, slug, 'cancellation'], queryFn: () => getIntegrationCancellation(slug, projectId), staleTime: STALE_TIME.long }),
  serviceStatus: () => queryOptions({ queryKey: ['integrations', 'status'], queryFn: listServiceStatus }),
};
