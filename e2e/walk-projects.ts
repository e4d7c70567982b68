// Projects the browser walks (e2e/paths-*.spec.ts) make for themselves through the API, so that what a path changes
// (a token deleted, a subscription cancelled) never touches the demo data other specs read.
import { freshAcmeProject, type AcmeSession } from './acme-session';
import { expect } from './fixtures';

async function apiJson(session: AcmeSession, method: 'GET' | 'POST', path: string, data?: unknown): Promise<unknown> {
  const response = await session.api(method, path, data);
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** A fresh Acme project with a qryn instance on the first storage and writer region the catalogue offers. */
export async function freshQrynProject(session: AcmeSession, name: string): Promise<{ id: number; slug: string }> {
  const project = await freshAcmeProject(session, name);
  const [resource] = (await apiJson(session, 'GET', `integrations/qryn/cloud/resources?project_id=${project.id}`)) as Array<{ clickhouse_cluster_id: number }>;
  const [region] = (await apiJson(session, 'GET', 'integrations/qryn/writer-regions')) as Array<{ code: string }>;
  await apiJson(session, 'POST', `integrations/qryn?project_id=${project.id}`, { cluster_id: resource.clickhouse_cluster_id, writer_region_code: region.code, multi_org: false });
  return project;
}
