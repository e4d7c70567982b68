import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcmeApi, type ApiHarness } from '../support/api-client';
import type { QrynBackend } from '../../server/products/qryn/qryn-backend';
import { findInstanceOfProject } from '../../server/products/hepic/hepic-repository';

// An enable whose storage is paused (SIGSTOP on the real clickhouse-server) must not hold the platform's database:
// other requests are answered while the enable waits for the storage, and the enable completes once it resumes.

describe('product setup outside the enable transaction', () => {
  let api: ApiHarness;
  let owner: string;
  let productionId: number;
  let stagingId: number;

  beforeAll(async () => {
    ({ api, owner, productionId, stagingId } = await startAcmeApi());
  }, 120_000);
  afterAll(async () => api?.close());

  it('a paused storage during a Hepic enable leaves the other requests answered', async () => {
    const storage = (api.products.get('qryn') as QrynBackend).storageServer()!;
    process.kill(storage.pid!, 'SIGSTOP');
    let enabled: { status: number } | undefined;
    try {
      const enabling = api
        .request('POST', 'integrations/hepic/', { token: owner, query: { project_id: productionId }, body: { price_id: 'hepic-starter', cluster_id: 'shared-local' } })
        .then((response) => (enabled = response));
      // Long enough for the enable to reach the storage (its checks are a few queries of the local database).
      await new Promise((r) => setTimeout(r, 1_000));
      expect(enabled).toBeUndefined();
      // Before, the enable's transaction held the embedded database until the storage answered: this waited too. The
      // bound only keeps a failing run from hanging; it is far above the milliseconds the call takes.
      const projects = await Promise.race([
        api.request('GET', 'projects', { token: owner }),
        new Promise<undefined>((r) => setTimeout(() => r(undefined), 8_000)),
      ]);
      expect(projects?.status).toBe(200);
      expect(enabled).toBeUndefined();
      process.kill(storage.pid!, 'SIGCONT');
      await enabling;
    } finally {
      process.kill(storage.pid!, 'SIGCONT');
    }
    expect(enabled?.status).toBe(201);
    expect(await findInstanceOfProject(api.db, productionId)).toBeDefined();
  });

  it('a qryn enable with its storage down answers a retryable 503 and records nothing', async () => {
    const qryn = api.products.get('qryn') as QrynBackend;
    const input = await qryn.defaultInput!(stagingId);
    await qryn.storageServer()!.close();
    const response = await api.request('POST', 'integrations/qryn/', { token: owner, query: { project_id: stagingId }, body: input });
    expect(response.status).toBe(503);
    expect(response.body.message).toBe('Storage unavailable');
    expect(await api.db.query("SELECT 1 FROM integrations WHERE project_id = $1 AND product_slug = 'qryn'", [stagingId])).toEqual([]);
  });
});
