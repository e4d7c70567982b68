import { queryOptions } from '@tanstack/react-query';
import {
  getIntegrationCancellation,
  getIntegrationTrial,
  getOrganizationTrial,
  listIntegrations,
  listOwnedOrganizations,
  listProjects,
  listUserOrganizations,
  listUserProducts,
} from '../services/shell-reads';
import { STALE_TIME } from './query-client';

// Query definitions shared by the shell views; the account scope (organization id) is part of every key so a
// switch never shows the previous account's data. The shell's first reads come from shell-reads (no schema library);
// the product catalogue and the service status load their service (and the schema library) when first asked.
export const queries = {
  projects: (scope: number | null) => queryOptions({ queryKey: ['projects', scope], queryFn: listProjects }),
  userOrganizations: () => queryOptions({ queryKey: ['users', 'organizations'], queryFn: listUserOrganizations }),
  ownedOrganizations: () => queryOptions({ queryKey: ['organizations', 'owned'], queryFn: listOwnedOrganizations, staleTime: STALE_TIME.long }),
  organizationTrial: (organizationId: number) =>
    queryOptions({ queryKey: ['organizations', 'trial', organizationId], queryFn: getOrganizationTrial, staleTime: STALE_TIME.long }),
  products: () => queryOptions({ queryKey: ['products'], queryFn: async () => (await import('../services/products')).listProducts(), staleTime: STALE_TIME.reference }),
  userProducts: (scope: number | null) => queryOptions({ queryKey: ['users', 'products', scope], queryFn: listUserProducts }),
  integrations: (projectId: number) => queryOptions({ queryKey: ['integrations', projectId], queryFn: () => listIntegrations(projectId) }),
  integrationTrial: (slug: string, projectId: number) =>
    queryOptions({ queryKey: ['integrations', projectId, slug, 'trial'], queryFn: () => getIntegrationTrial(slug, projectId), staleTime: STALE_TIME.long }),
  integrationCancellation: (slug: string, projectId: number) =>
    queryOptions({ queryKey: ['integrations', projectId, slug, 'cancellation'], queryFn: () => getIntegrationCancellation(slug, projectId), staleTime: STALE_TIME.long }),
  serviceStatus: () => queryOptions({ queryKey: ['integrations', 'status'], queryFn: async () => (await import('../services/integrations')).listServiceStatus() }),
};
