// A fresh Acme project with qryn and Loggen enabled through the API (well under a second), where Loggen never ran: its
// configuration saved as a 5 s run of 50 lines a second into the project's qryn, with the write token qryn made for it.
import type { Page } from '@playwright/test';
import { SAMPLE_CONFIG } from '../src/machines/loggen-run/loggen-run.samples';
import type { AcmeSession } from './acme-session';
import { expect } from './fixtures';

export interface Lab {
  projectId: number;
  slug: string;
  /** The write token the saved configuration pushes with, and its id in qryn's Auth Tokens. */
  secret: string;
  tokenId: number;
}

export type Api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, data?: unknown) => Promise<unknown>;

/** The walk's own calls, as the owner (not through the page, so the gate does not hold them). */
export function ownerApi(page: Page, session: AcmeSession): Api {
  return async (method, path, data) => {
    const answer = await page.request.fetch(`/api/${path}`, {
      method,
      headers: { Authorization: `Bearer ${session.tokens.at(-1)!.raw}` },
      ...(data === undefined ? {} : { data }),
    });
    expect(answer.ok(), `${method} ${path}: ${await answer.text()}`).toBe(true);
    return answer.status() === 204 ? null : answer.json();
  };
}

/** A project where Loggen never ran, its configuration a 5 s run of 50 lines a second into the project's qryn. */
export async function freshLoggen(api: Api): Promise<Lab> {
  const project = (await api('POST', 'projects/', { name: `Loggen walk ${Date.now().toString(36)}` })) as { id: number; slug: string };
  const query = `project_id=${project.id}`;
  const [storage] = (await api('GET', `integrations/qryn/cloud/resources?${query}`)) as Array<{ clickhouse_cluster_id: string }>;
  const [region] = (await api('GET', 'integrations/qryn/writer-regions')) as Array<{ code: string }>;
  await api('POST', `integrations/qryn?${query}`, { cluster_id: storage.clickhouse_cluster_id, writer_region_code: region.code });
  await api('POST', `integrations/loggen?${query}`, {});
  // The first read saves the defaults: the instance's URL and key, and a write token qryn makes for Loggen.
  const { project_id: _p, subscription_id: _s, ...config } = (await api('GET', `integrations/loggen/config?${query}`)) as Record<string, unknown>;
  await api('PATCH', `integrations/loggen/config?${query}`, { ...config, rate: SAMPLE_CONFIG.rate, timeout: SAMPLE_CONFIG.timeout });
  const tokens = (await api('GET', `integrations/qryn/tokens?${query}`)) as Array<{ id: number; name: string }>;
  const made = tokens.filter((token) => token.name === 'Loggen');
  expect(made, 'the token qryn made for Loggen').toHaveLength(1);
  return { projectId: project.id, slug: project.slug, secret: config.api_secret as string, tokenId: made[0].id };
}
