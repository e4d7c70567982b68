import type { Database } from '../db/database';
import type { ProductRegistry } from './product-registry';

// The demo data enables products by writing integration rows; on a freshly seeded database this gives those rows
// the real back ends the stack's enable call would have made (qryn's instance and storage, Loggen's defaults …),
// with each product's quick-start choice as the show-config input. A product without a back end keeps its row only.

export async function provisionDemoProducts(db: Database, products: ProductRegistry, log: (message: string) => void): Promise<void> {
  const rows = await db.query<{ id: number; project_id: number; product_slug: string; creator_user_id: string | null; organization_id: number | null }>(
    `SELECT i.id, i.project_id, i.product_slug, i.creator_user_id, p.organization_id
       FROM integrations i JOIN projects p ON p.id = i.project_id ORDER BY i.id`,
  );
  for (const row of rows) {
    const backend = products.get(row.product_slug);
    if (!backend || !row.creator_user_id) continue;
    try {
      const input = (await backend.defaultInput?.(row.project_id)) ?? {};
      await db.transaction((tx) =>
        backend.enable(tx, { integrationId: row.id, projectId: row.project_id, userId: row.creator_user_id!, organizationId: row.organization_id, input }),
      );
    } catch (error) {
      log(`[demo] ${row.product_slug} of project ${row.project_id} was not provisioned: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
