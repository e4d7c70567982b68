import { ServiceStatusList } from '../../contract/integrations';
import { http } from './http';

export type { Integration } from './shell-reads';
export type ServiceStatus = Awaited<ReturnType<typeof listServiceStatus>>[number];

export function listServiceStatus() {
  return http.get('integrations/status', ServiceStatusList);
}
