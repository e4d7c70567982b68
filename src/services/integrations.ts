import { IntegrationCancellationResponse, IntegrationList, IntegrationTrialResponse, ServiceStatusList } from '../../contract/integrations';
import { http } from './http';

export type Integration = Awaited<ReturnType<typeof listIntegrations>>[number];
export type ServiceStatus = Awaited<ReturnType<typeof listServiceStatus>>[number];

export function listIntegrations(projectId: number) {
  return http.get('integrations/', IntegrationList, { searchParams: { project_id: projectId } });
}

export function getIntegrationTrial(slug: string, projectId: number) {
  return http.get(`integrations/${encodeURIComponent(slug)}/trial`, IntegrationTrialResponse, { searchParams: { project_id: projectId } });
}

/** The scheduled cancellation date in milliseconds (the API sends seconds), or null. */
export async function getIntegrationCancellation(slug: string, projectId: number): Promise<number | null> {
  const response = await http.get(`integrations/${encodeURIComponent(slug)}/cancellation`, IntegrationCancellationResponse, { searchParams: { project_id: projectId } });
  return response.cancellationDateTimestamp === null ? null : response.cancellationDateTimestamp * 1000;
}

export function listServiceStatus() {
  return http.get('integrations/status', ServiceStatusList);
}
