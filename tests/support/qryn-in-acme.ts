// A platform with its product back ends, qryn enabled on the seeded Acme Production project by Acme's owner, and
// that instance's ingestion gateway listening: the starting point of the qryn API tests that push real data.
import { startApi, type ApiHarness } from './api-client';
import type { DatabaseTarget } from './postgres';
import { enableQryn, serveQrynGateway, type EnabledQryn } from './qryn';

export interface QrynInAcme {
  api: ApiHarness;
  acmeId: number;
  productionId: number;
  /** Acme owner's access token in Acme's organization mode. */
  owner: string;
  qryn: EnabledQryn;
  gateway: Awaited<ReturnType<typeof serveQrynGateway>>;
}

export async function startQrynInAcme(target: DatabaseTarget): Promise<QrynInAcme> {
  const api = await startApi(target, { products: true });
  try {
    const acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    const productionId = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
    const owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    const qryn = await enableQryn(api, productionId, (await api.user('demo@example.com')).id, acmeId);
    const gateway = await serveQrynGateway(qryn);
    return { api, acmeId, productionId, owner, qryn, gateway };
  } catch (error) {
    await api.close();
    throw error;
  }
}

export async function stopQrynInAcme(setup: QrynInAcme | undefined): Promise<void> {
  await setup?.gateway.close();
  await setup?.api.close();
}
