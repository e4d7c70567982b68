// A fresh Acme project with qryn enabled through the API, as the explorer's browser tests start: the project, the
// instance URL, its key and secret and their basic-auth header (to push test data).
import { freshAcmeProject, type AcmeSession } from './acme-session';
import { expect } from './fixtures';

export interface FreshQryn {
  project: { id: number; slug: string };
  url: string;
  key: string;
  secret: string;
  basic: string;
}

export async function freshQrynProject(session: AcmeSession, name: string): Promise<FreshQryn> {
  const project = await freshAcmeProject(session, name);
  const [resource] = (await (await session.api('GET', `integrations/qryn/cloud/resources?project_id=${project.id}`)).json()) as { clickhouse_cluster_id: string }[];
  const [region] = (await (await session.api('GET', 'integrations/qryn/writer-regions')).json()) as { code: string }[];
  const enabled = await session.api('POST', `integrations/qryn?project_id=${project.id}`, { cluster_id: resource!.clickhouse_cluster_id, writer_region_code: region!.code, multi_org: false });
  expect(enabled.status(), await enabled.text()).toBeLessThan(300);
  const keys = (await enabled.json()) as { api_key: string; api_secret: string };
  const config = (await (await session.api('GET', `integrations/qryn/config?project_id=${project.id}`)).json()) as { url: string };
  return { project, url: config.url, key: keys.api_key, secret: keys.api_secret, basic: `Basic ${Buffer.from(`${keys.api_key}:${keys.api_secret}`).toString('base64')}` };
}
