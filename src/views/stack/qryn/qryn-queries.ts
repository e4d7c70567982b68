// The qryn pages' queries: one key per call and project, ten seconds fresh and no retries (spec 001 §9).
import { queryOptions } from '@tanstack/react-query';
import { currentMonth, getQrynConfig, getQrynCosts, listInstrumentedApplications, getQrynMetrics, listQrynTokens } from '../../../services/qryn';
import { listCloudResources, listRetentionPolicies } from '../../../services/stack';

const STALE_MS = 10_000;
const HOUR_MS = 3_600_000;

export const qrynQueries = {
  config: (projectId: number) => queryOptions({ queryKey: ['qryn', projectId, 'config'], queryFn: () => getQrynConfig(projectId), staleTime: STALE_MS, retry: false }),
  metrics: (projectId: number) =>
    queryOptions({ queryKey: ['qryn', projectId, 'metrics'], queryFn: () => getQrynMetrics(projectId, currentMonth(Date.now())), staleTime: STALE_MS, retry: false }),
  costs: (projectId: number) => queryOptions({ queryKey: ['qryn', projectId, 'costs'], queryFn: () => getQrynCosts(projectId), staleTime: STALE_MS, retry: false }),
  instrumented: (projectId: number) =>
    queryOptions({ queryKey: ['qryn', projectId, 'instrumented'], queryFn: () => listInstrumentedApplications(projectId), staleTime: STALE_MS, retry: false }),
  cloudResources: (projectId: number) =>
    queryOptions({ queryKey: ['qryn', projectId, 'cloud-resources'], queryFn: () => listCloudResources('qryn', projectId), staleTime: STALE_MS, retry: false }),
  tokens: (projectId: number) => queryOptions({ queryKey: ['qryn', projectId, 'tokens'], queryFn: () => listQrynTokens(projectId), staleTime: STALE_MS, retry: false }),
  retentionPolicies: () => queryOptions({ queryKey: ['qryn', 'retention-policies'], queryFn: listRetentionPolicies, staleTime: HOUR_MS, retry: false }),
};

/** The secret is stored hashed and shown once: the examples show this in its place until the person pastes it. */
export const SECRET_PLACEHOLDER = 'YOUR_API_SECRET';
