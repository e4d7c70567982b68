import type { Queryable } from '../db/database';
import { listIntegrationsForRelease } from '../db/repositories/integrations-repository';
import type { ProductBackends } from '../route-kit/product-backend';

/**
 * Before projects are deleted: every product releases what it holds for their integrations through the one seam
 * (servers stopped, data removed), inside the caller's transaction, so a failed release keeps everything as it was.
 * The integration rows, user lists and teams then go with the projects (ON DELETE CASCADE).
 */
export async function releaseProjectIntegrations(tx: Queryable, products: ProductBackends, projectIds: readonly number[]): Promise<void> {
  for (const projectId of projectIds) {
    for (const integration of await listIntegrationsForRelease(tx, projectId)) {
      await products.get(integration.product_slug)?.release(tx, { integrationId: integration.id, projectId });
    }
  }
}
