import { ProjectIdQuery } from '../../contract/common';
import { type Integration } from '../../contract/integrations';
import type { Product, UserProduct } from '../../contract/products';
import { projectSlug } from '../../contract/projects';
import {
  findProjectIntegration,
  listIntegrationsOfProjects,
  listProducts,
  listProjectIntegrations,
  type IntegrationRow,
  type ProductRow,
} from '../db/repositories/integrations-repository';
import { listVisibleProjects } from '../db/repositories/projects-repository';
import type { ApiContext, ApiRouter } from './api-context';
import { requireCaller, requireOrganization, type Caller } from './caller';
import { badRequest, decodeOrThrow, sendJson } from './http';
import { visibleProjectOr404 } from './project-routes';

const DAY_MS = 86_400_000;
// Products whose screens are open only to the people on the integration's user list.
const LISTED_USERS_ONLY = new Set(['hepic', 'grafana']);

const toProduct = (row: ProductRow): Product => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  description: row.description,
  is_available: row.is_available,
  tags: row.tags,
  dependencies: row.dependencies,
});

function toIntegration(row: IntegrationRow, product: ProductRow): Integration {
  const creatorName = row.creator_id ? `${row.creator_given_name ?? ''} ${row.creator_family_name ?? ''}`.trim() || (row.creator_email ?? '') : '';
  const usable = row.status === 'active' || row.status === 'trial' || row.status === 'scheduled_for_cancellation';
  return {
    id: row.id,
    project_id: row.project_id,
    created_at: row.created_at.toISOString(),
    creator_name: creatorName,
    status: row.status as Integration['status'],
    product: toProduct(product),
    user: row.creator_id
      ? { id: row.creator_id, given_name: row.creator_given_name ?? '', family_name: row.creator_family_name ?? '', email: row.creator_email ?? '' }
      : null,
    is_user_active: row.is_user_listed,
    is_available: usable && (!LISTED_USERS_ONLY.has(row.product_slug) || row.is_user_listed),
  };
}

export function registerIntegrationRoutes(router: ApiRouter, ctx: ApiContext): void {
  // The catalogue changes only with a migration, so it is read once per process.
  let catalogue: Promise<ProductRow[]> | undefined;
  const products = () => (catalogue ??= listProducts(ctx.db).catch((error) => {
    catalogue = undefined;
    throw error;
  }));

  async function scopedProject(caller: Caller, query: Record<string, string>) {
    const { project_id } = decodeOrThrow(ProjectIdQuery, query);
    if (caller.organizationId !== null) await requireOrganization(caller);
    return visibleProjectOr404(ctx, caller, project_id);
  }

  async function integrationOf(caller: Caller, query: Record<string, string>, slug: string) {
    const project = await scopedProject(caller, query);
    const integration = await findProjectIntegration(ctx.db, caller.userId, project.id, slug);
    if (!integration) throw badRequest(`${slug} is not enabled for project ${project.id}`, 'Enable it from the stack page first.');
    return integration;
  }

  router.add('GET', 'products', async ({ res }, scope) => {
    requireCaller(await scope.caller());
    sendJson(res, 200, (await products()).map(toProduct));
  });

  router.add('GET', 'users/products', async ({ res }, scope) => {
    const caller = requireCaller(await scope.caller());
    if (caller.organizationId !== null) await requireOrganization(caller);
    const projects = await listVisibleProjects(ctx.db, caller);
    const byId = new Map(projects.map((p) => [p.id, p]));
    const enabled = await listIntegrationsOfProjects(ctx.db, projects.map((p) => p.id));
    const result: UserProduct[] = [];
    for (const product of await products()) {
      const uses = enabled.filter((e) => e.product_slug === product.slug);
      if (uses.length === 0) continue;
      result.push({
        ...toProduct(product),
        projects: uses.map((e) => {
          const p = byId.get(e.project_id)!;
          return { id: p.id, name: p.name, slug: projectSlug(p.name, p.id), status: e.status };
        }),
      });
    }
    sendJson(res, 200, result);
  });

  router.add('GET', 'integrations', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const project = await scopedProject(caller, query);
    const catalogueBySlug = new Map((await products()).map((p) => [p.slug, p]));
    const rows = await listProjectIntegrations(ctx.db, caller.userId, project.id);
    sendJson(res, 200, rows.map((row) => toIntegration(row, catalogueBySlug.get(row.product_slug)!)));
  });

  router.add('GET', 'integrations/status', async ({ res }, scope) => {
    requireCaller(await scope.caller());
    sendJson(res, 200, await ctx.services.report(await products()));
  });

  router.add('GET', 'integrations/:integration/trial', async ({ res, query, params }, scope) => {
    const caller = requireCaller(await scope.caller());
    const integration = await integrationOf(caller, query, params.integration);
    const endsAt = integration.status === 'trial' ? integration.trial_ends_at : null;
    const remaining = endsAt ? Math.max(0, Math.ceil((endsAt.getTime() - Date.now()) / DAY_MS)) : 0;
    sendJson(res, 200, { remaining_days: remaining });
  });

  router.add('GET', 'integrations/:integration/cancellation', async ({ res, query, params }, scope) => {
    const caller = requireCaller(await scope.caller());
    const integration = await integrationOf(caller, query, params.integration);
    const at = integration.status === 'scheduled_for_cancellation' ? integration.cancellation_at : null;
    sendJson(res, 200, { cancellation_date_timestamp: at ? Math.floor(at.getTime() / 1000) : null });
  });
}
