// Grafana's calls (spec 001 §7 Grafana): configuration, datasources, dashboards, users, auto-add and the dashboards
// export (a zip read with the bearer token and saved under the name the server gives).
import { MessageResponse } from '../../contract/common';
import {
  AutoAddResponse,
  CreatedResponse,
  EXPORT_DEFAULT_FILENAME,
  EXPORT_FAILED_MESSAGE,
  GrafanaConfig,
  GrafanaDashboardList,
  GrafanaDatasourceList,
  GrafanaUserList,
  NO_TOKEN_MESSAGE,
  QrynDatasources,
  type CreateDatasourceBody,
} from '../../contract/grafana';
import { resolveUrl, settings } from '../config/settings';
import { getAccessToken } from './auth';
import { http } from './http';

const base = 'integrations/grafana';
const project = (projectId: number) => ({ searchParams: { project_id: projectId } });

export const getGrafanaConfig = (projectId: number) => http.get(`${base}/config`, GrafanaConfig, project(projectId));
export const listGrafanaDatasources = (projectId: number) => http.get(`${base}/datasources`, GrafanaDatasourceList, project(projectId));
export const getQrynDatasources = (projectId: number) => http.get(`${base}/qryn-datasources`, QrynDatasources, project(projectId));
export const listGrafanaDashboards = (projectId: number) => http.get(`${base}/dashboards`, GrafanaDashboardList, project(projectId));
export const listGrafanaUsers = (projectId: number) => http.get(`${base}/users`, GrafanaUserList, project(projectId));

/** The form is already in the wire's snake_case (its field names are the server's error keys). */
export const createGrafanaDatasource = (projectId: number, form: CreateDatasourceBody) => http.post(`${base}/datasources`, CreatedResponse, { ...project(projectId), json: form });
export const createGrafanaDashboards = (projectId: number, clusterIds: readonly number[]) =>
  http.post(`${base}/dashboards`, CreatedResponse, { ...project(projectId), json: { productClickhouseClusters: clusterIds } });
export const addGrafanaUsers = (projectId: number, users: readonly { id: string; name: string; email: string }[]) =>
  http.post(`${base}/users`, MessageResponse, { json: { users, projectId } });
export const setGrafanaAutoAdd = (projectId: number, enabled: boolean) => http.post(`${base}/auto-add`, AutoAddResponse, { ...project(projectId), json: { enabled } });

/** The file name of a Content-Disposition header (filename*= or filename=), or the default. */
export function filenameFrom(header: string | null, fallback = EXPORT_DEFAULT_FILENAME): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) return decodeURIComponent(extended[1].trim());
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain ? plain[1].trim() : fallback;
}

/**
 * GET export-dashboards with the bearer token: the zip and its name. Throws NO_TOKEN_MESSAGE without a token and
 * EXPORT_FAILED_MESSAGE when the server refuses.
 */
export async function exportGrafanaDashboards(projectId: number): Promise<{ blob: Blob; filename: string }> {
  const token = await getAccessToken();
  if (!token) throw new Error(NO_TOKEN_MESSAGE);
  const url = new URL(`${resolveUrl(settings.apiUrl, globalThis.location?.origin ?? 'http://localhost').replace(/\/$/, '')}/${base}/export-dashboards`);
  url.searchParams.set('project_id', String(projectId));
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } }).catch(() => null);
  if (!response || !response.ok) throw new Error(EXPORT_FAILED_MESSAGE);
  return { blob: await response.blob(), filename: filenameFrom(response.headers.get('content-disposition')) };
}

/** Hands a blob to the browser as a download. */
export function saveBlob(blob: Blob, filename: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1_000);
}
