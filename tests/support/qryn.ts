import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from '../../server/db/database';
import type { ProductRegistry } from '../../server/products/product-registry';
import type { PlatformConfig } from '../../server/config';
import { findUserByEmail } from '../../server/db/repositories/users-repository';
import { createTokenMinter } from './mint-token';
import { createIntegration } from '../../server/db/repositories/integrations-repository';
import type { QrynBackend } from '../../server/products/qryn/qryn-backend';
import { findInstanceOfProject, hashSecret, updateCredentials } from '../../server/products/qryn/instances/qryn-repository';
import { newApiKey, newSecret } from '../../server/products/qryn/qryn-backend';
import { sharedRegion, sharedResourceId } from '../../server/products/qryn/storage/storage-resolver';

export interface EnabledQryn {
  backend: QrynBackend;
  instanceId: string;
  url: string;
  apiKey: string;
  apiSecret: string;
  basic: string;
  projectId: number;
}

/**
 * Enables qryn for a project the way the stack's enable call does: the integration row and the back end's enable()
 * in one transaction, with the show-config body as input.
 */
export async function enableQryn(platform: { db: Database; products: ProductRegistry }, projectId: number, userId: string, organizationId: number | null, input?: Record<string, unknown>): Promise<EnabledQryn> {
  const backend = platform.products.get('qryn') as QrynBackend;
  const existing = await findInstanceOfProject(platform.db, projectId);
  if (existing && !input) {
    // The demo data already enabled qryn here (its secret is stored hashed): take new credentials, as a person
    // would with Rotate API keys.
    const apiKey = newApiKey();
    const apiSecret = newSecret();
    await updateCredentials(platform.db, existing.id, apiKey, hashSecret(apiSecret));
    backend.invalidate(existing.id);
    const basic = `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}`;
    return { backend, instanceId: existing.id, url: backend.instanceUrl(existing.id), apiKey, apiSecret, basic, projectId };
  }
  const region = sharedRegion();
  const result = await platform.db.transaction(async (tx) => {
    const integrationId = await createIntegration(tx, { projectId, productSlug: 'qryn', status: 'active', creatorUserId: userId });
    return backend.enable(tx, {
      integrationId,
      projectId,
      userId,
      organizationId,
      input: input ?? { cluster_id: sharedResourceId(region.code), writer_region_code: region.code, multi_org: false },
    });
  });
  const instance = (await findInstanceOfProject(platform.db, projectId))!;
  const apiKey = result.items!.find((i) => i.label === 'API KEY')!.value;
  const apiSecret = result.items!.find((i) => i.label === 'API SECRET')!.value;
  return {
    backend,
    instanceId: instance.id,
    url: backend.instanceUrl(instance.id),
    apiKey,
    apiSecret,
    basic: `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}`,
    projectId,
  };
}

/** Polls until check() returns a value that is not undefined (clients that send in the background). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > until) throw new Error(`Timed out waiting${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** qryn enabled by demo@ (owner of Acme) on a seeded Acme project, with an owner access token for the API calls. */
export async function enableQrynOnSeededProject(
  platform: { db: Database; products: ProductRegistry; config: PlatformConfig },
  projectName: 'Acme Production' | 'Acme Staging',
): Promise<{ qryn: EnabledQryn; ownerToken: string; projectId: number }> {
  const demo = (await findUserByEmail(platform.db, 'demo@example.com'))!;
  const acme = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
  const projectId = (await platform.db.query<{ id: number }>('SELECT id FROM projects WHERE name = $1', [projectName]))[0].id;
  const qryn = await enableQryn(platform, projectId, demo.id, acme);
  const ownerToken = await (await createTokenMinter(platform.db, platform.config))(demo, { organizationId: acme });
  return { qryn, ownerToken, projectId };
}

/**
 * The instance's gateway on a port of its own, for tests on the API harness (which serves /api only): requests reach
 * the back end's handleHttp the way the platform routes /qryn/. `url` is the instance URL there.
 */
export async function serveQrynGateway(qryn: EnabledQryn): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => void qryn.backend.handleHttp(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/qryn/${qryn.instanceId}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
